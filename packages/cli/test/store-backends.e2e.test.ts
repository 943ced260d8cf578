/**
 * Every command takes every store backend: `--store postgres://…` and `redis://…` keep a `run`
 * session that the next `run` (and `chat`) resumes, and `serve` keeps its chats there. Run under
 * `.ci/with-services`, which starts throwaway servers and sets their URLs.
 */
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { AGENT, openAIServerPerTest, runCheckout, shoppingSteps } from './helpers/e2e.js';
import { runCli } from './helpers/run-cli.js';
import { chat, startServe, testServer } from './serve-helpers.js';

const local = openAIServerPerTest();

/** A session id no earlier run used, so runs on one server never see each other's sessions. */
const fresh = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

describe.each([
  ['postgres', 'SKILLTREE_TEST_POSTGRES_URL'],
  ['redis', 'SKILLTREE_TEST_REDIS_URL'],
] as const)('--store %s', (_kind, variable) => {
  it('run keeps the session there and the next run resumes transcript, loaded skills and stores', async () => {
    const store = testServer(variable);
    const id = fresh('cart');
    const env = await local.start(shoppingSteps);
    const first = await runCli(['run', AGENT, '-m', 'I want a lamp', '--session', id, '--store', store], { env });
    expect(first.stderr).not.toMatch(/error/i);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('I added lamp-1 to your cart.\n');

    const out = await runCheckout(local.server, id, store, env);
    expect(out.loadedSkills).toEqual(['shopping']);
    // The resumed request had the loaded skill's tools, including the store-driven checkout.
    expect(local.server.requests[4].tools.map((t: any) => t.function.name)).toContain('checkout');
  });

  it('chat resumes what run saved there, and says so', async () => {
    const store = testServer(variable);
    const id = fresh('chat');
    const env = await local.start([...shoppingSteps, { text: 'Anything else?' }]);
    expect((await runCli(['run', AGENT, '-m', 'I want a lamp', '--session', id, '--store', store], { env })).code).toBe(
      0,
    );
    const chat = await runCli(['chat', AGENT, '--session', id, '--store', store], { env, stdin: 'thanks\n' });
    expect(chat.code).toBe(0);
    expect(chat.stderr).toContain(`Resumed 8 messages from ${id} (loaded: shopping).`);
    expect(chat.stdout).toContain('agent › Anything else?');
  });
});

describe('serve on a shared store', () => {
  it('serves chats kept in redis with two workers, and names the store it uses', async () => {
    const store = testServer('SKILLTREE_TEST_REDIS_URL');
    const serve = await startServe([
      'test/fixtures/shop-agent.tsx',
      '--port',
      '0',
      '--model',
      'demo',
      '--store',
      store,
      '--workers',
      '2',
    ]);
    try {
      expect(serve.stdout()).toContain(`store redis:${store}`);
      expect(serve.stdout()).toContain('2 workers');
      const chatId = fresh('served');
      const last = await chat(serve.url, chatId, 'I want a lamp');
      expect(last?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Added lamp-1. (1 search)' });
      const restored = (await (await fetch(`${serve.url}/api/chat/${chatId}`)).json()) as UIMessage[];
      expect(restored.map((m) => m.role)).toEqual(['user', 'assistant']);
    } finally {
      await serve.stop();
    }
  });
});
