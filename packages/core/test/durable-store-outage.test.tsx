/**
 * SPEC §21, a store outage in a durable turn: a begun turn whose commit the store cannot take is
 * not failed (a failure is recorded for good, and the store would never get the recorded reply).
 * It is left pending, as a crash leaves it; once the store is back and the chat's lease has
 * expired, another process recovers it and commits the recorded reply without asking the model
 * again. A store that still answers says the failure was the turn's own: it fails as before. Two
 * in-memory processes on one shared journal, one store.
 */
import { expect, test } from 'vitest';
import { Agent, createSessions, type Model, memoryStore, type SessionStore, Text } from '../src/index.js';
import { settled } from './gate.js';
import { sharedJournal } from './shared-journal.js';

function Helper() {
  return (
    <Agent>
      <Text>You help.</Text>
    </Agent>
  );
}

/**
 * Process A's view of the store: while `down`, every call fails as a database that went away
 * does. `expire()` frees the leases A took, as their TTL would once the store is back.
 */
function flaky(store: SessionStore) {
  const holders = new Map<string, string>();
  const state = { down: false };
  const view: SessionStore = Object.create(store);
  const refused = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  for (const name of ['record', 'load', 'messages', 'commit', 'renew', 'release', 'stopRequested'] as const) {
    const real = (store[name] as (...args: unknown[]) => Promise<unknown>).bind(store);
    (view as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
      state.down ? refused() : real(...args);
  }
  view.acquire = async (id, holder, ttl) => {
    if (state.down) return refused() as never;
    const took = await store.acquire(id, holder, 60_000 + ttl);
    if (took && !holder.includes('probe')) holders.set(id, holder);
    return took;
  };
  return {
    view,
    state,
    async expire() {
      for (const [id, holder] of holders) await store.release(id, holder);
    },
  };
}

/** A model that answers `text`, running `during` while it answers; `asked` counts its calls. */
function answering(text: string, during: () => void = () => {}) {
  const counter = { asked: 0 };
  const model: Model = {
    name: 'answering',
    async generate() {
      counter.asked++;
      during();
      return { text, toolCalls: [] };
    },
  };
  return { model, counter };
}

test('a begun durable turn whose commit meets a store outage is left pending, never failed: once the store is back, another process commits its recorded reply without asking again', async () => {
  const journal = sharedJournal();
  const store = memoryStore();
  const a = flaky(store);
  // The store goes away while the model answers: the user's message is in, the reply cannot be.
  const { model, counter } = answering('Hello there.', () => {
    a.state.down = true;
  });
  const pa = journal.process();
  const sessionsA = createSessions(<Helper />, { store: a.view, model, engine: pa.engine, leaseTtl: 300 });
  const caller = sessionsA.send('c1', 'Hello');
  await expect(caller).rejects.toThrow(
    /The session store failed while the turn of chat "c1" ran \(connect ECONNREFUSED/,
  );
  await expect(caller).rejects.toMatchObject({ name: 'StoreOutageError' });
  const turnId = pa.runs[0]?.turnId as string;
  // A recorded no failure: its run of the turn stays pending, as a crash leaves it.
  expect(await settled(pa.runs[0]?.ended as Promise<unknown>)).toBe(false);
  expect(journal.recorded(turnId)).toContain('model-1');
  // The store comes back; A's lease expires.
  a.state.down = false;
  await a.expire();
  const pb = journal.process();
  const sessionsB = createSessions(<Helper />, { store, model, engine: pb.engine });
  expect(await pb.abandoned(turnId)).toBe(true);
  expect(await pb.recover(turnId)).toEqual(expect.objectContaining({ text: 'Hello there.' }));
  expect(counter.asked).toBe(1);
  const messages = await sessionsB.messages('c1');
  expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  await Promise.all([sessionsA.close(), sessionsB.close()]);
});

test('a durable turn whose failure is its own (the store still answers) fails its workflow as before', async () => {
  const journal = sharedJournal();
  const store = memoryStore();
  const pa = journal.process();
  const failing: Model = {
    name: 'failing',
    async generate() {
      throw Object.assign(new Error('The model refused.'), { status: 400 });
    },
  };
  const sessions = createSessions(<Helper />, { store, model: failing, engine: pa.engine, leaseTtl: 300 });
  await expect(sessions.send('c1', 'Hello')).rejects.toThrow('The model refused.');
  await expect(pa.runs[0]?.ended).rejects.toThrow('The model refused.');
  await sessions.close();
});
