/**
 * The engine interface as core uses it (`createSessions(…, { engine })`): a turn runs through the
 * engine's `run`, and the session it opened, each model call and each tool run are steps, in the
 * order the turn made them; the turn ends as it would without an engine. Every tool gets
 * `ctx.idempotencyKey`: the chat, its incarnation and the call, with or without an engine.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, memoryStore, scriptedModel } from '../src/index.js';
import { ChargingShop } from './charging-shop.js';
import { liveEngine } from './shared-journal.js';

const keys: string[] = [];
const Shop = () => <ChargingShop onCharge={(ctx) => keys.push(ctx.idempotencyKey)} />;

const charging = () => scriptedModel([{ toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] }, { text: 'Done.' }]);

describe('createSessions with an engine', () => {
  test('a turn is one run of the engine: its opened session, each model call and each tool run are steps in order', async () => {
    const { engine, steps, turns } = liveEngine();
    const sessions = createSessions(<Shop />, { store: memoryStore(), model: () => charging(), engine });
    const turn = await sessions.send('c1', 'Charge me');
    expect(turn.text).toBe('Done.');
    expect(turn.steps).toBe(2);
    expect(turns).toHaveLength(1);
    expect(steps).toEqual(['open', 'model-1', 'tool-charge-pay-1', 'model-2']);
    const messages = await sessions.messages('c1');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await sessions.close();
  });

  test('a streamed turn on an engine hands out the same events as without one', async () => {
    const plain = createSessions(<Shop />, { store: memoryStore(), model: () => charging() });
    const durable = createSessions(<Shop />, {
      store: memoryStore(),
      model: () => charging(),
      engine: liveEngine().engine,
    });
    const types = async (s: typeof plain) => {
      const out: string[] = [];
      for await (const event of s.stream('c1', 'Charge me')) out.push(event.type);
      return out;
    };
    expect(await types(durable)).toEqual(await types(plain));
    await plain.close();
    await durable.close();
  });
});

describe('ctx.idempotencyKey', () => {
  test("a tool's idempotency key names the chat, its incarnation and the call; another incarnation gets another key", async () => {
    keys.length = 0;
    const sessions = createSessions(<Shop />, { store: memoryStore(), model: () => charging() });
    await sessions.send('c1', 'Charge me');
    const first = await sessions.get('c1');
    expect(keys).toEqual([`c1/${first?.incarnation}/pay-1`]);
    // Deleted and started again under its id: the same call id is another call.
    await sessions.delete('c1');
    await sessions.send('c1', 'Charge me');
    const second = await sessions.get('c1');
    expect(second?.incarnation).not.toBe(first?.incarnation);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(`c1/${second?.incarnation}/pay-1`);
    expect(keys[1]).not.toBe(keys[0]);
    await sessions.close();
  });
});
