/**
 * `sessions.close()` on a durable engine hands the running turns over instead of stopping them. A
 * process closes for a deploy or a scale-down, not because the user asked for the turn to stop (a
 * stop does that: `sessions.stop`, the server's stop route, useChat's `stop()`). So a turn still
 * running when the close's timeout ends is left exactly as a crash would leave it: nothing more is
 * recorded or committed in this process, its workflow stays pending, and its lease is given up at
 * once, so another process with the same engine recovers the turn and finishes it.
 *
 * What keeps the journal clean is {@link handoverEngine}: from the handover on, a step that ends
 * here (a tool the close aborted, a model call that answers late) is never recorded, because a
 * recorded step would replay as the turn's truth in the process that takes the turn over.
 */
import type { TurnEngine } from '../types/engine.js';
import { guardedEngine, type StepGuard } from './durable-children.js';

/**
 * What a caller in this process gets for a turn `sessions.close()` handed over: the turn was not
 * stopped and goes on in another process. `handedOver` is false for a turn that had not begun (it
 * had not committed its message yet): that turn is over, and the message must be sent again.
 */
export class TurnHandedOverError extends Error {
  /** Whether another process takes the turn over (false: it had not begun, send it again). */
  readonly handedOver: boolean;
  constructor(engine: string, handedOver = true) {
    super(
      handedOver
        ? `The sessions were closed (sessions.close()) while this turn ran on the ${engine} engine: the turn was handed over, ` +
            'not stopped. Another process with the same engine finishes it once this chat is free (read it with ' +
            'sessions.messages or GET /chat/:id/stream on any worker).'
        : `The sessions were closed (sessions.close()) before this turn began on the ${engine} engine (its message was not ` +
            'saved): nothing was handed over and no process will run it. Send the message (or the answers) again.',
    );
    this.name = 'TurnHandedOverError';
    this.handedOver = handedOver;
  }
}

/** A promise that never settles: what a handed-over turn's steps and workflow wait on. */
const never = <T>() => new Promise<T>(() => {});

/** Whether this process has handed its durable turns over, and the engine that records only until then. */
export interface Handover {
  /** True once `sessions.close()` handed the turns over. */
  readonly active: boolean;
  /** The error the handed-over turns end with here. */
  readonly error: TurnHandedOverError;
  /** Hands every durable turn of this process over: no step is recorded from now on. */
  begin(): void;
  /**
   * The engine the turns record on: `engine` until the handover. From then on a new step is not
   * started, and a step in flight is never recorded (its work goes on unseen); the turn waiting on
   * either gets {@link Handover.error} at once, so it ends here without writing.
   */
  readonly engine: TurnEngine;
}

/** A handover for the turns of one `createSessions` on `engine`. */
export function handoverEngine(engine: TurnEngine): Handover {
  let active = false;
  const error = new TurnHandedOverError(engine.name);
  // The steps waiting now, each cut off by the handover. A listener per step, removed when the step
  // ends: a process runs turns for months, and a promise that never settles would keep them all.
  const waiting = new Set<() => void>();
  const guard: StepGuard =
    (record) =>
    <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      if (active) return Promise.reject(error);
      const recorded = record<T>(name, () =>
        fn().then(
          (value) => (active ? never<T>() : value),
          (thrown: unknown) => (active ? never<T>() : Promise.reject(thrown)),
        ),
      );
      return new Promise<T>((resolve, reject) => {
        const cut = () => reject(error);
        waiting.add(cut);
        recorded.then(
          (value) => {
            waiting.delete(cut);
            resolve(value);
          },
          (thrown: unknown) => {
            waiting.delete(cut);
            reject(thrown);
          },
        );
      });
    };
  const guarded = guardedEngine(engine, guard);
  const open = guarded.child;
  // A run that would begin after the handover opens no child workflow: its steps fail as the turn's do.
  if (open) guarded.child = (name) => (active ? { id: name, step: () => Promise.reject(error) } : open(name));
  return {
    get active() {
      return active;
    },
    error,
    begin() {
      if (active) return;
      active = true;
      for (const cut of [...waiting]) cut();
      waiting.clear();
    },
    engine: guarded,
  };
}
