/**
 * An engine that finds a turn abandoned holds its chat's lease before it moves the turn to its
 * process (`DurableRegistration.hold`), and the turn's run there adopts that lease. Between the
 * move and the run's start (which on a busy machine can outlast another process's next look),
 * every other process finds the chat held, so none takes the turn again and asks its model call a
 * second time. The engine is the in-memory shared journal; one store.
 */
import { expect, test } from 'vitest';
import { createSessions, memoryStore, type SessionStore } from '../src/index.js';
import { Echo, echo } from './echo-agent.js';
import { sharedJournal } from './shared-journal.js';

/**
 * The store as a process that dies sees it: its leases are real while it runs; `expire()` lets
 * them go as their time to live would once it is dead (it renews nothing).
 */
function dying(store: SessionStore) {
  const held = new Map<string, string>();
  const view: SessionStore = Object.create(store);
  view.acquire = async (id, holder, ttl) => {
    const took = await store.acquire(id, holder, ttl);
    if (took) held.set(id, holder);
    return took;
  };
  return {
    view,
    async expire() {
      for (const [id, holder] of held) await store.release(id, holder);
    },
  };
}

/** A turn whose process died at its first model call, after it committed the user message; its lease expired. */
async function lostTurn() {
  const journal = sharedJournal();
  const store = memoryStore();
  const dead = journal.process({ dieAt: 'model-' });
  const its = dying(store);
  const sessions = createSessions(<Echo />, { store: its.view, model: echo, engine: dead.engine });
  void sessions.send('c1', 'one').catch(() => {});
  await dead.died;
  await its.expire();
  return { journal, store, turnId: dead.runs[0]?.turnId as string };
}

test('a turn held for recovery is not abandoned to another process, and its run adopts the held lease at once', async () => {
  const { journal, store, turnId } = await lostTurn();
  const b = journal.process();
  // `onBusy: 'reject'`: a run that did not adopt the hold would find the chat held, and fail.
  const recovering = createSessions(<Echo />, { store, model: echo, engine: b.engine, onBusy: 'reject' });
  const c = journal.process();
  const other = createSessions(<Echo />, { store, model: echo, engine: c.engine, onBusy: 'reject' });
  expect(await c.abandoned(turnId)).toBe(true);
  const hold = await b.hold(turnId);
  expect(hold).not.toBeNull();
  // Until B's run takes it over, the chat is held: C's look finds nothing to take, and C cannot hold it.
  expect(await c.abandoned(turnId)).toBe(false);
  expect(await c.hold(turnId)).toBeNull();
  expect(await b.recover(turnId)).toEqual(expect.objectContaining({ text: 'echo: one' }));
  // The run gave the lease back when it ended; the hold's release after that changes nothing.
  await hold?.release();
  // Nothing holds the chat after the turn: the next message is answered at once (no waiting, `onBusy: 'reject'`).
  const next = await other.send('c1', 'two');
  expect(next.text).toBe('echo: two');
  expect((await other.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  await Promise.all([recovering.close(), other.close()]);
});

test('a hold given back (the engine did not get the turn) frees the chat at once', async () => {
  const { journal, store, turnId } = await lostTurn();
  const b = journal.process();
  const holding = createSessions(<Echo />, { store, model: echo, engine: b.engine });
  const c = journal.process();
  const other = createSessions(<Echo />, { store, model: echo, engine: c.engine });
  const hold = await b.hold(turnId);
  expect(await c.abandoned(turnId)).toBe(false);
  await hold?.release();
  expect(await c.abandoned(turnId)).toBe(true);
  expect(await c.recover(turnId)).toEqual(expect.objectContaining({ text: 'echo: one' }));
  await Promise.all([holding.close(), other.close()]);
});

test('a hold on a chat whose lease a live turn holds is refused: the engine leaves that turn alone', async () => {
  const { journal, store, turnId } = await lostTurn();
  // A live process holds the chat (it took the lease as a turn does).
  expect(await store.acquire('c1', 'live-turn', 60_000)).toBe(true);
  const b = journal.process();
  const holding = createSessions(<Echo />, { store, model: echo, engine: b.engine });
  expect(await b.abandoned(turnId)).toBe(false);
  expect(await b.hold(turnId)).toBeNull();
  await holding.close();
});
