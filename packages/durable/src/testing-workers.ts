/**
 * Worker processes for the crash tests: each runs `fixtures/turn-worker.tsx` (with tsx) on a real
 * engine and store, and reports on stdout. The tests wait on what they report and on the files
 * their model and tool write, never on a clock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the conformance suite asks of a worker process (passed as its one JSON argument). The worker
 * (yours: it builds your engine) runs an agent with one tool, `charge`, and a model that calls it
 * and then answers; see `test/fixtures/turn-worker.tsx` of this package for the reference worker.
 */
export interface WorkerConfig {
  /** The engine's name, as the suite was given it (a worker serving several engines picks by it). */
  engine: string;
  /** Your engine's options for this process (from the suite's `engineOptions`). */
  engineOptions: Record<string, unknown>;
  /** The PostgreSQL URL of the session store. */
  storeUrl: string;
  /**
   * Where the worker logs its model requests (`model.log`), tool attempts (`attempts.log`, each with
   * its idempotency key, which starts with the chat id) and side effects (`effects/<key>`). Turns of
   * chats other than `chat` and `also` that the engine recovers here (an earlier case left them)
   * log their model requests to `model-others.log`, have no side effect and never hang.
   */
  dir: string;
  leaseTtl: number;
  /**
   * `send`: send to `chat`; `approve`: approve call `pay-1` of `chat`; `deny`: deny it (`text` is the
   * reason); `serve`: only recover turns of others; `race`: run one turn (id `race-<chat>`, sending
   * `text`) twice at once through the engine itself, past the sessions and their lease, and say
   * `turn <json>` for each call.
   */
  role: 'send' | 'serve' | 'approve' | 'deny' | 'race';
  chat: string;
  owner: string;
  /** The message `send` sends, or the reason `deny` gives. */
  text?: string;
  /**
   * Where the worker hangs (writing `dir/hang` first): in the tool (after its side effect), in the
   * second model call, at the step that signals the waiting turn it answered (after its last
   * commit), or nowhere.
   */
  hang?: 'tool' | 'model' | 'signal' | 'none';
  /** The agent as deployed: `v1`; `v2-compatible` (another tool body, the same prompt); `v2-changed` (another prompt). */
  agent?: 'v1' | 'v2-compatible' | 'v2-changed';
  /** The tool needs approval. */
  approval?: boolean;
  /**
   * The parent delegates the charge to subagent `billing` (`<Subagent>`, whose own model calls
   * `charge` then answers): once (call `bill-1`), or twice in one step (`bill-1`, `bill-2`; the
   * second run charges twice).
   * `hang: 'tool'` then hangs in the last run's last `charge` (`pay-1` of one run, `pay-2` of two).
   */
  subagents?: 1 | 2;
  /** Serves the chat routes of `@skilltree/server` on a free loopback port and says `http <base URL>` (users by `x-user`). */
  http?: boolean;
  /**
   * Traces: each span's start and end as a JSON line in `dir/spans.log` (`pid`, `event`, `name`,
   * ids, `parentSpanId`, `links`, `attributes`); its own turn is sent under a `request` span.
   */
  telemetry?: boolean;
  /** The `timeout` of `sessions.close()` when the worker is ended politely (default: the sessions' own). */
  closeTimeout?: number;
  /** With `send`: a second chat the worker sends the same message to at the same time (it says `also <json>` when that turn ends). */
  also?: string;
  /**
   * One of the worker's chats whose turn stalls, as on a starved machine: its lease is never renewed
   * and its tool hangs (writing `dir/hang`). The tool of any other chat of the worker then waits
   * for the file `dir/release` before it returns (writing `dir/held` first).
   */
  stall?: string;
  /**
   * A turn of another process that this one's engine moves here waits before its run begins
   * (saying `claimed <turn id>`, then waiting for the file `dir/go`), as on a machine
   * too busy to start it at once. Every worker says `look <turn id> <n> <true|false>` for its
   * engine's n-th look at whether that turn is abandoned (`DurableRegistration.abandoned`).
   */
  slowStart?: boolean;
}

/** One line of a worker's `spans.log` (see {@link WorkerConfig.telemetry}): a span's start, or its end with its parent, links and attributes. */
export interface SpanLine {
  pid: number;
  event: 'start' | 'end';
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  links?: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  attributes?: Record<string, unknown>;
}

/** A worker process and what it said. */
export interface Worker {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line that starts with `prefix` (rejects if the process exits first). */
  line(prefix: string): Promise<string>;
  /** Resolves with the first line that passes `test` (rejects if the process exits first). */
  match(test: (line: string) => boolean, what: string): Promise<string>;
  exit: Promise<number | null>;
  /** Ends it the polite way (its stdin closes: it closes its sessions and engine). */
  end(): Promise<void>;
  kill(): Promise<void>;
}

/**
 * Starts worker script `file` with `config` (with tsx, so a worker may be TypeScript), in `cwd`,
 * on `nodeBinary` (default: this Node).
 */
export function startWorker(
  file: string,
  config: WorkerConfig,
  options: { cwd?: string; nodeBinary?: string } = {},
): Worker {
  const child = spawn(options.nodeBinary ?? process.execPath, ['--import', 'tsx', file, JSON.stringify(config)], {
    cwd: options.cwd ?? process.cwd(),
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
    if (process.env.SKILLTREE_DEBUG_WORKERS) for (const p of parts) process.stderr.write(`[${config.role}>] ${p}\n`);
    for (const w of [...waiters]) w();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (process.env.SKILLTREE_DEBUG_WORKERS) process.stderr.write(`[${config.role}] ${chunk}`);
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
      return this.match((l) => l.startsWith(prefix), prefix);
    },
    match(test, what) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(test);
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          } else if (exited) {
            waiters.delete(check);
            reject(new Error(`The worker exited before saying "${what}". Its output:\n${lines.join('\n')}\n${stderr}`));
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
