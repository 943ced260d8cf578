/**
 * `skilltree serve`: the real binary serves the agent module to the AI SDK's own client
 * (DefaultChatTransport + readUIMessageStream), restores chats, keeps users apart, and stops on Ctrl+C.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { chat, type ServeProcess, startServe, stopServesAfterEach } from './serve-helpers.js';

let serve: ServeProcess | undefined;
stopServesAfterEach();

describe('skilltree serve', () => {
  it('serves the agent module to useChat: a streamed reply with tool parts and the skill load, restored by GET', async () => {
    serve = await startServe(['test/fixtures/shop-agent.tsx', '--port', '0', '--model', 'demo']);
    expect(serve.stdout()).toContain(
      'model demo · store memory (this process only) · 1 worker · loopback clients only',
    );
    const reply = await chat(serve.url, 'c1', 'I want a lamp');
    expect(reply.parts.at(-1)).toMatchObject({ type: 'text', text: 'Added lamp-1. (1 search)' });
    expect(reply.parts).toContainEqual({ type: 'data-skill-loaded', data: { name: 'shopping' } });
    expect(reply.parts.filter((p) => p.type === 'dynamic-tool').map((p) => p.toolName)).toEqual([
      'read_skill',
      'search',
      'add_to_cart',
    ]);
    const history = await fetch(`${serve.url}/api/chat/c1`);
    const restored = (await history.json()) as UIMessage[];
    expect(restored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(JSON.parse(JSON.stringify(restored[1].parts))).toEqual(JSON.parse(JSON.stringify(reply.parts)));
    const view = await (await fetch(`${serve.url}/api/sessions/c1`)).json();
    expect(view).toMatchObject({ loadedSkills: ['shopping'], stores: { cart: { items: ['lamp-1'] } } });
    expect(serve.stderr()).toContain('no authorize option, so only loopback clients');
    expect(await serve.stop()).toBe(0);
    serve = undefined;
  });

  it('without authorize it refuses requests that came through a proxy, and says so when it starts', async () => {
    serve = await startServe(['test/fixtures/shop-agent.tsx', '--port', '0', '--model', 'demo']);
    expect(serve.stdout()).toContain('loopback clients only, none through a proxy');
    expect(serve.stderr()).toContain('requests that came through a proxy (Forwarded, X-Forwarded-For, X-Real-IP');
    for (const header of ['X-Forwarded-For', 'x-real-ip', 'FORWARDED']) {
      const response = await fetch(`${serve.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [header]: '' },
        body: JSON.stringify({ id: 'c1', message: { role: 'user', parts: [{ type: 'text', text: 'I want a lamp' }] } }),
      });
      expect(response.status, header).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('Pass authorize');
    }
    expect((await fetch(`${serve.url}/api/chat/c1`)).status).toBe(404);
  });

  it('without a key every chat plays its own copy of the demo: a second chat gets the first exchange too', async () => {
    serve = await startServe(['test/fixtures/shop-agent.tsx', '--port', '0']);
    expect(serve.stdout()).toContain('model demo');
    for (const id of ['c1', 'c2', 'c3']) {
      const reply = await chat(serve.url, id, 'I want a lamp');
      expect(reply.parts.at(-1), id).toMatchObject({ type: 'text', text: 'Added lamp-1. (1 search)' });
      expect(reply.parts.filter((p) => p.type === 'dynamic-tool').map((p) => p.toolName)).toEqual([
        'read_skill',
        'search',
        'add_to_cart',
      ]);
    }
    // Each chat goes on with its own second exchange.
    const second = await chat(serve.url, 'c2', 'Refund order 7');
    expect(second.parts.at(-1)).toMatchObject({ type: 'text', text: 'Refunded order 7.' });
  });

  it('serves the built-in chat page at / with a strict Content-Security-Policy', async () => {
    serve = await startServe(['test/fixtures/shop-agent.tsx', '--port', '0', '--model', 'demo']);
    const page = await fetch(serve.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'sha256-/);
    const html = await page.text();
    expect(html).toContain('<title>shop-agent.tsx · skilltree</title>');
    expect(html).toContain('data-api="/api"');
  });

  it("uses the module's authorize export (from its one evaluation): users are kept apart (404), and no user is 401", async () => {
    const evaluations = join(mkdtempSync(join(tmpdir(), 'skilltree-serve-')), 'evaluations.log');
    serve = await startServe(['test/fixtures/serve-auth-agent.tsx', '--port', '0', '--model', 'demo'], {
      SKILLTREE_TEST_EVALUATIONS: evaluations,
    });
    // One evaluation of the module: authorize comes from the same exports as the agent.
    expect(readFileSync(evaluations, 'utf8')).toBe('evaluated\n');
    expect(serve.stdout()).toContain('users from the module\'s "authorize"');
    await chat(serve.url, 'c1', 'I want a lamp', { 'x-user': 'alice' });
    expect((await fetch(`${serve.url}/api/chat/c1`, { headers: { 'x-user': 'alice' } })).status).toBe(200);
    expect((await fetch(`${serve.url}/api/chat/c1`, { headers: { 'x-user': 'bob' } })).status).toBe(404);
    expect((await fetch(`${serve.url}/api/chat/c1`)).status).toBe(401);
  });

  it('--workers needs a store the processes share', async () => {
    const result = await runCli(['serve', 'test/fixtures/shop-agent.tsx', '--workers', '2', '--model', 'demo']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--workers 2 needs a store the processes share');
  });

  it('prints its help, and refuses bad flags with exit code 2', async () => {
    const help = await runCli(['help', 'serve']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: skilltree serve <module> [options]');
    const bad = await runCli(['serve', 'test/fixtures/shop-agent.tsx', '--store', 'mysql://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown store "mysql://x"');
    const noModule = await runCli(['serve']);
    expect(noModule.code).toBe(2);
    expect(noModule.stderr).toContain('Missing agent module');
  });
});
