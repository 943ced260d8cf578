/**
 * A durable turn recovered after its chat moved on (SPEC §21): its process died, its caller heard
 * it fail, and the chat went on (the message sent again, or a later turn once the lease expired).
 * Recovered then, it replays what it recorded and runs nothing live: no second charge under another
 * idempotency key, no model call billed where nobody sees it. A turn the chat still shows (or that
 * nothing overtook) is recovered as always. The engine is the in-memory shared journal.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, memoryStore, type SessionStore } from '../src/index.js';
import { type DurableTurnInput, durableWaitOf, TurnSupersededError } from '../src/provider.js';
import type { ResolvedChat } from '../src/sessions/chat.js';
import { movedOnSinceSent } from '../src/sessions/durable-superseded.js';
import { ApprovalShop, ChargingShop, steppingShopModel } from './charging-shop.js';
import { sharedJournal } from './shared-journal.js';

/** A model that calls `charge` for a user's message (call `pay-<n>`, n counting every call) and answers after it. */
function countingModel() {
  const asked: string[] = [];
  return {
    asked,
    model: () => ({
      name: 'shop',
      async generate(request: { messages: { role: string }[] }) {
        asked.push(`call ${asked.length + 1}`);
        return request.messages.at(-1)?.role === 'tool'
          ? { text: 'Charged.', toolCalls: [] }
          : { text: '', toolCalls: [{ id: `pay-${asked.length}`, name: 'charge', input: {} }] };
      },
    }),
  };
}

/** `store` for a process whose lease lapses at once (it never renews, never releases): as a process that stalled, then died. */
const lapsing = (store: SessionStore): SessionStore =>
  Object.assign(Object.create(store) as SessionStore, { renew: async () => false, release: async () => {} });

/**
 * One test's world: a store, the charges' idempotency keys, the model's calls, and process A, whose
 * turn on chat c1 dies at the first step named `dieAt` (its lease lapsing at once). `other(engine)`
 * is another process's sessions on the same store.
 */
async function diedAt(dieAt: string) {
  const journal = sharedJournal();
  const store = memoryStore();
  const keys: string[] = [];
  const { asked, model } = countingModel();
  const shop = <ChargingShop onCharge={(ctx) => keys.push(ctx.idempotencyKey)} />;
  const a = journal.process({ dieAt });
  const dying = createSessions(shop, { store: lapsing(store), model, engine: a.engine, leaseTtl: 300 });
  void dying.send('c1', 'Charge me').catch(() => {});
  await a.died;
  const b = journal.process();
  const other = createSessions(shop, { store, model, engine: b.engine, leaseTtl: 300 });
  /** What a turn that ran nothing leaves as it found it. */
  const seen = async () => ({ asked: [...asked], keys: [...keys], length: (await store.record('c1'))?.length });
  return { lost: a.runs[0]?.turnId as string, b, other, keys, asked, seen };
}

test('a turn that never began, recovered after its message was sent again, runs nothing: it ends superseded', async () => {
  const { lost, b, other, keys, seen } = await diedAt('open');
  // The client saw its stream break and sent the message again, to another process.
  expect((await other.send('c1', 'Charge me')).text).toBe('Charged.');
  const before = await seen();
  await expect(b.recover(lost)).rejects.toBeInstanceOf(TurnSupersededError);
  expect(await seen()).toEqual(before);
  expect(keys).toHaveLength(1);
  await other.close();
});

test('a turn that never began, recovered while its chat is as it was sent, runs its message', async () => {
  const { lost, b, other, keys } = await diedAt('open');
  expect(await b.recover(lost)).toEqual(expect.objectContaining({ text: 'Charged.' }));
  expect(keys).toHaveLength(1);
  expect((await other.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  await other.close();
});

test('a turn that began, recovered after a later turn ran on its chat, replays and stops before its tool: the charge runs once', async () => {
  const { lost, b, other, keys, seen } = await diedAt('tool-');
  // The user asks again once the lease is gone: the dead turn's call shows Interrupted, the new one charges.
  expect((await other.send('c1', 'Charge me please')).text).toBe('Charged.');
  expect(keys).toHaveLength(1);
  const before = await seen();
  const ended = await b.recover(lost).then(
    () => null,
    (error: unknown) => error,
  );
  expect(ended).toBeInstanceOf(TurnSupersededError);
  expect((ended as TurnSupersededError).step).toMatch(/^tool-charge-pay-1/);
  expect(await seen()).toEqual(before);
  await other.close();
});

test('a turn that began, recovered while its chat still shows it running, goes on from its last recorded step', async () => {
  const { lost, b, other, keys, asked } = await diedAt('tool-');
  expect(await b.recover(lost)).toEqual(expect.objectContaining({ text: 'Charged.' }));
  expect(keys).toHaveLength(1);
  expect(asked).toEqual(['call 1', 'call 2']);
  expect((await other.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  await other.close();
});

test('an answer that began, superseded on recovery, still ends the waiting turn it answered', async () => {
  const journal = sharedJournal({ waits: true });
  const store = memoryStore();
  const ran: string[] = [];
  const model = steppingShopModel([]);
  // P1's turn waits for the approval of its charge.
  const p1 = journal.process();
  const asking = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: p1.engine });
  const first = await asking.send('c1', 'Charge me');
  const waiting = (await durableWaitOf(store, 'c1', undefined))?.turn as string;
  const run = p1.runs.find((r) => r.turnId === waiting);
  // P2 approves (its commit takes the call), and dies as the approved charge would run.
  const p2 = journal.process({ dieAt: 'tool-' });
  const dying = createSessions(<ApprovalShop ran={ran} />, {
    store: lapsing(store),
    model,
    engine: p2.engine,
    leaseTtl: 300,
  });
  void dying.approve('c1', first.waiting?.[0]?.toolCallId as string).catch(() => {});
  await p2.died;
  const answer = p2.runs[0]?.turnId as string;
  // The user writes again once the lease is gone; the chat moves on without the answer.
  const p3 = journal.process();
  const other = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: p3.engine, leaseTtl: 300 });
  await other.send('c1', 'Charge me again');
  expect(run?.settled).toBe(false);
  // Recovered, the answer runs nothing (the charge stays unrun) and ends the turn it answered.
  await expect(p3.recover(answer)).rejects.toBeInstanceOf(TurnSupersededError);
  expect(ran).toEqual([]);
  await run?.ended;
  expect(run?.settled).toBe(true);
  await Promise.all([asking.close(), other.close()]);
});

describe('a recorded chat version that is no count of commits says nothing: the turn runs, as one recorded before turns kept it', () => {
  const chat = (version: number): ResolvedChat => ({
    id: 'c1',
    owner: undefined,
    key: 'c1',
    record: { version } as ResolvedChat['record'],
  });
  const sentAt = (chatVersion: unknown): DurableTurnInput =>
    ({ id: 'c1', owner: null, input: 'hi', chatVersion }) as DurableTurnInput;
  test.each([
    ['NaN', Number.NaN],
    ['negative', -1],
    ['a fraction', 0.5],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['past safe integers', 2 ** 60],
    ['a string', '0'],
    ['null', null],
    ['an object', { valueOf: (): number => 0 }],
  ])('%s', (_what, chatVersion) => {
    expect(movedOnSinceSent(sentAt(chatVersion), chat(5))).toBe(false);
  });
  test('a real count: moved on once another commit came, not before', () => {
    expect(movedOnSinceSent(sentAt(4), chat(5))).toBe(true);
    expect(movedOnSinceSent(sentAt(5), chat(5))).toBe(false);
    expect(movedOnSinceSent(sentAt(0), { ...chat(0), record: null })).toBe(false);
  });
});
