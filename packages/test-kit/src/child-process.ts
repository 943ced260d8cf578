/**
 * A program under test in a child process of its own, started the way a user starts it: the
 * helpers wait for the URL it prints or for its exit, never for a clock, so a busy machine only
 * makes them slower and the test's own timeout is the one bound.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/** A running child that printed where it listens. */
export interface ListeningProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stderr so far (its terminal output). */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited 3 s later; resolves once it has exited. */
  stop(): Promise<void>;
}

/** How to start one: the program's arguments and a reader that finds the URL in what it printed. */
export interface ListeningOptions extends Pick<SpawnOptions, 'cwd' | 'env'> {
  /** `process.execPath`'s arguments. */
  args: string[];
  /**
   * Reads stdout so far: the URL once it is there, `undefined` while it is not, or an `Error` to
   * reject with (the program said it failed).
   */
  readUrl(stdout: string): string | Error | undefined;
  /** What the rejection calls the program, e.g. `skilltree dev`. */
  name: string;
  /** Called with the child as soon as it is spawned (to track it for the test process's exit). */
  onSpawn?(child: ChildProcess): void;
  /**
   * Gives up after this many ms (stops the child, rejects with what it printed). Leave it out to
   * let the test's own timeout be the bound.
   */
  giveUpAfterMs?: number;
}

/** Resolves once the child has exited (SIGTERM first, SIGKILL if it lingers). */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

/**
 * Starts `node ...args` and resolves once `readUrl` finds its URL in stdout; rejects when
 * `readUrl` returns an error or the child exits first, with what it printed.
 */
export function startListening(options: ListeningOptions): Promise<ListeningProcess> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    const timer =
      options.giveUpAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            void stop();
            reject(new Error(`${options.name} printed no URL in ${options.giveUpAfterMs} ms.\n${stdout}\n${stderr}`));
          }, options.giveUpAfterMs);
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const found = options.readUrl(stdout);
      if (found === undefined) return;
      clearTimeout(timer);
      if (found instanceof Error) reject(found);
      else resolve({ url: found, child, output: () => stderr, stop });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited with ${code}.\n${stdout}\n${stderr}`));
    });
  });
}
