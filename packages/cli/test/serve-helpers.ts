/**
 * Runs `skilltree serve` (the real binary) in a child process and reads the URL it prints.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendChatTurn } from '@skilltree/test-kit';
import { afterEach, expect } from 'vitest';
import { HOLD_STARTED } from './fixtures/serve-hold-agent.js';
import { tracked } from './helpers/children.js';
import { CLI_DIR, cliEnv } from './helpers/run-cli.js';

/** A running `skilltree serve`. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr holds `text` `times` times (default once): waits on the output, not on a clock. */
  waitForStderr(text: string, times?: number): Promise<void>;
  /**
   * Sends `signal` (default SIGINT) and resolves with the exit code once its output is closed: once
   * the process and every worker it forked (they share its stdout and stderr) have exited.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How often `text` occurs in `haystack`. */
function occurrences(haystack: string, text: string): number {
  let count = 0;
  for (let at = haystack.indexOf(text); at !== -1; at = haystack.indexOf(text, at + text.length)) count++;
  return count;
}

/** Every serve started since the last test ended (see {@link stopServesAfterEach}). */
const started = new Set<ServeProcess>();

/**
 * Stops, after each test of the file that calls it (once, at its top), every `skilltree serve` the
 * test started and left running: stopping one that has exited already only reads its exit code.
 */
export function stopServesAfterEach(): void {
  afterEach(async () => {
    const serves = [...started];
    started.clear();
    await Promise.all(serves.map((serve) => serve.stop()));
  });
}

/**
 * Starts `skilltree serve ...args` (with `extraEnv`) and resolves once it prints its URL, or rejects
 * when it exits first. No clock: however long a busy machine takes, the test's timeout is the bound.
 */
export function startServe(args: string[], extraEnv: Record<string, string | null> = {}): Promise<ServeProcess> {
  const child = tracked(
    spawn(process.execPath, [join(CLI_DIR, 'bin', 'skilltree.js'), 'serve', ...args], {
      cwd: CLI_DIR,
      env: cliEnv(extraEnv),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => boolean>();
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
    for (const waiter of waiters) if (waiter()) waiters.delete(waiter);
  });
  const waitForStderr = (text: string, times = 1) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (occurrences(stderr, text) < times) return false;
        resolve();
        return true;
      };
      if (!check()) waiters.add(check);
    });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  // Serve bounds its own stop (it exits by itself once its drain's deadline passes).
  const stop = async (signal: NodeJS.Signals = 'SIGINT') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
      const match = /skilltree serve: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (!match) return;
      const serve = { url: match[1], child, stdout: () => stdout, stderr: () => stderr, waitForStderr, stop };
      started.add(serve);
      resolve(serve);
    });
    child.once('close', (code) => {
      reject(new Error(`skilltree serve exited with ${code}.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

/** Sends `text` to chat `chatId` as the AI SDK's useChat does, and resolves with the streamed reply. */
export function chat(url: string, chatId: string, text: string, headers: Record<string, string> = {}) {
  return sendChatTurn({ api: `${url}/api/chat`, chatId, text, headers });
}

/**
 * The URL of a real PostgreSQL or Redis server for the tests: `.ci/with-services` starts throwaway
 * ones and sets the variable. Without it, an error that says how to run the tests.
 */
export function testServer(name: 'SKILLTREE_TEST_POSTGRES_URL' | 'SKILLTREE_TEST_REDIS_URL'): string {
  const url = process.env[name];
  if (!url) {
    throw new Error(
      `${name} is not set. Run the tests through .ci/with-services (it starts throwaway servers and sets it): ` +
        'bash .ci/with-services pnpm --filter @skilltree/cli test.',
    );
  }
  return url;
}

/**
 * The command line of `skilltree serve` for the agent that holds the line until its turn is stopped
 * (`test/fixtures/serve-hold-agent.tsx`): a free port, the demo model, `store` when given, then `extra`.
 */
export function holdServeArgs(store?: string, ...extra: string[]): string[] {
  const args = ['test/fixtures/serve-hold-agent.tsx', '--port', '0', '--model', 'demo'];
  if (store) args.push('--store', store);
  return [...args, ...extra];
}

/** The stores a serve test runs on: a new SQLite file (its folder named from `prefix`), or a real server. */
export function testStores(prefix: string) {
  return {
    sqlite: () => `sqlite:${join(mkdtempSync(join(tmpdir(), prefix)), 'sessions.db')}`,
    postgres: () => testServer('SKILLTREE_TEST_POSTGRES_URL'),
    redis: () => testServer('SKILLTREE_TEST_REDIS_URL'),
  };
}

/** A chat id no other test run uses, starting with `label`. */
export const chatId = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** POSTs one user message to chat `id`, as useChat does, and resolves with the response, its stream unread. */
export function postChat(url: string, id: string, text: string): Promise<Response> {
  return fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, message: { role: 'user', parts: [{ type: 'text', text }] } }),
  });
}

/**
 * Sends "hold" to chat `id` on a serve of the hold agent (see {@link holdServeArgs}) and resolves
 * once its `hold` call runs (read on the serve's stderr, not on a clock). The turn's stream comes
 * in an object, so that awaiting this does not await it: it ends only when the turn is stopped.
 */
export async function startHeldTurn(serve: ServeProcess, id: string): Promise<{ stream: Promise<string> }> {
  const response = await postChat(serve.url, id, 'hold');
  expect(response.status).toBe(200);
  const stream = response.text();
  await serve.waitForStderr(HOLD_STARTED);
  return { stream };
}

/** Sends "hello" to chat `id` on a serve of the hold agent: nothing holds it, the turn echoes it. */
export async function expectHelloEchoed(url: string, id: string): Promise<void> {
  const next = await postChat(url, id, 'hello');
  expect(next.status).toBe(200);
  expect(await next.text()).toContain('"delta":"echo: hello"');
}
