/**
 * Helpers shared by the dev-server tests and the playground's end-to-end test: a temp copy of
 * the fixture agent (so tests can edit it), a dev server in a child process, and an SSE reader.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyFixture, type FixtureCopy, type ListeningProcess, startListening } from '@skilltree/test-kit';
import { tracked } from './helpers/children.js';

const here = dirname(fileURLToPath(import.meta.url));
export const cliDir = join(here, '..');

/** A temp copy of test/dev-fixtures/notes-agent whose node_modules links to the CLI's. */
export function fixtureCopy(): FixtureCopy {
  return copyFixture(join(here, 'dev-fixtures', 'notes-agent'), {
    nodeModules: join(cliDir, 'node_modules'),
    entry: 'agent.tsx',
    prefix: 'skilltree-dev-test-',
  });
}

/** A dev server in a child process; `output()` is everything it wrote to stderr (its terminal output). */
export type ServerProcess = ListeningProcess;

/**
 * Runs test/dev-fixtures/serve.ts in a child process; resolves with the URL it listens on, or
 * rejects when it fails or exits first (no clock: the test's or hook's timeout is the bound).
 */
export function startServerProcess(module: string, port = 0): Promise<ServerProcess> {
  return startListening({
    name: 'The dev server',
    args: ['--import', 'tsx', join(here, 'dev-fixtures', 'serve.ts'), module, String(port)],
    cwd: dirname(module),
    env: { ...process.env, NODE_ENV: 'development' },
    onSpawn: tracked,
    readUrl: (stdout) => {
      // serve.ts prints one JSON line: `{ url }` or `{ error }`.
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line || !stdout.includes('\n')) return undefined;
      const parsed = JSON.parse(line) as { url?: string; error?: string };
      return parsed.url ?? new Error(parsed.error ?? stdout);
    },
  });
}

export interface SseReader {
  events: { event: string; data: any }[];
  /** Resolves with the first event (already received or future) that matches; the test's timeout bounds the wait. */
  waitFor(match: (e: { event: string; data: any }) => boolean): Promise<{ event: string; data: any }>;
  close(): void;
}

/** Reads the server-sent events of `url` with fetch. */
export async function readSse(url: string): Promise<SseReader> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  if (!res.ok || !res.body) throw new Error(`SSE ${url}: ${res.status}`);
  const events: { event: string; data: any }[] = [];
  const waiters: { match: (e: { event: string; data: any }) => boolean; resolve: (e: any) => void }[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let index = buffer.indexOf('\n\n');
        while (index !== -1) {
          const frame = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          let event = 'message';
          let data = '';
          for (const line of frame.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) {
            const entry = { event, data: JSON.parse(data) };
            events.push(entry);
            for (const waiter of [...waiters]) {
              if (waiter.match(entry)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(entry);
              }
            }
          }
          index = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    events,
    waitFor(match) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => controller.abort(),
  };
}
