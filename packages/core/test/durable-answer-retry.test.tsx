/**
 * An answer to a waiting turn runs as a workflow whose id is derived from the waiting turn and the
 * answers, so that two processes answering the same calls at once start one workflow on an engine
 * that dedups by id (DBOS's workflow ids, Restate's idempotency keys). An engine returns a workflow
 * that ended, failed included, to every later start of its id. So an answer whose attempt failed
 * before it began (the store was down, the process closed before it took the chat) must still be
 * accepted when it is sent again: the retry runs, it does not get the failed attempt's error back.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, memoryStore, scriptedModel } from '../src/index.js';
import { type DurableRegistration, durableWaitOf, type SessionStore, type TurnEngine } from '../src/provider.js';
import { ChargingShop, chargeThenDone } from './charging-shop.js';

/**
 * An engine that runs everything live in this process, with waits kept in memory, and that dedups
 * turns by id as DBOS and Restate do: a turn id started before gets that run's outcome, whatever it was.
 */
function deduplicatingEngine() {
  const runs = new Map<string, Promise<unknown>>();
  const waits = new Map<string, { value: Promise<unknown>; resolve(value: unknown): void }>();
  let registration: DurableRegistration | null = null;
  let current: string | null = null;
  let bodies = 0;
  const engine: TurnEngine = {
    name: 'deduplicating',
    register(given) {
      registration = given;
    },
    run(turnId, input) {
      if (!registration) throw new Error('not registered');
      const earlier = runs.get(turnId);
      if (earlier) return earlier;
      current = turnId;
      bodies++;
      const run = registration.run(turnId, JSON.parse(JSON.stringify(input)));
      runs.set(turnId, run);
      return run;
    },
    async step(_name, fn) {
      return JSON.parse(JSON.stringify((await fn()) ?? null));
    },
    async wait(name) {
      const id = `${current}#${name}`;
      let resolve!: (value: unknown) => void;
      const value = new Promise<unknown>((r) => (resolve = r));
      waits.set(id, { value, resolve });
      return { id, received: () => value };
    },
    async signal(id, value) {
      waits.get(id)?.resolve(value);
    },
    async close() {},
  };
  return { engine, bodies: () => bodies };
}

/** The memory store, whose lease requests fail while `down` is true (a store outage). */
function flakyStore(inner: SessionStore, outage: { down: boolean }): SessionStore {
  return new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (key !== 'acquire') return value.bind(target);
      return async (...args: unknown[]) => {
        if (outage.down) throw new Error('store unreachable (outage)');
        return value.apply(target, args);
      };
    },
  });
}

/** The shop of these tests: each `charge` call waits for an approval. */
const Shop = () => <ChargingShop needsApproval />;

describe('an answer sent again after its attempt failed before it began', () => {
  test('runs again on an engine that dedups turns by id: the approval is not lost to the failed attempt', async () => {
    const { engine, bodies } = deduplicatingEngine();
    const memory = memoryStore();
    const outage = { down: false };
    const sessions = createSessions(<Shop />, {
      store: flakyStore(memory, outage),
      model: chargeThenDone,
      engine,
    });
    expect((await sessions.send('c1', 'Charge me')).waiting).toHaveLength(1);
    // The first approval fails before it took the chat: the store is down.
    outage.down = true;
    await expect(sessions.approve('c1', 'pay-1')).rejects.toThrow(/outage/);
    outage.down = false;
    // The chat still waits for the call; approving it again runs the answer.
    expect(await durableWaitOf(memory, 'c1', undefined)).not.toBeNull();
    const answered = await sessions.approve('c1', 'pay-1');
    expect(answered.text).toBe('Done.');
    expect(bodies()).toBe(3);
    expect((await sessions.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await sessions.close();
  });

  test('the same answers sent twice at once in one process: both callers get the turn, even when it ends waiting again', async () => {
    const { engine, bodies } = deduplicatingEngine();
    const store = memoryStore();
    // The answer's turn asks for another approval: its run goes on waiting after its callers have it.
    const twice = () =>
      scriptedModel([
        { toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] },
        { toolCalls: [{ id: 'pay-2', name: 'charge', input: {} }] },
        { text: 'Done.' },
      ]);
    const sessions = createSessions(<Shop />, { store, model: () => twice(), engine });
    expect((await sessions.send('c1', 'Charge me')).waiting).toHaveLength(1);
    const first = sessions.approve('c1', 'pay-1');
    const second = sessions.approve('c1', 'pay-1');
    second.catch(() => {});
    expect((await first).waiting?.map((w) => w.toolCallId)).toEqual(['pay-2']);
    // The second caller joined the first's run (the engine started one) and has the same turn,
    // though that run goes on waiting: a caller tied to the run's end would never settle (the test
    // then fails on its timeout). Awaited, not checked one macrotask later: the second caller may
    // first wait out the lease the first holds, on a timer.
    expect((await second).waiting?.map((w) => w.toolCallId)).toEqual(['pay-2']);
    expect(bodies()).toBe(2);
    await sessions.close();
  });
});
