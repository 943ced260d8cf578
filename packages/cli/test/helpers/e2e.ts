/**
 * What the chat and run end-to-end suites share: the fixture agent, a shopping conversation, and a
 * local OpenAI-compatible server that is closed after each test.
 */
import { afterEach, expect } from 'vitest';
import { type OpenAIServer, type ServerStep, startOpenAIServer } from './openai-server.js';
import { runCli } from './run-cli.js';

export const AGENT = 'test/fixtures/shop-agent.tsx';

/** Read the shopping skill, search, add to the cart, reply. */
export const shoppingSteps: ServerStep[] = [
  { toolCalls: [{ name: 'read_skill', arguments: { name: 'shopping' } }] },
  { toolCalls: [{ name: 'search', arguments: { q: 'lamp' } }] },
  { toolCalls: [{ name: 'add_to_cart', arguments: { sku: 'lamp-1' } }] },
  { text: 'I added lamp-1 to your cart.' },
];

/**
 * What openai() prints once when the server has no `/responses` (the test server has only Chat
 * Completions, like most local servers): it switched to Chat Completions for `model`.
 */
export function chatCompletionsLine(env: Record<string, string>, model: string): string {
  return `openai: ${env.OPENAI_BASE_URL} has no /responses (HTTP 404): using Chat Completions for ${model} from now on. Pass { api: 'chat' } to openai() to choose it and skip the first request.\n`;
}

/** A local OpenAI-compatible server per test: `start(steps)` returns the env pointing the CLI at it. */
export interface ServerPerTest {
  start(steps: ServerStep[]): Promise<Record<string, string>>;
  /** The server the current test started (throws when none was). */
  readonly server: OpenAIServer;
}

/** Registers an `afterEach` that closes the server, and returns the handle to start one. */
export function openAIServerPerTest(): ServerPerTest {
  let current: OpenAIServer | null = null;
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  return {
    async start(steps) {
      current = await startOpenAIServer(steps);
      return { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: current.baseURL };
    },
    get server() {
      if (!current) throw new Error('No server: call start(steps) first.');
      return current;
    },
  };
}

/**
 * The second `run` of a cart session the shopping conversation saved: it checks out (`Paid.`), and
 * its JSON shows the whole resumed transcript (12 messages, the first turn's user message first).
 * Returns that JSON.
 */
export async function runCheckout(server: OpenAIServer, session: string, store: string, env: Record<string, string>) {
  server.steps.push({ toolCalls: [{ name: 'checkout', arguments: {} }] }, { text: 'Paid.' });
  const second = await runCli(['run', AGENT, '-m', 'check out', '--session', session, '--store', store, '--json'], {
    env,
  });
  expect(second.code).toBe(0);
  const out = JSON.parse(second.stdout);
  expect(out.reply).toBe('Paid.');
  expect(out.transcript).toHaveLength(12);
  expect(out.transcript[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'I want a lamp' }] });
  return out;
}
