/**
 * An answer whose process dies between its last commit and its signal: the chat shows the answer,
 * but the waiting turn's run was never signalled, and the answer's own run is pending. The engine's
 * recovery watch must find the answer abandoned (the chat names the turn it answered, nobody holds
 * the lease), and the recovered answer replays without writing and sends the signal, so both runs
 * end. The engine is the in-memory shared journal, with waits.
 */
import { expect, test } from 'vitest';
import { createSessions, memoryStore } from '../src/index.js';
import { durableWaitOf } from '../src/provider.js';
import { ApprovalShop, steppingShopModel } from './charging-shop.js';
import { sharedJournal } from './shared-journal.js';

test('an answer whose process dies before it signals the wait is recovered by another process: it sends the signal, writes nothing, and the waiting run ends', async () => {
  const journal = sharedJournal({ waits: true });
  const store = memoryStore();
  const ran: string[] = [];
  const asked: string[] = [];
  const model = steppingShopModel(asked);
  const options = (engine: ReturnType<typeof journal.process>['engine']) => ({
    store,
    model,
    engine,
  });

  // Process A asks; its turn ends waiting, and its run waits for the answer.
  const a = journal.process();
  const asking = createSessions(<ApprovalShop ran={ran} />, options(a.engine));
  const asked1 = await asking.send('c1', 'Charge me');
  expect(asked1.waiting).toHaveLength(1);
  const wait = await durableWaitOf(store, 'c1', undefined);
  const waiting = a.runs.find((r) => r.turnId === wait?.turn);
  expect(waiting?.settled).toBe(false);

  // Process B approves and dies after its last commit, at the signal step.
  const b = journal.process({ dieAt: 'signal-' });
  const answering = createSessions(<ApprovalShop ran={ran} />, options(b.engine));
  void answering.approve('c1', asked1.waiting?.[0]?.toolCallId as string).catch(() => {});
  expect(await b.died).toBe(`signal-${wait?.turn}`);
  const answer = b.runs[0]?.turnId as string;
  // The chat shows the answer; the waiting run is still waiting; the answer's run is pending.
  const before = (await store.record('c1'))?.length;
  expect((await store.record('c1'))?.state.answered).toBe(wait?.turn);
  expect(waiting?.settled).toBe(false);

  // Process C's watch finds the answer abandoned, and recovers it.
  const c = journal.process();
  const recovering = createSessions(<ApprovalShop ran={ran} />, options(c.engine));
  expect(await c.abandoned(answer)).toBe(true);
  await c.recover(answer);
  // The signal reached the waiting run, which ends with the answer's outcome.
  expect(await waiting?.ended).toEqual({
    continuation: answer,
    text: 'Done.',
    waiting: 0,
  });
  // Recovering asked and ran nothing again, and wrote nothing.
  expect(asked).toEqual(['step 1', 'step 2']);
  expect(ran).toEqual(['charge']);
  expect((await store.record('c1'))?.length).toBe(before);
  await Promise.all([asking.close(), recovering.close()]);
});
