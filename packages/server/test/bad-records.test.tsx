/**
 * A chat with a stored record that cannot be read (edited by hand) answers GET /chat/:id with the
 * record reported in its place, by chat and index, and goes on with its next turn: never a 500.
 */
import { memoryStore, type SessionStore } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkilltreeUIMessage } from '../src/index.js';
import { client, startServer, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A store whose message 1 reads back as a record edited by hand into something that is no message. */
function editedStore(): SessionStore {
  const edit = (message: unknown, index: number) => (index === 1 ? { role: 'wizard', content: 42 } : message);
  const inner = memoryStore();
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'messages') {
        return async (key: string, from: number, limit: number) =>
          (await target.messages(key, from, limit)).map((m, i) => edit(m, from + i));
      }
      if (prop === 'load') {
        return async (key: string, window: number) => {
          const loaded = await target.load(key, window);
          return loaded && { ...loaded, messages: loaded.messages.map((m, i) => edit(m, loaded.start + i)) };
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as SessionStore;
}

describe('a bad record', () => {
  it('GET /chat/:id reports it by chat and index in its place, and the chat goes on', async () => {
    server = await startServer({ sessionsOptions: { store: editedStore() } });
    const alice = client(server.url);
    await alice.send('c1', 'hello');
    const response = await alice.history('c1');
    expect(response.status).toBe(200);
    const ui = (await response.json()) as SkilltreeUIMessage[];
    const reported = ui.flatMap((m) => m.parts.filter((p) => p.type === 'data-unreadable-record'));
    expect(reported).toEqual([
      {
        type: 'data-unreadable-record',
        data: { chat: 'c1', index: 1, reason: expect.stringContaining('"wizard"') },
      },
    ]);
    expect(JSON.stringify(ui)).toContain('Message 1 of chat \\"c1\\" could not be read');
    // The next turn runs on the chat, past the bad record.
    const { message } = await alice.send('c1', 'hello again');
    expect(message.role).toBe('assistant');
    expect((await alice.history('c1')).status).toBe(200);
  });
});
