/**
 * The serving snippets, served for real: Hono, a Next.js route handler, Express and node:http, each
 * driven by the AI SDK's own client (DefaultChatTransport + readUIMessageStream).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
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
  const transport = new DefaultChatTransport<SkilltreeUIMessage>({
    api,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    fetch: fetcher,
  });
  const stream = await transport.sendMessages({
    chatId,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let reply: SkilltreeUIMessage | undefined;
  for await (const message of readUIMessageStream<SkilltreeUIMessage>({ stream })) reply = message;
  return reply!.parts.filter((p) => p.type === 'text').map((p) => p.text);
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
