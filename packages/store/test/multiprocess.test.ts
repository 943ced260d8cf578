/**
 * Four Node processes share one store, each sending to the same 50 sessions at random; one is
 * killed with SIGKILL mid-run. At the end every transcript is valid, every accepted send is in it
 * exactly once, each session's counter equals the `bump` calls that landed, and nothing is lost or
 * duplicated. On real PostgreSQL and Redis servers, and on one SQLite file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message, SessionStore } from '@skilltree/core';
import { postgresStore } from '@skilltree/store/postgres';
import { redisStore } from '@skilltree/store/redis';
import { sqliteStore } from '@skilltree/store/sqlite';
import { checkTranscript } from '@skilltree/store/testing';
import { describe, expect, test } from 'vitest';
import { runPrefix, server } from './servers.js';

const WORKER = fileURLToPath(new URL('./fixtures/worker.ts', import.meta.url));
const PROCESSES = 4;
const RUN_MS = 8_000;
const KILL_AFTER_MS = 3_000;

interface Worker {
  child: ChildProcess;
  lines: string[];
  ready: Promise<void>;
  exit: Promise<number | null>;
}

function startWorker(args: string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffer = '';
  let stderr = '';
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const line of parts) {
      if (line === 'ready') onReady();
      else lines.push(line);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) lines.push(`stderr ${stderr}`);
      onReady();
      resolve(code);
    }),
  );
  return { child, lines, ready, exit };
}

async function allMessages(store: SessionStore, id: string): Promise<Message[]> {
  const out: Message[] = [];
  for (;;) {
    const page = await store.messages(id, out.length, 1_000);
    out.push(...page);
    if (page.length < 1_000) return out;
  }
}

const backends: [string, () => { url: string; prefix: string; open: () => SessionStore }][] = [
  [
    'postgres',
    () => {
      const url = server('SKILLTREE_TEST_POSTGRES_URL');
      const prefix = runPrefix('mp');
      return { url, prefix, open: () => postgresStore({ connectionString: url, prefix }) };
    },
  ],
  [
    'redis',
    () => {
      const url = server('SKILLTREE_TEST_REDIS_URL');
      const prefix = `${runPrefix('mp')}:`;
      return { url, prefix, open: () => redisStore({ url, prefix }) };
    },
  ],
  [
    'sqlite',
    () => {
      const url = join(mkdtempSync(join(tmpdir(), 'skilltree-mp-')), 'sessions.db');
      return { url, prefix: 'mp_', open: () => sqliteStore({ path: url, prefix: 'mp_' }) };
    },
  ],
];

describe.each(backends)('four processes on one %s store, one killed mid-run', (backend, setup) => {
  test('every transcript is valid, every accepted send is in it exactly once, counters equal the bump calls', async () => {
    const { url, prefix, open } = setup();
    // Create the schema first, so the processes start sending at once.
    const store = open();
    await store.record('warm-up');
    const ids = Array.from({ length: 50 }, (_, i) => `${prefix}s${i}`);
    const workers = Array.from({ length: PROCESSES }, (_, p) =>
      startWorker([backend, url, prefix, String(RUN_MS), `p${p}`, ids.join(',')]),
    );
    await Promise.all(workers.map((w) => w.ready));
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
    const victim = workers[0];
    victim.child.kill('SIGKILL');
    const codes = await Promise.all(workers.map((w) => w.exit));
    expect(
      codes.slice(1),
      workers.map((w) => w.lines.filter((l) => l.startsWith('stderr')).join('\n')).join(''),
    ).toEqual(Array(PROCESSES - 1).fill(0));

    const accepted = new Map<string, string>();
    const errors: string[] = [];
    for (const [p, worker] of workers.entries()) {
      for (const line of worker.lines) {
        const [kind, id, text, rest] = line.split(' ');
        if (kind === 'ok') {
          expect(rest, line).toBe('reply');
          accepted.set(text, id);
        } else if (kind === 'err') errors.push(`${p}: ${line}`);
      }
    }
    // The survivors never failed a send; the victim accepted some before it died.
    expect(errors).toEqual([]);
    expect(workers[0].lines.filter((l) => l.startsWith('ok')).length).toBeGreaterThan(0);
    for (const worker of workers.slice(1)) expect(worker.lines.at(-1)).toBe('done');
    expect(accepted.size).toBeGreaterThan(PROCESSES * 20);

    const found = new Map<string, string>();
    let bumps = 0;
    let interrupted = 0;
    for (const id of ids) {
      const messages = await allMessages(store, id);
      const record = await store.record(id);
      if (!record) continue;
      expect(record.length).toBe(messages.length);
      expect(checkTranscript(messages), id).toEqual([]);
      let current = '';
      for (const m of messages) {
        if (m.role === 'user') {
          expect(found.has(m.content), `${m.content} appears twice`).toBe(false);
          found.set(m.content, id);
          current = m.content;
        } else if (m.role === 'assistant' && !m.toolCalls) {
          expect(m.content).toBe(`done: ${current}`);
        }
      }
      const landed = messages.filter((m) => m.role === 'tool' && m.name === 'bump' && !m.isError).length;
      interrupted += messages.filter((m) => m.role === 'tool' && m.isError && /^Interrupted/.test(m.content)).length;
      bumps += landed;
      expect(record.state.stores, id).toEqual(landed === 0 ? {} : { tally: { count: landed } });
    }
    for (const [text, id] of accepted) expect(found.get(text), `accepted send ${text}`).toBe(id);
    // Every send that made it into a transcript was accepted, except the victim's last ones.
    const unaccepted = [...found.keys()].filter((text) => !accepted.has(text));
    expect(unaccepted.every((text) => text.startsWith('p0-'))).toBe(true);
    expect(unaccepted.length).toBeLessThanOrEqual(4);
    expect(bumps).toBeGreaterThanOrEqual(accepted.size);
    expect(interrupted).toBeLessThanOrEqual(4);
    console.log(
      `${backend}: ${accepted.size} accepted sends over ${ids.length} sessions, ${bumps} bumps landed, ` +
        `${unaccepted.length} sends of the killed process in flight, ${interrupted} calls answered as interrupted`,
    );
    await store.close();
  }, 90_000);
});
