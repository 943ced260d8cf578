/**
 * Who may use the server: the user `authorize` returns (each user's chats are their own, see
 * owners.test.tsx). Without `authorize`, loopback clients only, and the handler says so when it is
 * created.
 */
import { request as httpRequest } from 'node:http';
import { createSessions, memoryStore } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler, isLoopbackAddress, isLoopbackHost, LOCAL_USER } from '../src/index.js';
import { NotesAgent, ruleModel, startServer, type TestServer } from './helpers.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const chatBody = (id: string, text = 'hi') =>
  JSON.stringify({ id, messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text }] }] });

describe('a session belongs to the user who created it', () => {
  it('a request that authorize refuses gets 401, before its body is read', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'not even json',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await fetch(`${server.url}/api/chat/c1`)).status).toBe(401);
  });

  it('an authorize that throws answers 500 without details', async () => {
    server = await startServer({
      authorize: () => {
        throw new Error('auth backend down: secret-dsn');
      },
    });
    const response = await fetch(`${server.url}/api/chat/c1`);
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
  const post = (url = 'http://127.0.0.1:3000/api/chat', headers: Record<string, string> = {}) =>
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: chatBody('c1'),
    });

  it('says so when it is created', () => {
    const logs: string[] = [];
    make(logs);
    expect(logs).toEqual([expect.stringContaining('no authorize option, so only loopback clients')]);
  });

  it('serves a loopback client, as the user "local"', async () => {
    server = await startServer({ authorize: undefined });
    const response = await fetch(`${server.url}/api/chat`, {
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
    expect((await handler(post('http://attacker.example:3000/api/chat'), local)).status).toBe(403);
    expect((await handler(post(undefined, { origin: 'https://attacker.example' }), local)).status).toBe(403);
    expect((await handler(post(undefined, { origin: 'null' }), local)).status).toBe(403);
    const ok = await handler(post('http://localhost:3000/api/chat', { origin: 'http://localhost:5173' }), local);
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('a real server sees the Host header a rebinding page would send, and refuses it', async () => {
    server = await startServer({ authorize: undefined });
    const { port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/api/chat/c1', headers: { host: `rebind.attacker.example:${port}` } },
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
