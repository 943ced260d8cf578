/**
 * An answering turn's id (an engine dedups workflows by it) is derived from the waiting turn and
 * the answers with SHA-256: it keeps one length however many approval rounds came before (each
 * round's waiting turn is the previous answer), and two different answers never share an id.
 */
import { expect, test } from 'vitest';
import { createSessions, memoryStore, scriptedModel } from '../src/index.js';
import { durableWaitOf } from '../src/provider.js';
import { chatTag, turnIdFor } from '../src/sessions/durable-wait.js';
import { TURN_PREFIX } from '../src/sessions/durable-wait-binding.js';
import { chatKey } from '../src/sessions/key.js';
import { ChargingShop } from './charging-shop.js';
import { liveEngine } from './shared-journal.js';

/** The shop of these tests: each `charge` call waits for an approval. */
const Shop = () => <ChargingShop needsApproval />;

const ROUNDS = 300;

test('an answering turn id keeps one length over 300 chained approval rounds, and carries its chat tag', async () => {
  const { engine } = liveEngine({ waits: true });
  const store = memoryStore();
  // Every reply asks for one more charge: each approval answers a turn that itself answered one.
  const replies = Array.from({ length: ROUNDS + 1 }, (_, i) => ({
    toolCalls: [{ id: `pay-${i}`, name: 'charge', input: {} }],
  }));
  const model = scriptedModel(replies);
  const sessions = createSessions(<Shop />, { store, model: () => model, engine });
  await sessions.send('c1', 'Charge me, again and again');
  const prefix = `${TURN_PREFIX}${await chatTag(await chatKey('c1', undefined))}-answers-`;
  const lengths = new Set<number>();
  let previous = '';
  for (let i = 0; i < ROUNDS; i++) {
    await sessions.approve('c1', `pay-${i}`);
    // The turn that just answered now waits itself: the chat's state names it.
    const waiting = (await durableWaitOf(store, 'c1', undefined))?.turn as string;
    expect(waiting.startsWith(prefix)).toBe(true);
    expect(waiting).not.toBe(previous);
    lengths.add(waiting.length);
    previous = waiting;
  }
  expect([...lengths]).toEqual([prefix.length + 64]);
  await sessions.close();
});

test('two different answers to one waiting turn give two ids; the same answers in any order give one', async () => {
  const tag = await chatTag(await chatKey('c1', undefined));
  const follows = { turn: `${TURN_PREFIX}${tag}-${crypto.randomUUID()}`, wait: 'w' };
  const approve = { toolCallId: 'pay-1', type: 'approve' } as const;
  const deny = { toolCallId: 'pay-1', type: 'deny', reason: 'too much' } as const;
  const other = { toolCallId: 'pay-2', type: 'approve' } as const;
  expect(await turnIdFor(follows, [approve], tag)).not.toBe(await turnIdFor(follows, [deny], tag));
  expect(await turnIdFor(follows, [approve, other], tag)).toBe(await turnIdFor(follows, [other, approve], tag));
  // The same answers to another waiting turn get another id.
  const later = { turn: `${TURN_PREFIX}${tag}-${crypto.randomUUID()}`, wait: 'w' };
  expect(await turnIdFor(later, [approve], tag)).not.toBe(await turnIdFor(follows, [approve], tag));
});
