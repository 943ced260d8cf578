/**
 * Who can reach a chat: each user's chats are their own namespace. A POST to any id is the sender's
 * own chat, so no request tells a user whether another used the id, nobody can claim another's id,
 * and a 409 only ever concerns the sender's own chat.
 */
import { textOf } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { apiPath, client, startServer, type TestServer, waiting } from './helpers.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const as = (user: string) => ({ 'x-user': user });
const post = (id: string, text: string, user: string) =>
  fetch(`${server.url}${apiPath('chat')}`, {
    method: 'POST',
    headers: { ...as(user), 'content-type': 'application/json' },
    body: JSON.stringify({ id, messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text }] }] }),
  });

/** Status, headers that could differ, and body of a response. */
async function seen(response: Response) {
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('who can reach a chat', () => {
  it("a POST to an id another user has is the sender's own new chat: 200, and the other's chat is untouched", async () => {
    server = await startServer();
    await client(server.url, 'alice').send('c1', 'note secret');
    const response = await post('c1', 'show me the notes', 'mallory');
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain('secret');
    const mine = await client(server.url, 'mallory').history('c1');
    expect(mine.status).toBe(200);
    const messages = (await mine.json()) as { role: string; parts: { type: string; text?: string }[] }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1].parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['echo: show me the notes']);
    expect(JSON.stringify(messages)).not.toContain('secret');
    // Alice's chat is as she left it.
    const hers = await server.sessions.messages('c1', { limit: 100, owner: 'alice' });
    expect(hers.filter((m) => m.role === 'user').map((m) => textOf(m))).toEqual(['note secret']);
    expect((await server.sessions.get('c1', { owner: 'alice' }))?.stores).toEqual({ notes: { items: ['secret'] } });
  });

  it("GET and DELETE of another user's id answer 404 exactly as an id nobody used does", async () => {
    server = await startServer();
    await client(server.url, 'alice').send('c1', 'note secret');
    for (const path of ['/api/chat/', '/api/sessions/']) {
      const taken = await seen(await fetch(`${server.url}${path}c1`, { headers: as('mallory') }));
      const free = await seen(await fetch(`${server.url}${path}never-used`, { headers: as('mallory') }));
      expect(taken.status).toBe(404);
      expect(taken).toEqual(free);
    }
    const taken = await seen(
      await fetch(`${server.url}${apiPath('chat-id', 'c1')}`, { method: 'DELETE', headers: as('mallory') }),
    );
    const free = await seen(
      await fetch(`${server.url}${apiPath('chat-id', 'never-used')}`, { method: 'DELETE', headers: as('mallory') }),
    );
    expect(taken.status).toBe(404);
    expect(taken).toEqual(free);
    expect((await client(server.url, 'alice').history('c1')).status).toBe(200);
    expect(await server.sessions.get('c1', { owner: 'alice' })).toMatchObject({ transcriptLength: 6 });
  });

  it("a running turn of Alice's never makes Bob's POST to the same id 409; her own second POST is", async () => {
    server = await startServer({ sessionsOptions: { onBusy: 'reject' } });
    const controller = new AbortController();
    const before = waiting.count;
    const running = client(server.url, 'alice')
      .send('c1', 'wait', controller.signal)
      .catch((error: unknown) => error);
    while (waiting.count === before) await new Promise((r) => setTimeout(r, 10));
    const bob = await client(server.url, 'bob').send('c1', 'hello');
    expect(bob.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'echo: hello' });
    const again = await post('c1', 'hello', 'alice');
    expect(again.status).toBe(409);
    await again.text();
    controller.abort();
    await running;
  });
});

describe('user ids are exact', () => {
  /** What a token decodes to: user ids no store can keep exactly (half an emoji) or at all (NUL). */
  const USERS: Record<string, string> = {
    whole: 'Ann😀',
    cut: 'Ann😀'.slice(0, 4),
    other: 'Ann\uDE00',
    nul: 'ann\u0000',
    line: 'ann\nbob',
    replaced: 'Ann\uFFFD',
  };
  const start = () => startServer({ authorize: (request) => USERS[request.headers.get('x-user') ?? ''] ?? null });

  it('a user id with a lone surrogate or a control character gets 403 invalid_user on every route, never a 500 or a shared chat; the log says why', async () => {
    server = await start();
    await client(server.url, 'replaced').send('c1', 'note secret');
    for (const user of ['cut', 'other', 'nul', 'line']) {
      const responses = [
        await post('c1', 'show me the notes', user),
        await fetch(`${server.url}${apiPath('chat-id', 'c1')}`, { headers: as(user) }),
        await fetch(`${server.url}${apiPath('session', 'c1')}`, { headers: as(user) }),
        await fetch(`${server.url}${apiPath('chat-id', 'c1')}`, { method: 'DELETE', headers: as(user) }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(403);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('invalid_user');
        expect(body.error.message).not.toMatch(/surrogate|control/);
      }
    }
    expect(server.logs.some((line) => /cannot own chats: .*lone surrogate/.test(line))).toBe(true);
    expect(server.logs.some((line) => /cannot own chats: .*control characters/.test(line))).toBe(true);
    expect(server.logs.some((line) => /failed/.test(line))).toBe(false);
    // The chat of the id the cut ones would decode to is untouched, and the whole emoji is another user.
    const hers = await server.sessions.messages('c1', { limit: 100, owner: 'Ann\uFFFD' });
    expect(hers.filter((m) => m.role === 'user').map((m) => textOf(m))).toEqual(['note secret']);
    const whole = await post('c1', 'hello', 'whole');
    expect(whole.status).toBe(200);
    await whole.text();
    expect(await server.sessions.messages('c1', { owner: 'Ann😀' })).toHaveLength(2);
  });
});
