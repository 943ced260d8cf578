/**
 * A chat's committed state names the wait its answering turn signals (`StoredState.wait`), and a
 * durable turn's recorded input names it again (`follows`): both come back from outside the
 * process, so both are hostile. A state (or input) naming another chat's waiting turn is not
 * followed: answering this chat never signals the other chat's wait, never shares a turn id with
 * it (an engine that dedups by id would hand one chat the other's turn), and a wait signalled by
 * another chat's turn ends without keeping its reply. On the memory store, with an engine of the
 * test's own that keeps waits in memory and dedups runs by turn id, as DBOS and Restate do.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, memoryStore, type SessionStore, scriptedModel } from '../src/index.js';
import { type DurableRegistration, durableWaitOf, type TurnEngine } from '../src/provider.js';
import type { StoredState } from '../src/sessions/session-store.js';
import { ChargingShop } from './charging-shop.js';
import { settled } from './gate.js';

/** An engine with waits in memory that dedups runs by turn id; `randomWaits`: wait ids carry no turn (Restate's awakeables). */
function dedupingEngine(randomWaits = false) {
  const runs = new Map<string, Promise<unknown>>();
  const waits = new Map<string, { value: Promise<unknown>; resolve(value: unknown): void }>();
  const signals: string[] = [];
  let registration: DurableRegistration | null = null;
  let current: string | null = null;
  const engine: TurnEngine = {
    name: 'deduping',
    register(given) {
      registration = given;
    },
    run(turnId, input) {
      const known = runs.get(turnId);
      if (known) return known;
      current = turnId;
      const run = (registration as DurableRegistration).run(turnId, JSON.parse(JSON.stringify(input)));
      runs.set(turnId, run);
      return run;
    },
    async step(_name, fn) {
      return JSON.parse(JSON.stringify((await fn()) ?? null));
    },
    async wait(name) {
      const id = randomWaits ? `awakeable-${crypto.randomUUID()}` : `${current}#wait:${name}`;
      let resolve!: (value: unknown) => void;
      const value = new Promise<unknown>((r) => (resolve = r));
      waits.set(id, { value, resolve });
      return { id, received: () => value };
    },
    async signal(id, value) {
      signals.push(id);
      waits.get(id)?.resolve(value);
    },
    async close() {},
  };
  return { engine, runs, signals };
}

/** A store whose committed states pass through `forge` as they are read (what a hostile row holds). */
function forgingStore(forge: (key: string, state: StoredState) => void): SessionStore {
  const store = memoryStore();
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'record') return Reflect.get(target, prop, receiver);
      return async (key: string) => {
        const record = await target.record(key);
        if (record) forge(key, record.state);
        return record;
      };
    },
  });
}

/** The shop of these tests: each `charge` call waits for an approval. */
const Shop = () => <ChargingShop needsApproval />;

/** Each owner's model answers with a reply of its own: one owner's reply reaching the other shows. */
const modelOf = (_id: string, owner: string | undefined) =>
  scriptedModel([{ toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] }, { text: `Secret of ${owner}.` }]);

type Wait = NonNullable<StoredState['wait']>;

/** Alice's and Bob's chats, both waiting for approval; Bob's committed state names Alice's wait. */
async function bobNamesAlicesWait(randomWaits = false) {
  const { engine, runs, signals } = dedupingEngine(randomWaits);
  let alices: StoredState['wait'];
  const store = forgingStore((key, state) => {
    // Bob's row, as a hostile writer (or a copy of Alice's row) left it: it names Alice's wait.
    // With wait ids that carry no turn, it keeps Bob's own turn and names only Alice's wait.
    if (alices && key.endsWith('\u001fbob-chat') && state.wait)
      state.wait = randomWaits ? { turn: state.wait.turn, wait: alices.wait } : { ...alices };
  });
  const sessions = createSessions(<Shop />, { store, model: modelOf, engine });
  await sessions.send('alice-chat', 'Charge me', { owner: 'alice' });
  const alice = (await durableWaitOf(store, 'alice-chat', 'alice')) as NonNullable<StoredState['wait']>;
  await sessions.send('bob-chat', 'Charge me', { owner: 'bob' });
  alices = alice;
  return { sessions, store, runs, signals, alice };
}

describe("a chat's state naming another chat's wait is not followed", () => {
  test("answering a chat whose state names another chat's waiting turn never signals that chat's wait", async () => {
    const { sessions, store, runs, signals, alice } = await bobNamesAlicesWait();
    // Read back through the forging store, the wait Bob's row names is not his: it is not followed.
    expect(await durableWaitOf(store, 'bob-chat', 'bob')).toBeNull();
    const bob = await sessions.approve('bob-chat', 'pay-1', { owner: 'bob' });
    expect(bob.text).toBe('Secret of bob.');
    expect(signals).not.toContain(alice.wait);
    expect([...runs.keys()].some((id) => id.startsWith(alice.turn) && id !== alice.turn)).toBe(false);
    // Alice's turn still waits, and her own answer ends it with her own outcome.
    expect(await settled(runs.get(alice.turn))).toBe(false);
    const answered = await sessions.approve('alice-chat', 'pay-1', { owner: 'alice' });
    expect(answered.text).toBe('Secret of alice.');
    expect(signals).toContain(alice.wait);
    expect(await runs.get(alice.turn)).toMatchObject({ text: 'Secret of alice.' });
    await sessions.close();
  });

  test("two chats' answering turns never share a turn id: an engine that dedups by id never hands one chat the other's turn", async () => {
    const { sessions, runs, alice } = await bobNamesAlicesWait();
    expect((await sessions.approve('alice-chat', 'pay-1', { owner: 'alice' })).text).toBe('Secret of alice.');
    const bob = await sessions.approve('bob-chat', 'pay-1', { owner: 'bob' });
    expect(bob.text).toBe('Secret of bob.');
    expect(JSON.stringify(bob)).not.toContain('alice');
    const answering = [...runs.keys()].filter((id) => id.includes('-answers-'));
    expect(answering).toHaveLength(1);
    // Alice's answering turn carries Alice's chat tag (`skilltree-turn-<tag>-`), never Bob's.
    expect(answering[0]?.startsWith(alice.turn.slice(0, 'skilltree-turn-'.length + 17))).toBe(true);
    await sessions.close();
  });

  test("a wait signalled by another chat's turn (a wait id without a turn in it) ends without keeping that chat's reply", async () => {
    const { sessions, runs, signals, alice } = await bobNamesAlicesWait(true);
    // Alice's wait id carries no turn: Bob's process cannot tell it from his own, and signals it.
    await sessions.approve('bob-chat', 'pay-1', { owner: 'bob' });
    expect(signals).toContain(alice.wait);
    // Alice's waiting turn ends, keeping nothing of Bob's reply; her own answer still runs.
    expect(await runs.get(alice.turn)).toBeNull();
    expect((await sessions.approve('alice-chat', 'pay-1', { owner: 'alice' })).text).toBe('Secret of alice.');
    await sessions.close();
  });

  test('a recorded input whose follows names another chat’s wait (a forged journal) signals nothing', async () => {
    const { engine, runs, signals } = dedupingEngine();
    const store = memoryStore();
    let registration: DurableRegistration | null = null;
    const register = engine.register.bind(engine);
    engine.register = (given) => {
      registration = given;
      register(given);
    };
    const sessions = createSessions(<Shop />, { store, model: modelOf, engine });
    await sessions.send('alice-chat', 'Charge me', { owner: 'alice' });
    const alice = (await durableWaitOf(store, 'alice-chat', 'alice')) as NonNullable<StoredState['wait']>;
    await sessions.send('bob-chat', 'Charge me', { owner: 'bob' });
    // Bob's answering turn, as a forged journal would recover it: its input names Alice's wait.
    const run = (registration as unknown as DurableRegistration).run(`${alice.turn}/answers-forged`, {
      id: 'bob-chat',
      owner: 'bob',
      input: [{ toolCallId: 'pay-1', type: 'approve' }],
      follows: alice,
    });
    await run.catch(() => {});
    expect(signals).not.toContain(alice.wait);
    expect(await settled(runs.get(alice.turn))).toBe(false);
    await sessions.close();
  });
});

describe('answers with ids taken from another chat reach no wait of that chat', () => {
  /** Each owner's call has an id of its own: `pay-<owner>`. */
  const ownCalls = (_id: string, owner: string | undefined) =>
    scriptedModel([
      { toolCalls: [{ id: `pay-${owner}`, name: 'charge', input: {} }] },
      { text: `Secret of ${owner}.` },
    ]);

  test("approving another chat's call, in one's own chat or in the other's, signals nothing and leaves its turn waiting", async () => {
    const { engine, runs, signals } = dedupingEngine();
    const store = memoryStore();
    const sessions = createSessions(<Shop />, { store, model: ownCalls, engine });
    await sessions.send('alice-chat', 'Charge me', { owner: 'alice' });
    const alice = (await durableWaitOf(store, 'alice-chat', 'alice')) as NonNullable<StoredState['wait']>;
    await sessions.send('bob-chat', 'Charge me', { owner: 'bob' });
    const bob = (await durableWaitOf(store, 'bob-chat', 'bob')) as NonNullable<StoredState['wait']>;
    // Bob answers Alice's call id in his own chat, then in hers (her chat id, his owner).
    await expect(sessions.approve('bob-chat', 'pay-alice', { owner: 'bob' })).rejects.toThrow(/pay-alice/);
    await expect(sessions.approve('alice-chat', 'pay-alice', { owner: 'bob' })).rejects.toThrow();
    await expect(
      sessions.answer('alice-chat', [{ toolCallId: 'pay-alice', type: 'result', output: 'stolen' }], { owner: 'bob' }),
    ).rejects.toThrow();
    // Nothing reached Alice's wait. (Bob's failed answer in his own chat, once it wrote, ends his own
    // waiting turn: see durable-answer-fails.test.tsx.)
    const others = () => signals.filter((s) => s !== bob.wait);
    expect(others()).toEqual([]);
    expect(await settled(runs.get(alice.turn))).toBe(false);
    // Her own answer is still hers to give.
    expect((await sessions.approve('alice-chat', 'pay-alice', { owner: 'alice' })).text).toBe('Secret of alice.');
    expect(others()).toEqual([alice.wait]);
    await sessions.close();
  });
});

describe("a chat's state naming a wait of the wrong shape is not followed, and its answer runs", () => {
  test.each([
    ['a NUL in the wait id', (w: Wait) => ({ turn: w.turn, wait: `${w.turn}\u0000#wait:answers` })],
    [
      '#wait: twice, naming another turn',
      (w: Wait) => ({ turn: w.turn, wait: `${w.turn}#wait:skilltree-turn-0000000000000000-x#wait:answers` }),
    ],
    ['a 10 KB wait id', (w: Wait) => ({ turn: w.turn, wait: `${w.turn}#wait:${'a'.repeat(10_240)}` })],
    ['a 10 KB turn id', (w: Wait) => ({ turn: `${w.turn}${'a'.repeat(10_240)}`, wait: w.wait })],
    ['ids that are objects', (w: Wait) => ({ turn: { toString: () => w.turn }, wait: [w.wait] })],
    ['an empty wait id', (w: Wait) => ({ turn: w.turn, wait: '' })],
    ['a string', (w: Wait) => `${w.turn} ${w.wait}`],
    ['null', () => null],
  ])('%s', async (_what, forge) => {
    const { engine, signals } = dedupingEngine();
    let forging = false;
    const store = forgingStore((key, state) => {
      if (forging && key.endsWith('\u001fc1') && state.wait) state.wait = forge(state.wait) as never;
    });
    const sessions = createSessions(<Shop />, { store, model: modelOf, engine });
    await sessions.send('c1', 'Charge me', { owner: 'alice' });
    forging = true;
    expect(await durableWaitOf(store, 'c1', 'alice')).toBeNull();
    const answered = await sessions.approve('c1', 'pay-1', { owner: 'alice' });
    expect(answered.text).toBe('Secret of alice.');
    expect(signals).toEqual([]);
    await sessions.close();
  });
});
