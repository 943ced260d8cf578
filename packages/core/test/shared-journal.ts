/**
 * An in-memory durable engine for tests: a journal the "processes" of one test share (each turn's
 * input and its recorded steps, in order), and one engine per process on it, which records a step
 * when it ends and returns the record to a recovered turn instead of running the step again.
 */
import type { AbandonedHint, DurableRegistration, DurableTurnInput, TurnEngine } from '../src/provider.js';

/** Options of {@link sharedJournal}. */
export interface SharedJournalOptions {
  /** Durable waits (`wait`/`signal`) the processes share, so a waiting turn waits for its answer. */
  waits?: boolean;
}

/** Options of one process on the journal. */
export interface JournalProcessOptions {
  /**
   * The process dies when it reaches the first step whose name starts with this: the step never
   * runs or records, the turn never goes on (as a SIGKILL there), and `died` resolves.
   */
  dieAt?: string;
}

/** The journal the processes of one test share: each turn's input and its recorded steps, in order. */
export function sharedJournal(options: SharedJournalOptions = {}) {
  /** The shared waits: a value once signalled (the first signal wins). */
  const waits = new Map<string, { value: Promise<unknown>; resolve(value: unknown): void }>();
  const waitOf = (id: string) => {
    if (!waits.has(id)) {
      let resolve!: (value: unknown) => void;
      const value = new Promise<unknown>((r) => (resolve = r));
      waits.set(id, { value, resolve });
    }
    return waits.get(id) as { value: Promise<unknown>; resolve(value: unknown): void };
  };
  const inputs = new Map<string, DurableTurnInput>();
  const steps = new Map<string, Map<string, unknown>>();
  const of = (turnId: string) => {
    if (!steps.has(turnId)) steps.set(turnId, new Map());
    return steps.get(turnId) as Map<string, unknown>;
  };
  /** One process's engine on the journal (one turn at a time), and its way to recover a turn. */
  const process = (own: JournalProcessOptions = {}) => {
    let registration: DurableRegistration | null = null;
    let died!: (step: string) => void;
    const death = new Promise<string>((resolve) => (died = resolve));
    let active = '';
    const runs: { turnId: string; settled: boolean; ended: Promise<unknown> }[] = [];
    const track = (turnId: string, running: Promise<unknown>) => {
      const run = { turnId, settled: false, ended: running };
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
        if (own.dieAt !== undefined && name.startsWith(own.dieAt)) {
          died(name);
          return new Promise<never>(() => {});
        }
        const value = JSON.parse(JSON.stringify((await fn()) ?? null));
        recorded.set(name, value);
        return value;
      },
      async close() {},
    };
    if (options.waits) {
      // The wait's id is the turn's and the name's: a recovered turn opens the same one.
      engine.wait = async (name) => {
        const id = `${active}#${name}`;
        return { id, received: () => waitOf(id).value };
      };
      engine.signal = async (id, value) => waitOf(id).resolve(value);
    }
    return {
      engine,
      runs,
      /** Resolves with the step's name once the process died at it (see `dieAt`). */
      died: death,
      /** The registered runner's own look at turn `turnId` (as an engine's recovery watch asks it). */
      abandoned(turnId: string, seen?: AbandonedHint) {
        return (registration as DurableRegistration).abandoned(inputs.get(turnId) as DurableTurnInput, turnId, seen);
      },
      recover(turnId: string) {
        active = turnId;
        return track(turnId, (registration as DurableRegistration).run(turnId, inputs.get(turnId) as DurableTurnInput));
      },
    };
  };
  return { process, inputs, recorded: (turnId: string) => [...of(turnId).keys()] };
}
