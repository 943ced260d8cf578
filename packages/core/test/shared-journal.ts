/**
 * An in-memory durable engine for tests: a journal the "processes" of one test share (each turn's
 * input and its recorded steps, in order), and one engine per process on it, which records a step
 * when it ends and returns the record to a recovered turn instead of running the step again.
 */
import type { DurableRegistration, DurableTurnInput, TurnEngine } from '../src/provider.js';

/** The journal the processes of one test share: each turn's input and its recorded steps, in order. */
export function sharedJournal() {
  const inputs = new Map<string, DurableTurnInput>();
  const steps = new Map<string, Map<string, unknown>>();
  const of = (turnId: string) => {
    if (!steps.has(turnId)) steps.set(turnId, new Map());
    return steps.get(turnId) as Map<string, unknown>;
  };
  /** One process's engine on the journal (one turn at a time), and its way to recover a turn. */
  const process = () => {
    let registration: DurableRegistration | null = null;
    let active = '';
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
        return track(turnId, (registration as DurableRegistration).run(turnId, inputs.get(turnId) as DurableTurnInput));
      },
      async step(name, fn) {
        const recorded = of(active);
        if (recorded.has(name)) return recorded.get(name) as never;
        const value = JSON.parse(JSON.stringify((await fn()) ?? null));
        recorded.set(name, value);
        return value;
      },
      async close() {},
    };
    return {
      engine,
      runs,
      recover(turnId: string) {
        active = turnId;
        return track(turnId, (registration as DurableRegistration).run(turnId, inputs.get(turnId) as DurableTurnInput));
      },
    };
  };
  return {
    process,
    inputs,
    recorded: (turnId: string) => [...of(turnId).keys()],
    /** Turn `turnId`'s recorded steps by name, to read or (as a hostile database would) rewrite. */
    steps: (turnId: string) => of(turnId),
  };
}
