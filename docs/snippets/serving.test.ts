/**
 * The serving snippets, served for real: Hono, a Next.js route handler, Express and node:http, each
 * driven by the AI SDK's own client (DefaultChatTransport + readUIMessageStream); and the page's way
 * of opening a chat (serving-client.tsx) against the Hono app, in a stand-in for the browser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { sendChatTurn } from '@skilltree/test-kit';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadChat, openChat, rememberChat } from './serving-client.js';
import { app as expressApp } from './serving-express.js';
import { app as honoApp } from './serving-hono.js';
import * as nextRoute from './serving-nextjs.js';
import { server as nodeServer } from './serving-node.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One turn through the AI SDK's transport; `fetch` lets the Next.js route handler be called directly. */
async function say(api: string, chatId: string, text: string, token?: string, fetcher?: typeof fetch) {
  const reply = await sendChatTurn<SkilltreeUIMessage>({
    api,
    chatId,
    text,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    fetch: fetcher,
  });
  return reply.parts.filter((p) => p.type === 'text').map((p) => p.text);
}

describe('serving snippets', () => {
  it('Hono: useChat gets the streamed reply; another user gets 404 for the chat', async () => {
    const hono = await new Promise<Server>((resolve) => {
      const server = serve({ fetch: honoApp.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server as Server));
    });
    const url = await listen(hono);
    expect(await say(`${url}/api/chat`, 'hono-1', 'Hello from Hono', 'token-alice')).toEqual([
      'You said: Hello from Hono',
    ]);
    const mine = await fetch(`${url}/api/chat/hono-1`, { headers: { authorization: 'Bearer token-alice' } });
    expect(((await mine.json()) as unknown[]).length).toBe(2);
    const theirs = await fetch(`${url}/api/chat/hono-1`, { headers: { authorization: 'Bearer token-bob' } });
    expect(theirs.status).toBe(404);
    expect((await fetch(`${url}/api/chat/hono-1`)).status).toBe(401);
  });

  it('Next.js: the route handlers answer Web Requests', async () => {
    const route = (request: Request) =>
      request.method === 'POST'
        ? nextRoute.POST(request)
        : request.method === 'DELETE'
          ? nextRoute.DELETE(request)
          : nextRoute.GET(request);
    const fetcher = ((input: RequestInfo | URL, init?: RequestInit) => route(new Request(input, init))) as typeof fetch;
    expect(await say('http://app.example/api/chat', 'next-1', 'Hello from Next', 'token-bob', fetcher)).toEqual([
      'You said: Hello from Next',
    ]);
    const history = await nextRoute.GET(
      new Request('http://app.example/api/chat/next-1', { headers: { authorization: 'Bearer token-bob' } }),
    );
    expect(history.status).toBe(200);
    const removed = await nextRoute.DELETE(
      new Request('http://app.example/api/chat/next-1', {
        method: 'DELETE',
        headers: { authorization: 'Bearer token-bob' },
      }),
    );
    expect(removed.status).toBe(204);
  });

  it('Express: mounted at /api, useChat gets the streamed reply', async () => {
    const url = await listen(createServer(expressApp));
    expect(await say(`${url}/api/chat`, 'express-1', 'Hello from Express', 'token-alice')).toEqual([
      'You said: Hello from Express',
    ]);
    const view = await fetch(`${url}/api/sessions/express-1`, { headers: { authorization: 'Bearer token-alice' } });
    expect(await view.json()).toMatchObject({ id: 'express-1', owner: 'alice', transcriptLength: 2 });
  });

  it('node:http without authorize: a loopback client chats', async () => {
    const url = await listen(nodeServer);
    expect(await say(`${url}/api/chat`, 'node-1', 'Hello from node:http')).toEqual(['You said: Hello from node:http']);
  });
});

describe("the page's chat: loaded only when it has messages", () => {
  let base = '';
  /** Every request the page made. */
  const asked: string[] = [];
  /** What the server answers instead, for a request of the page (null: the real answer). */
  let override: Response | null = null;

  /** The browser's globals of a page at `href`, signed in as Alice (her token stands for her cookie). */
  function pageAt(href: string): { url(): string } {
    let current = new URL(href, base).href;
    vi.stubGlobal('location', {
      get href() {
        return current;
      },
      get search() {
        return new URL(current).search;
      },
    });
    vi.stubGlobal('history', {
      replaceState: (_state: unknown, _title: string, url: string | URL) => (current = String(url)),
    });
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      asked.push(input);
      if (override) return override;
      return realFetch(new URL(input, base), { ...init, headers: { authorization: 'Bearer token-alice' } });
    });
    return { url: () => current };
  }

  const realFetch = globalThis.fetch;
  afterEach(() => {
    vi.unstubAllGlobals();
    asked.length = 0;
    override = null;
  });

  it('a new chat asks the server nothing: no request, so no 404 in the console', async () => {
    const hono = await new Promise<Server>((resolve) => {
      const server = serve({ fetch: honoApp.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server as Server));
    });
    base = await listen(hono);
    const page = pageAt('/');
    const chat = await openChat();
    expect(chat.messages).toEqual([]);
    expect(chat.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(asked).toEqual([]);
    expect(page.url()).toBe(`${base}/`);
  });

  it('the first message puts the chat in the URL, and a reload restores it', async () => {
    const page = pageAt('/');
    const { id } = await openChat();
    rememberChat(id); // what the form does when it sends
    expect(new URL(page.url()).searchParams.get('chat')).toBe(id);
    vi.unstubAllGlobals(); // the message itself goes through the AI SDK's transport
    expect(await say(`${base}/api/chat`, id, 'Hello from the page', 'token-alice')).toEqual([
      'You said: Hello from the page',
    ]);
    pageAt(page.url()); // the reload
    const reloaded = await openChat();
    expect(reloaded.id).toBe(id);
    expect(reloaded.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(asked).toEqual([`/api/chat/${id}`]);
  });

  it("a chat the user has none of (someone else's link, a deleted one) is an empty chat; other failures throw", async () => {
    pageAt('/?chat=not-mine');
    expect(await openChat()).toEqual({ id: 'not-mine', messages: [] });
    override = new Response('{"error":{"code":"internal"}}', { status: 500 });
    await expect(loadChat('not-mine')).rejects.toThrow('Could not load chat not-mine: HTTP 500.');
  });
});
