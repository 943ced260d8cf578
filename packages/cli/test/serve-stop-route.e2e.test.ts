/**
 * `POST /api/chat/:id/stop` reaches the turn wherever it runs: sent to another `skilltree serve`
 * process on the same store, or to `serve --workers 2` (whichever worker takes it), it stops the
 * running turn, whose stream ends as stopped; the chat goes on. Against real SQLite, PostgreSQL and
 * Redis. Every wait is on an event (output, a stream's end), never on a clock.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOLD_STARTED } from './fixtures/serve-hold-agent.js';
import { type ServeProcess, startServe, testServer } from './serve-helpers.js';

const running: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((serve) => serve.stop()));
});

const stores = {
  sqlite: () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'skilltree-serve-stop-route-')), 'sessions.db')}`,
  postgres: () => testServer('SKILLTREE_TEST_POSTGRES_URL'),
  redis: () => testServer('SKILLTREE_TEST_REDIS_URL'),
};

const chatId = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

async function serve(spec: string, extra: string[] = []): Promise<ServeProcess> {
  const process = await startServe([
    'test/fixtures/serve-hold-agent.tsx',
    '--port',
    '0',
    '--model',
    'demo',
    '--store',
    spec,
    ...extra,
  ]);
  running.push(process);
  return process;
}

function post(url: string, id: string, text: string): Promise<Response> {
  return fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, message: { role: 'user', parts: [{ type: 'text', text }] } }),
  });
}

/** A stop on a connection of its own: with `--workers`, the primary hands it to either worker. */
function stop(url: string, id: string): Promise<Response> {
  return fetch(`${url}/api/chat/${encodeURIComponent(id)}/stop`, { method: 'POST', headers: { connection: 'close' } });
}

/** The stopped turn's stream: the call in flight fails as interrupted, and the turn ends as stopped. */
function expectStopped(sse: string): void {
  expect(sse).toContain('"type":"tool-output-error","toolCallId":"h1"');
  expect(sse).toContain('Interrupted: the turn of chat');
  expect(sse).toContain('"type":"error","errorText":"The turn was stopped."');
}

describe.each(['sqlite', 'postgres', 'redis'] as const)('a stop on %s', (store) => {
  it('sent to another serve process on the same store, stops the turn where it runs; the chat goes on there', async () => {
    const spec = stores[store]();
    const [first, second] = await Promise.all([serve(spec), serve(spec)]);
    const id = chatId('cross');
    const response = await post(first.url, id, 'hold');
    expect(response.status).toBe(200);
    const body = response.text();
    await first.waitForStderr(HOLD_STARTED);
    expect((await stop(second.url, id)).status).toBe(202);
    expectStopped(await body);
    // Nothing runs now, on either process; the next message is answered by the one that stopped it.
    expect((await stop(first.url, id)).status).toBe(204);
    const next = await post(second.url, id, 'hello');
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('"delta":"echo: hello"');
  });
});

describe('a stop under serve --workers 2', () => {
  it('stops the turn whichever worker takes it', async () => {
    const primary = await serve(stores.sqlite(), ['--workers', '2']);
    const id = chatId('workers');
    const response = await post(primary.url, id, 'hold');
    expect(response.status).toBe(200);
    const body = response.text();
    await primary.waitForStderr(HOLD_STARTED);
    expect((await stop(primary.url, id)).status).toBe(202);
    expectStopped(await body);
    // Every later stop, on either worker, finds nothing running.
    for (let i = 0; i < 4; i++) expect((await stop(primary.url, id)).status).toBe(204);
  });
});
