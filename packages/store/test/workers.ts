/**
 * What the multi-process tests share: worker processes that report on stdout, and the backends they
 * run on (real PostgreSQL and Redis servers, and one SQLite file), each with a prefix of its own.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@skilltree/core';
import { postgresStore } from '@skilltree/store/postgres';
import { redisStore } from '@skilltree/store/redis';
import { sqliteStore } from '@skilltree/store/sqlite';
import { runScript } from './script.js';
import { runPrefix, server } from './servers.js';

/** A worker process: the lines it printed, when it is ready, its exit, and a wait on its accepted sends. */
export interface Worker {
  child: ChildProcess;
  lines: string[];
  ready: Promise<void>;
  exit: Promise<number | null>;
  /** Resolves once `count` of its sends were accepted (or it exited). */
  accepted(count: number): Promise<void>;
}

/** Sends a worker reported as accepted (its `ok …` lines). */
export const accepted = (lines: string[]) => lines.filter((l) => l.startsWith('ok ')).length;

/**
 * Starts the worker script `file` (run with tsx, from the package folder) with `args`. It says `ready`
 * on a line once it waits for its signal on stdin; every other line it prints is kept in `lines`, and
 * its stderr becomes a `stderr …` line if it exits with a failure code.
 */
export function startWorker(file: string, args: string[]): Worker {
  const lines: string[] = [];
  let exited = false;
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const waiters = new Set<() => boolean>();
  const check = () => {
    for (const waiter of waiters) if (waiter()) waiters.delete(waiter);
  };
  const script = runScript(file, args, (line) => {
    if (line === 'ready') onReady();
    else lines.push(line);
    check();
  });
  const exit = script.exit.then((code) => {
    if (code !== 0 && code !== null) lines.push(`stderr ${script.stderr()}`);
    exited = true;
    onReady();
    check();
    return code;
  });
  const acceptedCount = (count: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        if (!exited && accepted(lines) < count) return false;
        resolve();
        return true;
      };
      if (!done()) waiters.add(done);
    });
  return { child: script.child, lines, ready, exit, accepted: acceptedCount };
}

/** One backend: its name, and a setup that gives the URL (or file), the prefix, and a way to open the store. */
export type Backend = [string, () => { url: string; prefix: string; open: () => SessionStore }];

/** The three backends, with tables, keys and files named after `kind` (`mp`, `budget`). */
export function backendsFor(kind: string): Backend[] {
  return [
    [
      'postgres',
      () => {
        const url = server('SKILLTREE_TEST_POSTGRES_URL');
        const prefix = runPrefix(kind);
        return { url, prefix, open: () => postgresStore({ connectionString: url, prefix }) };
      },
    ],
    [
      'redis',
      () => {
        const url = server('SKILLTREE_TEST_REDIS_URL');
        const prefix = `${runPrefix(kind)}:`;
        return { url, prefix, open: () => redisStore({ url, prefix }) };
      },
    ],
    [
      'sqlite',
      () => {
        const url = join(mkdtempSync(join(tmpdir(), `skilltree-${kind}-`)), 'sessions.db');
        return { url, prefix: `${kind}_`, open: () => sqliteStore({ path: url, prefix: `${kind}_` }) };
      },
    ],
  ];
}
