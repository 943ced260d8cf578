/**
 * Worker processes for the crash tests: each runs `fixtures/turn-worker.tsx` (with tsx) on a real
 * engine and store, and reports on stdout. The tests wait on what they report and on the files
 * their model and tool write, never on a clock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerConfig } from './fixtures/turn-worker.js';

const WORKER = fileURLToPath(new URL('./fixtures/turn-worker.tsx', import.meta.url));

/** A worker process and what it said. */
export interface Worker {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line that starts with `prefix` (rejects if the process exits first). */
  line(prefix: string): Promise<string>;
  exit: Promise<number | null>;
  /** Ends it the polite way (its stdin closes: it closes its sessions and engine). */
  end(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts a worker with `config`. */
export function startWorker(config: WorkerConfig, nodeBinary = process.execPath): Worker {
  const child = spawn(nodeBinary, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const lines: string[] = [];
  let buffer = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  let exited = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
    for (const w of [...waiters]) w();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exited = true;
      for (const w of [...waiters]) w();
      resolve(code);
    }),
  );
  return {
    child,
    lines,
    exit,
    line(prefix) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((l) => l.startsWith(prefix));
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          } else if (exited) {
            waiters.delete(check);
            reject(
              new Error(`The worker exited before saying "${prefix}". Its output:\n${lines.join('\n')}\n${stderr}`),
            );
          }
        };
        waiters.add(check);
        check();
      });
    },
    async end() {
      if (exited) return;
      child.stdin!.end();
      await exit;
    },
    async kill() {
      if (exited) return;
      child.kill('SIGKILL');
      await exit;
    },
  };
}

/** Waits for `file` to appear, failing with the worker's own words when it ends its turn (or exits) first. */
export async function hangs(worker: Worker, file: string): Promise<void> {
  const ended = worker.line('turn ').then((line) => {
    throw new Error(`The worker ended its turn instead of hanging: ${line}\n${worker.lines.join('\n')}`);
  });
  ended.catch(() => {});
  await Promise.race([fileAppears(file), ended]);
}

/** A fresh folder for one test's model log, tool attempts and side effects. */
export function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'skilltree-durable-'));
}

/** Resolves once `file` exists (watching its folder, not polling on a timer). */
export function fileAppears(file: string): Promise<void> {
  const folder = join(file, '..');
  return new Promise((resolve) => {
    const watcher = watch(folder, () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

/** The lines of a log file in `dir` (none when it was never written). */
export function logLines(dir: string, name: string): string[] {
  const file = join(dir, name);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}
