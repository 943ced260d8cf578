/**
 * `GET /chat/:id/stream` of a turn a durable engine recovered in another process (it runs there
 * with no caller, writing to the store): its owner follows it from any worker, and another user
 * asking for the same chat id gets exactly what an id nobody used gets (no stream, nothing of the
 * turn), while it runs and after it ended. An in-memory engine of the test's own plays the engine's
 * database: it keeps each turn's input and recorded steps, and recovers a turn in a second process.
 */
import { Agent, createSessions, type Model, memoryStore, Tool } from '@skilltree/core';
import type { DurableRegistration, DurableTurnInput, TurnEngine } from '@skilltree/core/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { apiPath } from './helpers.js';
import { type Closers, heldRun, serveSessions } from './served.js';

const closers: Closers = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The engine's database, shared by the test's processes: each turn's input and recorded steps. */
function journal() {
  const inputs = new Map<string, DurableTurnInput>();
  const steps = new Map<string, Map<string, unknown>>();
  const process = () => {
    let registration: DurableRegistration | null = null;
    let active = '';
    const turns: string[] = [];
    const engine: TurnEngine = {
      name: 'journal',
      register(given) {
        registration = given;
      },
      run(turnId, input) {
        inputs.set(turnId, JSON.parse(JSON.stringify(input)));
        steps.set(turnId, new Map());
        active = turnId;
        turns.push(turnId);
        return (registration as DurableRegistration).run(turnId, input);
      },
      async step(name, fn) {
        const recorded = steps.get(active) as Map<string, unknown>;
        if (recorded.has(name)) return recorded.get(name) as never;
        const value = JSON.parse(JSON.stringify((await fn()) ?? null));
        recorded.set(name, value);
        return value;
      },
      async close() {},
    };
    const recover = (turnId: string) => {
      active = turnId;
      return (registration as DurableRegistration).run(turnId, inputs.get(turnId) as DurableTurnInput);
    };
    return { engine, turns, recover };
  };
  return { process };
}

const model: Model = {
  async generate(request) {
    if (request.messages.at(-1)?.role === 'tool') return { text: 'Charged the secret card.', toolCalls: [] };
    return { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] };
  },
};

const shop = (run: () => Promise<string>) => (
  <Agent>
    <Tool name="charge" description="Charges the card" run={run} />
  </Agent>
);

/** What a request answered, as a client sees it. */
async function seen(response: Response) {
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('a recovered turn streams to its owner only', () => {
  it("another user's GET /chat/:id/stream of a recovered turn gets what an id nobody used gets, while it runs and after", async () => {
    const db = journal();
    const store = memoryStore();
    // The first process: Alice's turn stops in its tool, and the process is closed (a deploy).
    const a = db.process();
    const dying = heldRun();
    const first = createSessions(shop(dying.run), { store, model, engine: a.engine });
    const sending = first.send('c1', 'Charge my card', { owner: 'alice' }).catch(() => {});
    await dying.started;
    await first.close({ timeout: 0 });
    await sending;
    // The second process recovers it, with no caller: its tool holds until the test lets it go.
    const b = db.process();
    const held = heldRun();
    const second = createSessions(shop(held.run), { store, model, engine: b.engine });
    const url = await serveSessions(second, closers);
    const recovering = b.recover(a.turns[0] as string);
    await held.started;
    const stream = (user: string, id = 'c1') =>
      fetch(`${url}${apiPath('chat-stream', id)}`, { headers: { 'x-user': user } });
    const nobody = await seen(await stream('mallory', 'never-used'));
    expect(await seen(await stream('mallory'))).toEqual(nobody);
    // Alice follows the recovered turn from this worker.
    const hers = await stream('alice');
    expect(hers.status).toBe(200);
    held.release('charged');
    await recovering;
    const body = await hers.text();
    expect(body).toContain('Charged the secret card.');
    // Ended: still nothing for Mallory, and nothing of the turn in any answer she gets.
    const after = await seen(await stream('mallory'));
    expect(after).toEqual(await seen(await stream('mallory', 'never-used')));
    expect(after.body).not.toContain('secret');
    const history = await fetch(`${url}${apiPath('chat-id', 'c1')}`, { headers: { 'x-user': 'mallory' } });
    expect(history.status).toBe(404);
  });
});
