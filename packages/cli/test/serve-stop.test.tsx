/**
 * stopServing: a serving process stops without losing anything. The running turn is stopped, its
 * call in flight committed as interrupted and its lease given back before the store closes; the
 * client's stream ends; idle keep-alive connections do not hold the stop.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, Agent as HttpAgent, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessions, type Sessions, textOf } from '@skilltree/core';
import { createHandler, LOCAL_USER, toNodeListener } from '@skilltree/server';
import { sqliteStore } from '@skilltree/store/sqlite';
import { describe, expect, it } from 'vitest';
import { stopServing } from '../src/commands/serve/stop.js';
import HoldAgent, { holdModel, holds } from './fixtures/serve-hold-agent.js';

async function serving(path: string): Promise<{ server: Server; sessions: Sessions; url: string }> {
  const sessions = createSessions(<HoldAgent />, { store: sqliteStore({ path }), model: holdModel() });
  const server = createServer(toNodeListener(createHandler({ sessions, log: false })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, sessions, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('stopServing', () => {
  it('stops a running turn, and resolves once its interrupted call is committed and the chat is free', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'skilltree-stop-')), 'sessions.db');
    const { server, sessions, url } = await serving(path);
    const before = holds.started;
    const response = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c1', message: { role: 'user', parts: [{ type: 'text', text: 'hold' }] } }),
    });
    const body = response.text();
    while (holds.started === before) await new Promise((resolve) => setTimeout(resolve, 5));
    await stopServing(server, sessions);
    expect(server.listening).toBe(false);
    // The client's stream ended with the tool's error and the turn's end.
    const sse = await body;
    expect(sse).toContain('"type":"tool-output-error","toolCallId":"h1"');
    expect(sse).toContain('"type":"error"');

    // Another process on the same file: the interrupted call is there, and the chat takes a turn at once.
    const next = createSessions(<HoldAgent />, { store: sqliteStore({ path }), model: holdModel(), onBusy: 'reject' });
    const messages = await next.messages('c1', { owner: LOCAL_USER, limit: 100 });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(messages.at(-1)).toMatchObject({ role: 'tool', name: 'hold', isError: true, errorKind: 'interrupted' });
    expect(textOf(messages.at(-1)!)).toMatch(/^Tool "hold" failed: Interrupted/);
    expect((await next.send('c1', 'hello', { owner: LOCAL_USER })).text).toBe('echo: hello');
    await next.close();
  });

  it('an idle keep-alive connection does not hold the stop', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'skilltree-stop-')), 'sessions.db');
    const { server, sessions, url } = await serving(path);
    const agent = new HttpAgent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      httpRequest(`${url}/api/chat/none`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      })
        .on('error', reject)
        .end();
    });
    // Resolves when everything is closed, which the open socket would otherwise hold back for its keep-alive time.
    await stopServing(server, sessions);
    expect(server.listening).toBe(false);
    agent.destroy();
  });
});
