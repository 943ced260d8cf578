/**
 * An in-memory durable engine for tests: a journal the "processes" of one test share (each turn's
 * input and its recorded steps, in order), and one engine per process on it, which records a step
 * when it ends and returns the record to a recovered turn instead of running the step again. Like
 * DBOS (function ids) and Restate (journal entries), it numbers each attempt's steps in the order
 * they start: a recovered attempt that starts another step at a position whose step was recorded
 * fails, naming both.
 */
import type { DurableRegistration, DurableTurnInput, TurnEngine } from '../src/provider.js';

/** The journal the processes of one test share: each turn's input and its recorded steps, in order. */
export function sharedJournal() {
  const inputs = new Map<string, DurableTurnInput>();
  const steps = new Map<string, Map<string, unknown>>();
  /** Each turn's steps by the position they started at: the name, and whether it was recorded. */
  const starts = new Map<string, { name: string; done: boolean }[]>();
  const startsOf = (turnId: string) => {
    if (!starts.has(turnId)) starts.set(turnId, []);
    return starts.get(turnId) as { name: string; done: boolean }[];
  };
  /** Who waits for a step to be recorded (see `whenRecorded`). */
  const waiters: { turnId: string | null; name: string; resolve: () => void }[] = [];
  const of = (turnId: string) => {
    if (!steps.has(turnId)) steps.set(turnId, new Map());
    return steps.get(turnId) as Map<string, unknown>;
  };
  /** One process's engine on the journal (one turn at a time), and its way to recover a turn. */
  const process = () => {
    let registration: DurableRegistration | null = null;
    let active = '';
    /** The position the next step of this process's attempt starts at. */
    let position = 0;
    const runs: { turnId: string; settled: boolean }[] = [];
    const track = (turnId: string, running: Promise<unknown>) => {
      const run = { turnId, settled: false };
      runs.push(run);
      const mark = () => {
        run.settled = true;
      };
      running.then(mark, mark);
      return running;
    };
    const engine: TurnEngine = {
      name: 'shared-journal',
      register(given) {
        registration = given;
      },
      run(turnId, input) {
        inputs.set(turnId, JSON.parse(JSON.stringify(input)));
        active = turnId;
        position = 0;
        return track(turnId, (registration as DurableRegistration).run(turnId, inputs.get(turnId) as DurableTurnInput));
      },
      async step(name, fn) {
        const turnId = active;
        const at = position++;
        const log = startsOf(turnId);
        const was = log[at];
        if (was?.done && was.name !== name) {
          throw new Error(`Step ${at} of turn ${turnId} was recorded as ${was.name}, and started now as ${name}.`);
        }
        if (!was?.done) log[at] = { name, done: false };
        const recorded = of(turnId);
        if (recorded.has(name)) return recorded.get(name) as never;
        const value = JSON.parse(JSON.stringify((await fn()) ?? null));
        recorded.set(name, value);
        log[at] = { name, done: true };
        for (const waiter of waiters.filter((w) => w.name === name && (w.turnId ?? turnId) === turnId)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        return value;
      },
      async close() {},
    };
    return {
      engine,
      runs,
      recover(turnId: string) {
        active = turnId;
        position = 0;
        return track(turnId, (registration as DurableRegistration).run(turnId, inputs.get(turnId) as DurableTurnInput));
      },
    };
  };
  return {
    process,
    inputs,
    recorded: (turnId: string) => [...of(turnId).keys()],
    /** The names of turn `turnId`'s steps in the order they started (the positions an engine numbers). */
    order: (turnId: string) => startsOf(turnId).map((s) => s.name),
    /** Resolves once step `name` is recorded (of turn `turnId`, or of any turn). */
    whenRecorded(name: string, turnId: string | null = null): Promise<void> {
      if ([...steps.entries()].some(([id, map]) => (turnId ?? id) === id && map.has(name))) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ turnId, name, resolve }));
    },
  };
}
