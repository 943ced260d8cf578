/**
 * A process starved past its lease's TTL loses the chat's lease; the engine, taking it for dead,
 * recovers its turn in another process, which takes the lease and finishes the turn. When the
 * starved process wakes, its turn is fenced. That turn was taken over, not ended: its workflow is
 * left pending there (as a handover leaves it), never failed, so a failure recorded first cannot
 * end the turn for every process. A turn whose chat was deleted while it ran still fails. Two
 * in-memory processes on one shared journal, one store.
 */
import { expect, test } from 'vitest';
import {
  Agent,
  createSessions,
  type Model,
  memoryStore,
  SessionConflictError,
  type SessionStore,
  Text,
} from '../src/index.js';
import { gate, settled } from './gate.js';
import { sharedJournal } from './shared-journal.js';

function Helper() {
  return (
    <Agent>
      <Text>You help.</Text>
    </Agent>
  );
}

/** A model that is called (`called` resolves), then answers `text` once `go` opens, or fails when aborted. */
function heldModel(text: string, go: Promise<void>) {
  const called = gate();
  const model: Model = {
    name: 'held',
    generate(_request, opts) {
      called.open();
      return new Promise((resolve, reject) => {
        opts.signal?.addEventListener('abort', () => reject(opts.signal?.reason), { once: true });
        void go.then(() => resolve({ text, toolCalls: [] }));
      });
    },
  };
  return { model, called: called.opened };
}

/**
 * Process A's view of the store. `lapse()` gives its lease up as a TTL that passed while A was
 * starved would; from then on A's renewals are held (A is asleep) until `wake()`, and then fail.
 */
function starvable(store: SessionStore) {
  const holders = new Map<string, string>();
  let lapsed = false;
  const awake = gate();
  const view: SessionStore = Object.create(store);
  // In the store, A's lease lasts until `lapse()` gives it up (a minute): on a busy machine, A's
  // renewals (every third of its 300 ms TTL) could come late enough to lose it for real before that.
  view.acquire = async (id, holder) => {
    const took = await store.acquire(id, holder, 60_000);
    if (took) holders.set(id, holder);
    return took;
  };
  view.renew = async (id, holder) => {
    if (!lapsed) return store.renew(id, holder, 60_000);
    await awake.opened;
    return false;
  };
  return {
    view,
    /** A's lease lapses (its TTL passed while it was starved); A sleeps through it. */
    async lapse() {
      lapsed = true;
      for (const [id, holder] of holders) await store.release(id, holder);
    },
    /** A wakes: its held renewals fail (the lease is gone, or another's). */
    wake() {
      awake.open();
    },
  };
}

/** The store, seen by process B: `took` resolves once B holds a chat's lease. */
function watched(store: SessionStore) {
  const took = gate();
  const view: SessionStore = Object.create(store);
  view.acquire = async (id, holder, ttl) => {
    const ok = await store.acquire(id, holder, ttl);
    if (ok && !holder.startsWith('recovery-probe:')) took.open();
    return ok;
  };
  return { view, took: took.opened };
}

test('a turn fenced because another process took its lease is left pending, never failed: the process that took it finishes the turn', async () => {
  const journal = sharedJournal();
  const store = memoryStore();
  const a = starvable(store);
  const never = new Promise<void>(() => {});
  const held = heldModel('A.', never);
  const pa = journal.process();
  const starvedSessions = createSessions(<Helper />, {
    store: a.view,
    model: () => held.model,
    engine: pa.engine,
    leaseTtl: 300,
  });
  const caller = starvedSessions.send('c1', 'Hello');
  caller.catch(() => {});
  await held.called;
  const turnId = pa.runs[0]?.turnId as string;
  // A is starved: its lease lapses, and the engine recovers its turn in process B.
  await a.lapse();
  const b = watched(store);
  const goB = gate();
  const heldB = heldModel('Done in B.', goB.opened);
  const pb = journal.process();
  const taking = createSessions(<Helper />, { store: b.view, model: () => heldB.model, engine: pb.engine });
  expect(await pb.abandoned(turnId)).toBe(true);
  const recovered = pb.recover(turnId);
  await b.took;
  // A wakes: its renewal fails, its turn is fenced while B holds the chat.
  a.wake();
  await expect(caller).rejects.toBeInstanceOf(SessionConflictError);
  goB.open();
  expect(await recovered).toEqual(expect.objectContaining({ text: 'Done in B.' }));
  // A's run of the turn stays pending: it recorded no failure; B's run is the turn's end.
  expect(await settled(pa.runs[0]?.ended as Promise<unknown>)).toBe(false);
  expect((await taking.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant']);
  await Promise.all([starvedSessions.close(), taking.close()]);
});

test('a turn whose chat is deleted while it runs still fails its workflow', async () => {
  const journal = sharedJournal();
  const store = memoryStore();
  const held = heldModel('A.', new Promise<void>(() => {}));
  const pa = journal.process();
  const sessions = createSessions(<Helper />, { store, model: () => held.model, engine: pa.engine, leaseTtl: 300 });
  const caller = sessions.send('c1', 'Hello');
  caller.catch(() => {});
  await held.called;
  const other = createSessions(<Helper />, { store, model: () => held.model });
  await other.delete('c1');
  await expect(caller).rejects.toBeInstanceOf(SessionConflictError);
  await expect(pa.runs[0]?.ended).rejects.toBeInstanceOf(SessionConflictError);
  await Promise.all([sessions.close(), other.close()]);
});
