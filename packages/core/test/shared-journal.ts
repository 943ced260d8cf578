/**
 * In-memory durable engines for tests. `liveEngine` runs every step live and notes it (with
 * durable waits kept in memory as an option). `journalEngine` records one turn's steps in order and runs a
 * turn again (a recovery) replaying a given journal, the way a test cuts a turn short by hand.
 * `sharedJournal` is a journal the "processes" of one test share (each turn's input and its recorded
 * steps), with one engine per process on it, which records a step when it ends and returns the
 * record to a recovered turn instead of running the step again. Like DBOS (function ids) and Restate
 * (journal entries), it numbers each attempt's steps in the order they start: a recovered attempt that
 * starts another step at a position whose step was recorded fails, naming both.
 */
import type { SessionStore } from '../src/index.js';
import type {
  AbandonedHint,
  ChildWorkflow,
  DurableRegistration,
  DurableTurnInput,
  TurnEngine,
} from '../src/provider.js';

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

/** What an engine keeps of `register`: `register` for the engine, and `registered()` to run a turn through. */
function registration(engine: string) {
  let given: DurableRegistration | null = null;
  return {
    register(registration: DurableRegistration) {
      given = registration;
    },
    registered(): DurableRegistration {
      if (!given) throw new Error(`${engine}: not registered; pass its engine to createSessions first`);
      return given;
    },
  };
}

/**
 * An engine that runs everything live in this process: it notes each step's name (`steps`), each
 * turn it runs (`turns`, in order; `runs`, each turn's run by id), and passes inputs and step
 * values through JSON as a real engine's storage would. With `waits`, durable waits are kept in
 * memory (`wait` and `signal`); without, the engine has none and a waiting turn's run ends.
 */
export function liveEngine({ waits: withWaits = false }: { waits?: boolean } = {}) {
  const steps: string[] = [];
  const turns: string[] = [];
  const runs = new Map<string, Promise<unknown>>();
  const waits = new Map<string, { value: Promise<unknown>; resolve(value: unknown): void }>();
  const { register, registered } = registration('liveEngine');
  let current: string | null = null;
  const engine: TurnEngine = {
    name: 'live',
    register,
    run(turnId, input) {
      turns.push(turnId);
      const registration = registered();
      current = turnId;
      const run = registration.run(turnId, JSON.parse(JSON.stringify(input)));
      runs.set(turnId, run);
      return run;
    },
    async step(name, fn) {
      steps.push(name);
      return JSON.parse(JSON.stringify(await fn()));
    },
    async close() {},
  };
  if (withWaits) {
    engine.wait = async (name) => {
      const id = `${current}#${name}`;
      let resolve!: (value: unknown) => void;
      const value = new Promise<unknown>((r) => (resolve = r));
      waits.set(id, { value, resolve });
      return { id, received: () => value };
    };
    engine.signal = async (id, value) => waits.get(id)?.resolve(value);
  }
  return { engine, steps, turns, runs };
}

/** One recorded step of a turn: its name and the value it returned. */
export interface Step {
  name: string;
  value: unknown;
}

/**
 * An engine that records each turn's steps and runs a turn again (`recover`) replaying a journal:
 * a replayed step whose name differs from the recorded one fails. `numbered` places each step at
 * the index where it started, as DBOS (function ids) and Restate (journal entries) number steps,
 * so a step started out of its recorded order fails; without it a step is recorded when it ends.
 * With `children`, subagent runs open child workflows (`TurnEngine.child`): each opening is a step
 * `child:<name>` of its parent, and the run's steps are recorded in the child's own journal.
 */
export function journalEngine({ numbered = false, children = false }: { numbered?: boolean; children?: boolean } = {}) {
  const { register, registered } = registration('journalEngine');
  /** What each journal (`''` the turn's, else a child's id) replays, and what it recorded. */
  let replay = new Map<string, Step[]>();
  let recorded = new Map<string, Step[]>();
  const journal = (id: string) => {
    const steps = recorded.get(id) ?? [];
    recorded.set(id, steps);
    return steps;
  };
  const record = <T>(id: string, name: string, fn: () => Promise<T>): Promise<T> => {
    const steps = journal(id);
    const at = steps.length;
    if (numbered) steps.push({ name, value: undefined });
    const put = (step: Step) => {
      if (numbered) steps[at] = step;
      else steps.push(step);
    };
    const next = replay.get(id)?.shift();
    if (next) {
      if (next.name !== name)
        return Promise.reject(new Error(`step ${at} was recorded as ${next.name}, replayed as ${name}`));
      put(next);
      return Promise.resolve(structuredClone(next.value) as T);
    }
    return fn().then((got) => {
      const value = structuredClone(got);
      put({ name, value });
      return value;
    });
  };
  const child = (parent: string, name: string): ChildWorkflow => {
    const id = parent === '' ? name : `${parent}/${name}`;
    void record(parent, `child:${name}`, async () => id);
    journal(id);
    return { id, step: (step, fn) => record(id, step, fn), child: (inner) => child(id, inner) };
  };
  const engine: TurnEngine = {
    name: 'journal',
    register,
    run(turnId, input) {
      recorded = new Map();
      return registered().run(turnId, input);
    },
    step: (name, fn) => record('', name, fn),
    async close() {},
  };
  if (children) engine.child = (name) => child('', name);
  return {
    engine,
    /** The steps the last run recorded in the turn's own journal, in order (a copy). */
    recorded: () => structuredClone(recorded.get('') ?? []),
    /** The steps the last run recorded in each child workflow, by the child's id (a copy). */
    children: () => structuredClone(Object.fromEntries([...recorded].filter(([id]) => id !== ''))),
    /** Runs turn `turnId` again as a recovery would, replaying `steps` (and each child's `childSteps`) first. */
    recover(turnId: string, input: DurableTurnInput, steps: Step[], childSteps: Record<string, Step[]> = {}) {
      replay = new Map(Object.entries(structuredClone({ ...childSteps, '': steps })));
      recorded = new Map();
      return registered().run(turnId, input);
    },
  };
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
  const process = (own: JournalProcessOptions = {}) => {
    const { register, registered } = registration('sharedJournal');
    let died!: (step: string) => void;
    const death = new Promise<string>((resolve) => (died = resolve));
    let active = '';
    /** The position the next step of this process's attempt starts at. */
    let position = 0;
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
      register,
      run(turnId, input) {
        inputs.set(turnId, JSON.parse(JSON.stringify(input)));
        active = turnId;
        position = 0;
        return track(turnId, registered().run(turnId, inputs.get(turnId) as DurableTurnInput));
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
        if (own.dieAt !== undefined && name.startsWith(own.dieAt)) {
          died(name);
          return new Promise<never>(() => {});
        }
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
        return registered().abandoned(inputs.get(turnId) as DurableTurnInput, turnId, seen);
      },
      /** The registered runner's look at turn `turnId` (`abandoned`, `waiting` or `alive`). */
      look(turnId: string, seen?: AbandonedHint) {
        return registered().look(inputs.get(turnId) as DurableTurnInput, turnId, seen);
      },
      /** The registered runner's hold on turn `turnId`'s chat (as an engine takes it before it moves the turn here). */
      hold(turnId: string) {
        return registered().hold(inputs.get(turnId) as DurableTurnInput, turnId);
      },
      recover(turnId: string) {
        active = turnId;
        position = 0;
        return track(turnId, registered().run(turnId, inputs.get(turnId) as DurableTurnInput));
      },
    };
  };
  return {
    process,
    inputs,
    recorded: (turnId: string) => [...of(turnId).keys()],
    /** Turn `turnId`'s recorded steps by name, to read or (as a hostile database would) rewrite. */
    steps: (turnId: string) => of(turnId),
    /** The names of turn `turnId`'s steps in the order they started (the positions an engine numbers). */
    order: (turnId: string) => startsOf(turnId).map((s) => s.name),
    /** Resolves once step `name` is recorded (of turn `turnId`, or of any turn). */
    whenRecorded(name: string, turnId: string | null = null): Promise<void> {
      if ([...steps.entries()].some(([id, map]) => (turnId ?? id) === id && map.has(name))) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ turnId, name, resolve }));
    },
  };
}

/**
 * Leaves unowned chat `id` as a process that died mid-turn leaves it: its turn (begun at message
 * `from`) still on record as running, and its lease free. A test that runs a turn to its end and
 * then recovers it from a journal cut short (as if the process died at the cut) calls it first: a
 * recovered turn whose chat does not show it running may only replay (see durable-superseded.ts).
 */
export async function diedMidTurn(store: SessionStore, id: string, from = 0): Promise<void> {
  const record = await store.record(id);
  if (!record) throw new Error(`diedMidTurn: no chat "${id}" in the store`);
  const holder = 'died-mid-turn';
  if (!(await store.acquire(id, holder, 60_000))) throw new Error(`diedMidTurn: chat "${id}" is held`);
  await store.commit(id, {
    holder,
    version: record.version,
    epoch: record.epoch,
    append: [],
    state: { ...record.state, turn: { from } },
    leaseTtl: 60_000,
  });
  await store.release(id, holder);
}
