/**
 * Stopping `skilltree serve` loses nothing: on SIGTERM (or Ctrl+C) each serving process stops
 * accepting connections, aborts its running turns and waits for their commits and lease releases,
 * closes the store, and exits; an idle one exits at once. Against real SQLite, PostgreSQL and Redis.
 */
import { mkdtempSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessions, type Message } from '@skilltree/core';
import { LOCAL_USER } from '@skilltree/server';
import { openStore } from '@skilltree/store';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import HoldAgent, { HOLD_STARTED, holdModel } from './fixtures/serve-hold-agent.js';
import { type ServeProcess, startServe, testServer } from './serve-helpers.js';

let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
});

/** The default lease of `createSessions`: a stop that left the lease would make the next turn wait this long. */
const LEASE_TTL = 30_000;

const stores = {
  sqlite: () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'skilltree-serve-stop-')), 'sessions.db')}`,
  postgres: () => testServer('SKILLTREE_TEST_POSTGRES_URL'),
  redis: () => testServer('SKILLTREE_TEST_REDIS_URL'),
};

function post(url: string, chatId: string, text: string): Promise<Response> {
  return fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: chatId, message: { role: 'user', parts: [{ type: 'text', text }] } }),
  });
}

async function until(check: () => boolean, what: string, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every tool call has exactly one result after it, before the next user message. */
function transcriptIsValid(messages: Message[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) open.add(call.id);
    if (m.role === 'tool' && !open.delete(m.toolCallId)) return false;
    if (m.role === 'user' && open.size > 0) return false;
  }
  return open.size === 0;
}

/** The process's exit, and how long it took after `signal`. */
async function stopTimed(process: ServeProcess, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  const code = await process.stop(signal);
  return { code, ms: performance.now() - started };
}

const cases = [
  { store: 'sqlite', workers: 1 },
  { store: 'sqlite', workers: 2 },
  { store: 'postgres', workers: 2 },
  { store: 'redis', workers: 2 },
] as const;

describe.each(cases)('SIGTERM mid-turn on $store with $workers worker(s)', ({ store, workers }) => {
  it('commits the call in flight as interrupted, leaves no lease, and the next message is answered at once', async () => {
    const spec = stores[store]();
    const chatId = `stop-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const args = ['test/fixtures/serve-hold-agent.tsx', '--port', '0', '--model', 'demo', '--store', spec];
    if (workers > 1) args.push('--workers', String(workers));
    serve = await startServe(args);
    const running = serve;
    const response = await post(running.url, chatId, 'hold');
    expect(response.status).toBe(200);
    const body = response.text();
    await until(() => running.stderr().includes(HOLD_STARTED), 'the hold tool to start');

    const stopped = await stopTimed(running, 'SIGTERM');
    serve = undefined;
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(LEASE_TTL / 3);
    expect(running.stderr()).not.toContain('did not stop');
    // The client's stream ends: the tool's error, then the turn's end.
    const sse = await body;
    expect(sse).toContain('"type":"tool-output-error","toolCallId":"h1"');
    expect(sse).toContain('"type":"error","errorText":"Interrupted: the sessions were closed');

    // Read back through another process's sessions on the same store (chats are kept by owner: "local").
    const sessions = createSessions(createElement(HoldAgent), {
      store: await openStore(spec),
      model: holdModel(),
      onBusy: 'reject',
    });
    try {
      const messages = await sessions.messages(chatId, { owner: LOCAL_USER, limit: 100 });
      expect(transcriptIsValid(messages)).toBe(true);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
      expect(messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'h1', name: 'hold', isError: true });
      // Stopped, not lost: the model reads that the call was interrupted.
      expect(messages.at(-1)?.content).toMatch(/^Tool "hold" failed: Interrupted/);
      expect((await sessions.get(chatId, { owner: LOCAL_USER }))?.transcriptLength).toBe(5);
      // No lease is left: with onBusy 'reject', a held lease would fail this turn at once.
      expect((await sessions.send(chatId, 'still there?', { owner: LOCAL_USER })).text).toBe('echo: still there?');
    } finally {
      await sessions.close();
    }

    serve = await startServe(args);
    const started = performance.now();
    const next = await post(serve.url, chatId, 'hello');
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('"delta":"echo: hello"');
    // Far below the lease's 30 s: nothing waited for a lease the stop left behind.
    expect(performance.now() - started).toBeLessThan(LEASE_TTL / 3);
  });
});

describe('an idle skilltree serve stops at once', () => {
  it('with --workers 2, and with a keep-alive connection open, it exits 0 without killing a worker', async () => {
    serve = await startServe([
      'test/fixtures/serve-hold-agent.tsx',
      '--port',
      '0',
      '--model',
      'demo',
      '--store',
      stores.sqlite(),
      '--workers',
      '2',
    ]);
    // A browser keeps its connection open after a request.
    const agent = new HttpAgent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${serve!.url}/`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const running = serve;
    serve = undefined;
    const stopped = await stopTimed(running, 'SIGTERM');
    agent.destroy();
    expect(stopped.code).toBe(0);
    expect(running.stderr()).not.toContain('did not stop');
    // Before, the workers outlived the primary's 10 s kill timer; an idle stop is well under that.
    expect(stopped.ms).toBeLessThan(5_000);
  });

  it('one process stops on Ctrl+C (SIGINT) as on SIGTERM', async () => {
    serve = await startServe(['test/fixtures/serve-hold-agent.tsx', '--port', '0', '--model', 'demo']);
    const running = serve;
    serve = undefined;
    const stopped = await stopTimed(running, 'SIGINT');
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(5_000);
  });
});
