/**
 * Who may use the server: the user `authorize` returns (each user's chats are their own, see
 * owners.test.tsx). Without `authorize`, loopback clients only, and the handler says so when it is
 * created.
 */
import { request as httpRequest } from 'node:http';
import { createSessions, memoryStore } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHandler,
  isLoopbackAddress,
  isLoopbackHost,
  LOCAL_USER,
  PROXY_HEADERS,
  proxyHeader,
} from '../src/index.js';
import { apiPath, NotesAgent, ruleModel, startServer, type TestServer } from './helpers.js';
import { rawExchange } from './served.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const chatBody = (id: string, text = 'hi') =>
  JSON.stringify({ id, messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text }] }] });

describe('a session belongs to the user who created it', () => {
  it('a request that authorize refuses gets 401, before its body is read', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}${apiPath('chat')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'not even json',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await fetch(`${server.url}${apiPath('chat-id', 'c1')}`)).status).toBe(401);
  });

  it('an authorize that throws answers 500 without details', async () => {
    server = await startServer({
      authorize: () => {
        throw new Error('auth backend down: secret-dsn');
      },
    });
    const response = await fetch(`${server.url}${apiPath('chat-id', 'c1')}`);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret-dsn');
    expect(server.logs.join('\n')).toContain('auth backend down');
  });
});

describe('without authorize: loopback clients only', () => {
  const make = (logs: string[] = []) =>
    createHandler({
      sessions: createSessions(<NotesAgent />, { store: memoryStore(), model: ruleModel() }),
      log: (line) => logs.push(line),
    });
  const post = (url = `http://127.0.0.1:3000${apiPath('chat')}`, headers: Record<string, string> = {}) =>
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: chatBody('c1'),
    });

  it('says so when it is created', () => {
    const logs: string[] = [];
    make(logs);
    expect(logs).toEqual([expect.stringContaining('no authorize option, so only loopback clients')]);
    expect(logs[0]).toMatch(
      /requests that came through a proxy \(Forwarded, X-Forwarded-For, X-Real-IP.*\) are refused/,
    );
  });

  it('serves a loopback client, as the user "local"', async () => {
    server = await startServer({ authorize: undefined });
    const response = await fetch(`${server.url}${apiPath('chat')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chatBody('c1'),
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(await server.sessions.get('c1', { owner: LOCAL_USER })).toMatchObject({ owner: LOCAL_USER });
  });

  it('refuses a client whose address is not loopback (403), whatever X-Forwarded-For says', async () => {
    const handler = make();
    for (const remoteAddress of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1', '0.0.0.0']) {
      const response = await handler(post(undefined, { 'x-forwarded-for': '127.0.0.1' }), { remoteAddress });
      expect(response.status, remoteAddress).toBe(403);
    }
  });

  it('refuses when it does not know the client address (403 that says to pass authorize)', async () => {
    const response = await make()(post());
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('Pass authorize');
  });

  it('refuses a Host that is not this machine (DNS rebinding) and a page on another site (Origin)', async () => {
    const handler = make();
    const local = { remoteAddress: '127.0.0.1' };
    expect((await handler(post(`http://attacker.example:3000${apiPath('chat')}`), local)).status).toBe(403);
    expect((await handler(post(undefined, { origin: 'https://attacker.example' }), local)).status).toBe(403);
    expect((await handler(post(undefined, { origin: 'null' }), local)).status).toBe(403);
    const ok = await handler(
      post(`http://localhost:3000${apiPath('chat')}`, { origin: 'http://localhost:5173' }),
      local,
    );
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('a real server sees the Host header a rebinding page would send, and refuses it', async () => {
    server = await startServer({ authorize: undefined });
    const { port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: apiPath('chat-id', 'c1'),
          headers: { host: `rebind.attacker.example:${port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('knows loopback addresses and hosts', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '[::1]']) {
      expect(isLoopbackAddress(a), a).toBe(true);
    }
    for (const a of ['10.0.0.1', '::', '::2', '::ffff:10.0.0.1', '128.0.0.1', 'localhost', '', undefined]) {
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    }
    for (const h of ['localhost', 'localhost:3000', 'app.localhost', '127.0.0.1:80', '[::1]:3000', 'LOCALHOST.']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ['example.com', 'localhost.example.com', '127.0.0.1.nip.io', '[::2]:1', '10.0.0.1', null]) {
      expect(isLoopbackHost(h), String(h)).toBe(false);
    }
  });
});

/** Sends raw bytes on a real socket and returns the status and body of the answer (header names exactly as written). */
async function rawRequest(port: string, head: string, body = ''): Promise<{ status: number; text: string }> {
  const data = await rawExchange(
    port,
    `${head}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
  return { status, text: data.slice(data.indexOf('\r\n\r\n') + 4) };
}

describe('without authorize: a request that came through a proxy is refused', () => {
  const make = () =>
    createHandler({
      sessions: createSessions(<NotesAgent />, { store: memoryStore(), model: ruleModel() }),
      log: () => {},
    });
  const local = { remoteAddress: '127.0.0.1' };
  const get = (headers: Record<string, string>) =>
    new Request(`http://127.0.0.1:3000${apiPath('chat-id', 'c1')}`, { headers });

  it('refuses each proxy header, in any case, with any value (the empty one too), with a 403 that says to pass authorize', async () => {
    const handler = make();
    // Without a proxy header the same request is served (404: no such chat yet), so the refusals below are the headers'.
    expect((await handler(get({}), local)).status).toBe(404);
    const mixed = (name: string) => [...name].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join('');
    for (const name of ['Forwarded', 'X-Forwarded-For', 'X-Real-IP']) {
      for (const spelled of [name, name.toLowerCase(), name.toUpperCase(), mixed(name)]) {
        for (const value of ['for=127.0.0.1', '127.0.0.1', '203.0.113.9', '']) {
          const response = await handler(get({ [spelled]: value }), local);
          expect(response.status, `${spelled}: ${value}`).toBe(403);
          const { error } = (await response.json()) as { error: { code: string; message: string } };
          expect(error.code).toBe('forbidden');
          expect(error.message).toContain(`it carries ${name}`);
          expect(error.message).toContain('Pass authorize');
        }
      }
    }
  });

  it('refuses the other headers proxies and tunnels add', async () => {
    const handler = make();
    for (const name of PROXY_HEADERS) {
      const response = await handler(get({ [name.toLowerCase()]: '1' }), local);
      expect(response.status, name).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(name);
    }
    expect(proxyHeader(new Headers({ 'x-forwarded-for': '' }))).toBe('X-Forwarded-For');
    expect(proxyHeader(new Headers({ 'x-forwarded': 'no such header', 'x-real-ipx': '1' }))).toBeNull();
  });

  it('starts no turn for a proxied POST: the chat is not created', async () => {
    server = await startServer({ authorize: undefined });
    const response = await fetch(`${server.url}${apiPath('chat')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Forwarded-For': '203.0.113.9' },
      body: chatBody('c1', 'note secret'),
    });
    expect(response.status).toBe(403);
    expect(await server.sessions.get('c1', { owner: LOCAL_USER })).toBeNull();
  });

  it('a real loopback socket that sends a proxy header, in any case or empty, gets 403; without one it is served', async () => {
    server = await startServer({ authorize: undefined });
    const { port, host } = new URL(server.url);
    const post = (header: string) =>
      rawRequest(
        port,
        `POST ${apiPath('chat')} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json${header ? `\r\n${header}` : ''}`,
        chatBody('c1', 'note milk'),
      );
    for (const header of [
      'X-Forwarded-For: 203.0.113.9',
      'x-forwarded-for: 127.0.0.1',
      'X-FORWARDED-FOR:',
      'x-ReAl-Ip: 203.0.113.9',
      'X-Real-IP:',
      'Forwarded: for=203.0.113.9;proto=https',
      'FORWARDED: for="[::1]"',
      'forwarded:',
    ]) {
      const answer = await post(header);
      expect(answer.status, header).toBe(403);
      expect(answer.text, header).toContain('came through a proxy');
    }
    expect(await server.sessions.get('c1', { owner: LOCAL_USER })).toBeNull();
    const served = await post('');
    expect(served.status).toBe(200);
    expect(served.text).toContain('"type":"finish"');
    expect(await server.sessions.get('c1', { owner: LOCAL_USER })).toMatchObject({ owner: LOCAL_USER });
  });

  it('with authorize, proxy headers are the app’s business: the request is served', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}${apiPath('chat')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice', 'x-forwarded-for': '203.0.113.9' },
      body: chatBody('c1'),
    });
    expect(response.status).toBe(200);
    await response.text();
  });
});
