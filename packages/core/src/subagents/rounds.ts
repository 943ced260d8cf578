/**
 * Step rounds: the subagent runs of one model step, side by side in a durable turn (SPEC §19, §21).
 *
 * An engine numbers a workflow's steps in the order they start (DBOS takes a step's function id
 * synchronously when `runStep` is called; Restate journals a `ctx.run` when it is called), and a
 * recovered turn must start each step at the position it was recorded at. Runs that run side by
 * side would start their steps in an order that depends on how long each model call took. So the
 * runs of a step are lanes, in call order, and a lane's steps start only when a cursor that goes
 * round the lanes in call order reaches it: one step of each lane per round. At its lane the cursor
 * starts the lane's next step if the lane asked for one, passes a lane whose run has ended, and
 * otherwise waits for that lane. What a lane asks next depends only on its own recorded values, so
 * the order steps start in is the same on every attempt, however the timing differs; and the steps
 * a round starts run at the same time (the runs' model calls overlap).
 *
 * `subagentConcurrency` is kept by the cursor too: at most that many lanes take part at once, and a
 * waiting lane joins when the cursor sees a lane end (a slot freed by timing would not replay).
 * The parent's own steps wait while the round runs (the results of the calls, a plain tool called
 * beside the runs) and start, in the order they were asked, once every lane has ended: the parent's
 * steps never interleave with the lanes' by timing either.
 */
import type { SessionState } from '../state/state.js';
import { bindJournal, DurableReplayError, journalOf, type TurnJournal } from '../turn/journal.js';
import { abortError } from '../turn/model-call.js';
import type { TurnEngine } from '../types/engine.js';
import { childJournal } from './durable-run.js';

/** A step a lane (or the parent) asked for, not started yet. */
interface Asked {
  name: string;
  fn: () => Promise<unknown>;
  /** Where it records: the turn's engine for the parent's steps, its child workflow (or scope) for a lane's. */
  on: TurnEngine['step'];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** One run of the round, in call order: the steps it asked for, and where it stands. */
export interface Lane {
  /** The journal the run records on: its child workflow (or its call's scope of the turn's journal), through the cursor. */
  readonly journal: TurnJournal;
  /** Resolves once the lane may run (a slot of `subagentConcurrency`, given in cursor order). */
  admitted(): Promise<void>;
  /** The lane's run is over: it asks for no more steps. */
  end(error?: unknown): void;
}

/** A lane as the round keeps it. */
interface LaneState {
  readonly queue: Asked[];
  /** It may run (it holds a slot). */
  admitted: boolean;
  /** Its run is over. */
  ended: boolean;
  /** The cursor saw it end: its slot is free. */
  gone: boolean;
  admit(): void;
  readonly admission: Promise<void>;
}

/** An engine like `inner` whose steps go through `step`. */
function withStep(inner: TurnEngine, step: TurnEngine['step']): TurnEngine {
  const engine: TurnEngine = {
    name: inner.name,
    register: (registration) => inner.register(registration),
    run: (turnId, input) => inner.run(turnId, input),
    step,
    close: () => inner.close(),
  };
  if (inner.wait) engine.wait = (name) => (inner.wait as NonNullable<TurnEngine['wait']>)(name);
  if (inner.signal) engine.signal = (id, value) => (inner.signal as NonNullable<TurnEngine['signal']>)(id, value);
  if (inner.child) engine.child = (name) => (inner.child as NonNullable<TurnEngine['child']>)(name);
  return engine;
}

const ask = (queue: Asked[], name: string, fn: () => Promise<unknown>, on: TurnEngine['step']) =>
  new Promise<unknown>((resolve, reject) => queue.push({ name, fn, on, resolve, reject }));

/**
 * Opens a round on `parent`'s journal for the subagent calls `callIds` (in call order) of one step,
 * at most `bound` of them at once, and returns each call's lane. Until every lane has ended, the
 * parent's own steps wait (see the module's comment). Without a journal there is no round: null.
 */
export function openRound(
  parent: SessionState,
  callIds: readonly string[],
  bound: number,
  signal: AbortSignal,
): Map<string, Lane> | null {
  const journal = journalOf(parent);
  if (!journal) return null;
  const inner = journal.engine;
  const lanes: LaneState[] = [];
  const held: Asked[] = [];
  let cursor = 0;
  let active = 0;
  let over = false;
  let pumping = false;
  let failure: { error: unknown } | null = null;

  /** Starts `asked` now, on the turn's engine (synchronously: the engine numbers it here). */
  const start = (asked: Asked) => {
    if (!failure && signal.aborted) failure = { error: abortError(signal) };
    if (failure) return asked.reject(failure.error);
    asked.on(asked.name, asked.fn).then(asked.resolve, asked.reject);
  };
  const admitNext = () => {
    for (const lane of lanes) {
      if (active >= bound) return;
      if (lane.admitted || lane.gone) continue;
      lane.admitted = true;
      active++;
      lane.admit();
    }
  };
  /** Moves the cursor as far as it can go without waiting for a lane. */
  const pump = () => {
    if (pumping || over) return;
    pumping = true;
    try {
      while (!over) {
        if (lanes.every((lane) => lane.gone)) {
          over = true;
          // The parent's journal is its own again (unless a later turn bound another), and the
          // parent's steps asked meanwhile start, in the order they were asked.
          if (journalOf(parent) === heldJournal) bindJournal(parent, journal);
          for (const asked of held.splice(0)) start(asked);
          break;
        }
        const lane = lanes[cursor] as LaneState;
        const next = lane.admitted && !lane.gone ? lane.queue.shift() : undefined;
        if (next) start(next);
        else if (lane.admitted && !lane.gone) {
          // The lane asked for nothing yet: wait for it, unless its run is over.
          if (!lane.ended) break;
          lane.gone = true;
          active--;
          admitNext();
        }
        cursor = (cursor + 1) % lanes.length;
      }
    } finally {
      pumping = false;
    }
  };

  const recordOnTurn = inner.step.bind(inner);
  const heldJournal: TurnJournal = {
    ...journal,
    engine: withStep(inner, <T>(name: string, fn: () => Promise<T>) => {
      if (over) return inner.step(name, fn);
      return ask(held, name, fn, recordOnTurn) as Promise<T>;
    }),
  };
  bindJournal(parent, heldJournal);

  const out = new Map<string, Lane>();
  for (const callId of callIds) {
    let admit = () => {};
    const admission = new Promise<void>((resolve) => (admit = resolve));
    const state: LaneState = { queue: [], admitted: false, ended: false, gone: false, admit, admission };
    lanes.push(state);
    // The run's child workflow opens here, in call order: the same place in the turn on every attempt.
    const own = childJournal(journal, callId);
    const record = own.engine.step.bind(own.engine);
    const engine = withStep(own.engine, <T>(name: string, fn: () => Promise<T>) => {
      const asked = ask(state.queue, name, fn, record) as Promise<T>;
      pump();
      return asked;
    });
    out.set(callId, {
      journal: { ...own, engine },
      admitted: () => waitAdmitted(state, signal),
      end(error) {
        if (state.ended) return;
        state.ended = true;
        // A run that did not replay as recorded stops the round: no lane starts another step.
        if (error instanceof DurableReplayError && !failure) failure = { error };
        if (failure) for (const asked of state.queue.splice(0)) asked.reject(failure.error);
        pump();
      },
    });
  }
  admitNext();
  return out;
}

/** Waits for the lane's slot, or the abort of `signal`. */
function waitAdmitted(lane: LaneState, signal: AbortSignal): Promise<void> {
  if (lane.admitted) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const stop = () => reject(abortError(signal));
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    lane.admission.then(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    });
  });
}
