/**
 * A chat is an incarnation, not just an id: a delete stops the turn running on it, and the id
 * starts over as another chat. The same rules across processes (a delete in one, the running turn
 * or a stale cache in another) are in `@skilltree/store/testing`, run on every store.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, type Message, type Model, memoryStore, SessionConflictError } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { CounterAgent } from './fixtures.js';
import { gate } from './gate.js';

const App = CounterAgent;

const lastUser = (messages: readonly Message[]) =>
  textOf([...messages].reverse().find((m) => m.role === 'user')!) ?? '';

/**
 * `bump…`: reads the skill, bumps, replies; `fail…`: the model fails; anything else: `ok: <text>`.
 * `pause` runs before every call; `seen` gets every request's messages.
 */
function model(options: { pause?: (messages: Message[]) => Promise<void> | void; seen?: Message[][] } = {}): Model {
  return {
    async generate(req) {
      options.seen?.push(req.messages);
      await options.pause?.(req.messages);
      const text = lastUser(req.messages);
      if (text.startsWith('fail')) throw new Error('the model is down');
      if (!text.startsWith('bump')) return { text: `ok: ${text}`, toolCalls: [] };
      const last = req.messages[req.messages.length - 1];
      if (last.role === 'user' || (last.role === 'tool' && last.name === 'read_skill')) {
        return req.tools.some((t) => t.name === 'bump')
          ? { text: '', toolCalls: [{ id: '', name: 'bump', input: {} }] }
          : { text: '', toolCalls: [{ id: '', name: 'read_skill', input: { name: 'counter' } }] };
      }
      return { text: `done: ${text}`, toolCalls: [] };
    },
  };
}

describe('a chat is an incarnation, not just an id', () => {
  test('a delete in this process stops the running turn on that chat at once, without waiting for a lease renewal', async () => {
    const store = memoryStore();
    const entered = gate();
    const sessions = createSessions(<App />, {
      store,
      // Its first renewal is 200 s away: only the delete itself can stop the turn within the test.
      leaseTtl: 600_000,
      model: model({
        pause: async (messages) => {
          if (messages.some((m) => m.role === 'tool' && m.name === 'bump')) {
            entered.open();
            await new Promise(() => {}); // the model never answers by itself
          }
        },
      }),
    });
    const running = sessions.send('x', 'bump old').then(
      () => null,
      (error: unknown) => error,
    );
    await entered.opened;
    expect(await sessions.delete('x')).toBe(true);
    const error = await running;
    expect(error).toBeInstanceOf(SessionConflictError);
    expect(String(error)).toMatch(/deleted or taken over while this turn ran/);
    expect(await store.record('x')).toBeNull();
    expect(await store.messages('x', 0, 10)).toEqual([]);
    // The id starts over, in this process too.
    expect((await sessions.send('x', 'new')).text).toBe('ok: new');
    expect((await store.messages('x', 0, 10)).map((m) => textOf(m))).toEqual(['new', 'ok: new']);
  });

  test('every incarnation gets its own random epoch: deleting and sending again starts another one', async () => {
    const store = memoryStore();
    const sessions = createSessions(<App />, { store, model: model() });
    await sessions.send('x', 'one');
    const first = (await store.record('x'))!.epoch;
    await sessions.send('x', 'two');
    expect((await store.record('x'))!.epoch).toBe(first);
    await sessions.delete('x');
    await sessions.send('x', 'three');
    const second = (await store.record('x'))!.epoch;
    expect(second).not.toBe(first);
    for (const epoch of [first, second]) expect(epoch).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a store without renew() (an older SessionStore) is refused up front, saying what to update', () => {
    const { renew: _, ...older } = memoryStore();
    expect(() => createSessions(<App />, { store: older as never, model: model() })).toThrow(
      /has no renew\(id, holder, ttl\)/,
    );
  });
});
