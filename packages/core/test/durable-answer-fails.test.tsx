/**
 * An answer to a waiting turn that fails once it began (its model fails, or its caller stops it)
 * has taken the waiting calls from the chat: no later answer would signal the waiting turn, so the
 * failed answer signals it itself, and the waiting workflow ends. An answer that fails before it
 * began (the chat busy) leaves the calls waiting: the waiting turn is not signalled, and a later
 * answer goes through. The engine is the in-memory shared journal.
 */
import { expect, test } from 'vitest';
import { createSessions, type Model, memoryStore } from '../src/index.js';
import { durableWaitOf } from '../src/provider.js';
import { chatKey } from '../src/sessions/key.js';
import { ApprovalShop } from './charging-shop.js';
import { sharedJournal } from './shared-journal.js';

/** Calls `charge` for the user's message and answers `Done.` after it; fails while `failing.now`. */
function shopModel(failing: { now: boolean }): Model {
  return {
    name: 'shop',
    async generate(request) {
      if (failing.now) throw new Error('provider 500');
      return request.messages.at(-1)?.role === 'user'
        ? { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] }
        : { text: 'Done.', toolCalls: [] };
    },
  };
}

/**
 * Process A's turn on chat c1 waits for the approval of its charge; B is another process's sessions
 * (options `extra`) on the same store. `failing.now` makes the model fail.
 */
async function waitingCharge(extra: { onBusy?: 'reject' } = {}) {
  const journal = sharedJournal({ waits: true });
  const store = memoryStore();
  const ran: string[] = [];
  const failing = { now: false };
  const a = journal.process();
  const asking = createSessions(<ApprovalShop ran={ran} />, { store, model: shopModel(failing), engine: a.engine });
  const first = await asking.send('c1', 'Charge me');
  const waiting = (await durableWaitOf(store, 'c1', undefined))?.turn as string;
  const b = journal.process();
  const answering = createSessions(<ApprovalShop ran={ran} />, {
    store,
    model: shopModel(failing),
    engine: b.engine,
    ...extra,
  });
  return {
    store,
    ran,
    failing,
    waiting,
    answering,
    callId: first.waiting?.[0]?.toolCallId as string,
    run: a.runs.find((r) => r.turnId === waiting),
    close: () => Promise.all([asking.close(), answering.close()]),
  };
}

test('an answer that fails after it began signals the turn it answered: the waiting workflow ends', async () => {
  const { store, ran, failing, answering, callId, run, close } = await waitingCharge();
  expect(run?.settled).toBe(false);
  failing.now = true;
  await expect(answering.approve('c1', callId)).rejects.toThrow('provider 500');
  // The approval was committed (the charge ran) before the model failed: the calls are answered.
  expect(ran).toEqual(['charge']);
  expect((await store.record('c1'))?.state.wait).toBeUndefined();
  // The waiting turn heard the failed answer and ended (it would otherwise wait for ever).
  await run?.ended;
  expect(run?.settled).toBe(true);
  await close();
});

test('an answer that fails before it began leaves the calls waiting: the waiting turn is not signalled, a later answer ends it', async () => {
  const { store, ran, waiting, answering, callId, run, close } = await waitingCharge({ onBusy: 'reject' });
  // Another holder has the chat: the answer fails at once, before its turn begins.
  const key = await chatKey('c1', undefined);
  expect(await store.acquire(key, 'someone-else', 60_000)).toBeTruthy();
  await expect(answering.approve('c1', callId)).rejects.toThrow();
  expect(ran).toEqual([]);
  expect((await durableWaitOf(store, 'c1', undefined))?.turn).toBe(waiting);
  expect(run?.settled).toBe(false);

  await store.release(key, 'someone-else');
  expect((await answering.approve('c1', callId)).text).toBe('Done.');
  await run?.ended;
  expect(ran).toEqual(['charge']);
  await close();
});
