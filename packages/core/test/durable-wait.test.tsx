/**
 * Waiting calls as durable waits, as core drives an engine with `wait` and `signal`: a turn that
 * ends waiting hands its turn to its caller while its run goes on waiting; the chat's committed
 * state names the wait; the turn that answers gets an id derived from the waiting turn and the
 * answers, and signals the wait (a step) with its outcome, which the waiting run ends with. An
 * engine without waits ends a waiting turn's run, as before.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, memoryStore } from '../src/index.js';
import { durableWaitOf } from '../src/provider.js';
import { chatTag, turnIdFor } from '../src/sessions/durable-wait.js';
import { TURN_PREFIX } from '../src/sessions/durable-wait-binding.js';
import { chatKey } from '../src/sessions/key.js';
import type { StoredState } from '../src/sessions/session-store.js';
import { ChargingShop, chargeThenDone } from './charging-shop.js';
import { settled } from './gate.js';
import { liveEngine } from './shared-journal.js';

/** The shop of these tests: each `charge` call waits for an approval. */
const Shop = () => <ChargingShop needsApproval />;

describe('waiting calls on an engine with durable waits', () => {
  test('a turn that ends waiting returns to its caller, and its run stays pending on a wait its chat names', async () => {
    const { engine, runs } = liveEngine({ waits: true });
    const store = memoryStore();
    const sessions = createSessions(<Shop />, { store, model: chargeThenDone, engine });
    const turn = await sessions.send('c1', 'Charge me');
    expect(turn.waiting?.map((w) => w.toolCallId)).toEqual(['pay-1']);
    const wait = await durableWaitOf(store, 'c1', undefined);
    expect(wait).toEqual({ turn: expect.stringMatching(/^skilltree-turn-/), wait: expect.any(String) });
    expect(await settled(runs.get(wait?.turn as string) as Promise<unknown>)).toBe(false);
    await sessions.close();
  });

  test('the answering turn gets an id derived from the waiting turn and the answers, signals the wait as a step, and the waiting run ends with its outcome', async () => {
    const { engine, steps, runs } = liveEngine({ waits: true });
    const store = memoryStore();
    const sessions = createSessions(<Shop />, { store, model: chargeThenDone, engine });
    await sessions.send('c1', 'Charge me');
    const wait = await durableWaitOf(store, 'c1', undefined);
    const waiting = wait?.turn as string;
    const answered = await sessions.approve('c1', 'pay-1');
    expect(answered.text).toBe('Done.');
    const continuation = [...runs.keys()].find((id) => id !== waiting) as string;
    expect(continuation).toMatch(new RegExp(`^${waiting.slice(0, TURN_PREFIX.length + 16)}-answers-[0-9a-f]{64}$`));
    expect(steps).toContain(`signal-${waiting}`);
    expect(await runs.get(waiting)).toEqual({ continuation, text: 'Done.', waiting: 0 });
    // Answered: the chat names no wait any more, and records which waiting turn was answered.
    expect(await durableWaitOf(store, 'c1', undefined)).toBeNull();
    expect((await store.record('c1'))?.state.answered).toBe(waiting);
    await sessions.close();
  });

  test('the same answers to the same waiting turn get the same turn id (an engine that dedups by id starts one workflow)', async () => {
    const { engine, runs } = liveEngine({ waits: true });
    const store = memoryStore();
    const sessions = createSessions(<Shop />, { store, model: chargeThenDone, engine });
    await sessions.send('c1', 'Charge me');
    const wait = (await durableWaitOf(store, 'c1', undefined)) as NonNullable<StoredState['wait']>;
    await sessions.approve('c1', 'pay-1');
    const id = [...runs.keys()].find((k) => k !== wait.turn) as string;
    // Another process answering the same waiting turn with the same answers derives the same id.
    const tag = await chatTag(await chatKey('c1', undefined));
    expect(await turnIdFor(wait, [{ toolCallId: 'pay-1', type: 'approve' }], tag)).toBe(id);
    await sessions.close();
  });

  test('an engine without waits ends a waiting turn, as without an engine', async () => {
    const { engine, runs } = liveEngine();
    const store = memoryStore();
    const sessions = createSessions(<Shop />, { store, model: chargeThenDone, engine });
    const turn = await sessions.send('c1', 'Charge me');
    expect(turn.waiting).toHaveLength(1);
    expect(await durableWaitOf(store, 'c1', undefined)).toBeNull();
    const [run] = [...runs.values()];
    expect(await settled(run as Promise<unknown>)).toBe(true);
    expect((await sessions.approve('c1', 'pay-1')).text).toBe('Done.');
    await sessions.close();
  });
});
