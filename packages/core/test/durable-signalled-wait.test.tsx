/**
 * A waiting turn whose process died while it waited: another process answers it (and signals its
 * wait), and then the chat moves on, so no commit names the waiting turn any more. Only the engine
 * knows the turn was signalled (it holds an answer the wait never received): with that hint the
 * recovery watch finds the turn abandoned, and the recovered turn replays without asking, running
 * or writing anything, takes its answer and ends. The engine is the in-memory shared journal.
 */
import { expect, test } from 'vitest';
import { createSessions, memoryStore } from '../src/index.js';
import { durableWaitOf } from '../src/provider.js';
import { ApprovalShop, steppingShopModel } from './charging-shop.js';
import { sharedJournal } from './shared-journal.js';

test('a signalled waiting turn of a dead process is abandoned even once the chat moved on, and recovered it only takes its answer', async () => {
  const journal = sharedJournal({ waits: true });
  const store = memoryStore();
  const ran: string[] = [];
  const asked: string[] = [];
  const model = steppingShopModel(asked);
  // Process A asks, and dies while its turn waits: its wait never hears the answer.
  const a = journal.process();
  const wait = a.engine.wait?.bind(a.engine);
  a.engine.wait = async (name) => {
    const opened = await (wait as NonNullable<typeof wait>)(name);
    return { id: opened.id, received: () => new Promise<never>(() => {}) };
  };
  const asking = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: a.engine });
  const first = await asking.send('c1', 'Charge me');
  const waiting = (await durableWaitOf(store, 'c1', undefined))?.turn as string;
  // Until its answer comes, a look finds it waiting (a watch may pass it over until it is signalled).
  expect(await a.look(waiting)).toBe('waiting');

  // Process B approves (it signals the wait), then the chat moves on: a new message, a new wait.
  const b = journal.process();
  const answering = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: b.engine });
  expect((await answering.approve('c1', first.waiting?.[0]?.toolCallId as string)).text).toBe('Done.');
  expect((await answering.send('c1', 'Charge me again')).waiting).toHaveLength(1);
  const record = await store.record('c1');
  expect(record?.state.answered).toBeUndefined();
  expect(record?.state.wait?.turn).not.toBe(waiting);
  const before = { asked: [...asked], ran: [...ran], length: record?.length };

  // Process C: the chat no longer names the turn, so without the engine's word it is not abandoned.
  const c = journal.process();
  const recovering = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: c.engine });
  expect(await c.abandoned(waiting)).toBe(false);
  expect(await c.look(waiting)).toBe('alive');
  expect(await c.abandoned(waiting, { signalled: true })).toBe(true);
  expect(await c.look(waiting, { signalled: true })).toBe('abandoned');
  // Recovered, it replays, takes the answer its wait was sent, and ends.
  expect(await c.recover(waiting)).toEqual(expect.objectContaining({ text: 'Done.', waiting: 0 }));
  expect({ asked, ran, length: (await store.record('c1'))?.length }).toEqual(before);
  await Promise.all([asking.close(), answering.close(), recovering.close()]);
});
