/**
 * The steps of subagent runs' child workflows, as one process serves them (both engines). A run
 * is mounted from its turn's tree and cannot run alone, so a child workflow does not run its run:
 * the child's body (one attempt of the child on the engine, in its own context) records the steps
 * the run asks for, in the order the run asks. The run asks them of the child by id, wherever its
 * turn runs; a body that attaches later (the engine recovered the child in this process) takes
 * what was asked before it.
 *
 * Each step has a position (the order the run asked it in). A step asked again at a position that
 * was asked already (the turn's attempt replays in this process while the child's body lives on: a
 * Restate turn resumed after a suspension) gets that position's outcome, never a second run. A new
 * attempt of the body (the engine retried the child) is handed every step asked so far, in order,
 * so its journal replays them before it records new ones.
 */
import type { ChildWorkflow } from '@skilltree/core/provider';

/** One attempt of a child's body: records a step, or starts the child of a nested run, in its own context. */
export interface ChildBody {
  step(name: string, fn: () => Promise<unknown>): Promise<unknown>;
  /** Starts nested child `id` (of run `name`) of this child. */
  start(id: string, name: string): Promise<unknown>;
}

/** What a run asked of its child at one position. */
type Asked = { kind: 'step'; name: string; fn: () => Promise<unknown> } | { kind: 'child'; name: string; id: string };

interface Outcome {
  promise: Promise<unknown>;
  settle(result: { value: unknown } | { error: unknown }): void;
}

/** A child as this process knows it. */
interface Entry {
  readonly turnId: string;
  readonly asked: Asked[];
  readonly outcomes: Outcome[];
  body?: ChildBody;
  failed?: { error: unknown };
}

function outcome(): Outcome {
  let settle!: Outcome['settle'];
  let done = false;
  const promise = new Promise<unknown>((resolve, reject) => {
    // The first attempt that ran the step decides it; a later one (a retried body) replays the same.
    settle = (result) => {
      if (done) return;
      done = true;
      if ('error' in result) reject(result.error);
      else resolve(result.value);
    };
  });
  promise.catch(() => {});
  return { promise, settle };
}

/** A turn whose children this process knows: their ids, and whether its run ended here. */
interface TurnHere {
  readonly children: Set<string>;
  over: boolean;
  readonly ended: Promise<void>;
  end(): void;
}

/** Milliseconds between two reads of an ended turn's status, at first (doubling to a second). */
const SETTLE_FIRST = 20;

/** The children of one engine in this process, and the ends of their turns. */
export function childSteps() {
  const entries = new Map<string, Entry>();
  const turns = new Map<string, TurnHere>();
  let closed = false;

  const turnOf = (turnId: string): TurnHere => {
    let turn = turns.get(turnId);
    if (!turn) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      turn = { children: new Set(), over: false, ended, end };
      turns.set(turnId, turn);
    }
    return turn;
  };
  const entryOf = (id: string, turnId: string): Entry => {
    let entry = entries.get(id);
    if (!entry) {
      entry = { turnId, asked: [], outcomes: [] };
      entries.set(id, entry);
      turnOf(turnId).children.add(id);
    }
    return entry;
  };
  /** Forgets child `id` (and its turn, once the turn's run ended and no child of it is left). */
  const forget = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    const turn = turns.get(entry.turnId);
    turn?.children.delete(id);
    if (turn?.over && turn.children.size === 0) turns.delete(entry.turnId);
  };
  const issue = (entry: Entry, at: number) => {
    const asked = entry.asked[at] as Asked;
    const body = entry.body as ChildBody;
    let running: Promise<unknown>;
    try {
      running = asked.kind === 'step' ? body.step(asked.name, asked.fn) : body.start(asked.id, asked.name);
    } catch (error) {
      running = Promise.reject(error);
    }
    const settle = (entry.outcomes[at] as Outcome).settle;
    running.then(
      (value) => settle({ value }),
      (error: unknown) => settle({ error }),
    );
  };

  /** Child `id` could not be started: what its steps fail with (never waiting for a body that will not come). */
  const fail = (id: string, turnId: string, error: unknown) => {
    const entry = entryOf(id, turnId);
    entry.failed ??= { error };
    if (!entry.body) for (const pending of entry.outcomes) pending.settle({ error });
  };

  /** The run's side of child `id`: one per attempt of its turn, counting positions from the start. */
  function handle(id: string, turnId: string): ChildWorkflow {
    const entry = entryOf(id, turnId);
    let position = 0;
    const ask = (next: Asked): Promise<unknown> => {
      const at = position++;
      const before = entry.asked[at];
      if (before) {
        if (before.kind !== next.kind || before.name !== next.name) {
          return Promise.reject(
            new Error(
              `Subagent child workflow ${id}: step ${at} was asked as ${before.name}, and is asked now as ${next.name}; the run does not replay as it ran.`,
            ),
          );
        }
        return (entry.outcomes[at] as Outcome).promise;
      }
      if (entry.failed) return Promise.reject(entry.failed.error);
      entry.asked.push(next);
      entry.outcomes.push(outcome());
      if (entry.body) issue(entry, at);
      return (entry.outcomes[at] as Outcome).promise;
    };
    return {
      id,
      step: <T>(name: string, fn: () => Promise<T>) => ask({ kind: 'step', name, fn }) as Promise<T>,
      child(name) {
        const nested = `${id}/${name}`;
        // A nested child that cannot start has no body: its run's steps fail with why.
        ask({ kind: 'child', name, id: nested }).catch((error: unknown) => fail(nested, turnId, error));
        return handle(nested, turnId);
      },
    };
  }

  return {
    handle,
    /** A body of child `id` (of turn `turnId`) serves it from now on: it is handed every step asked so far, in order. */
    attach(id: string, turnId: string, body: ChildBody): void {
      const entry = entryOf(id, turnId);
      entry.body = body;
      for (let at = 0; at < entry.asked.length; at++) issue(entry, at);
    },
    fail,
    /** Whether turn `turnId`'s run ended in this process (its children here end once the engine recorded that). */
    endedHere: (turnId: string) => turns.get(turnId)?.over === true,
    /**
     * Waits until turn `turnId`'s run ended in this process and then until `pending()` says the
     * engine recorded its end (read again and again, at growing intervals up to a second). Once
     * the engine is closed it never resolves: the child is left to the process that takes the turn
     * over, as a crash would leave it.
     */
    async turnOver(turnId: string, pending: () => Promise<boolean>): Promise<void> {
      await turnOf(turnId).ended;
      for (let pause = SETTLE_FIRST; await pending(); pause = Math.min(pause * 2, 1_000)) {
        if (closed) return new Promise<void>(() => {});
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    },
    /** Turn `turnId`'s run ended in this process: its children's bodies may end (once the engine recorded the turn's end). */
    turnEnded(turnId: string): void {
      const turn = turnOf(turnId);
      turn.over = true;
      turn.end();
      // A child no body serves (its start failed) will never end by itself.
      for (const id of [...turn.children]) if (!entries.get(id)?.body) forget(id);
      if (turn.children.size === 0) turns.delete(turnId);
    },
    /** Child `id`'s body ended: the process forgets it (and its turn, once no child of it is left). */
    forget,
    /** The engine closed: bodies still waiting for their turn's end are left as they are. */
    close(): void {
      closed = true;
    },
  };
}

/** The children of one engine in this process (see {@link childSteps}). */
export type ChildSteps = ReturnType<typeof childSteps>;

/**
 * Why a child's body must not serve the request it was started with, or null when it may: the
 * child id and the turn id are strings, the child is one of that turn's (`<turn id>/sub/…`), and
 * it is the workflow the engine runs (`ownId`: its DBOS workflow id, its Restate idempotency key).
 * A forged or corrupt request (a row written by hand, an invocation sent past the turn) would
 * otherwise serve, and record, another run's steps.
 */
export function refusedChild(childId: unknown, turnId: unknown, ownId: string | undefined): string | null {
  if (typeof childId !== 'string' || typeof turnId !== 'string' || turnId === '') {
    return 'a subagent child was started without a child id and a turn id (strings)';
  }
  if (!childId.startsWith(`${turnId}/sub/`)) {
    return `subagent child ${JSON.stringify(childId.slice(0, 200))} is not a child of turn ${JSON.stringify(turnId.slice(0, 200))}`;
  }
  if (ownId !== childId) {
    return `subagent child ${JSON.stringify(childId.slice(0, 200))} was started as ${JSON.stringify(String(ownId).slice(0, 200))}`;
  }
  return null;
}
