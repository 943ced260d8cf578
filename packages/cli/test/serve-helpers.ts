/**
 * Runs `skilltree serve` (the real binary) in a child process and reads the URL it prints.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI_DIR } from './helpers/run-cli.js';

/** A running `skilltree serve`. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Sends SIGINT and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `skilltree serve ...args` (with `extraEnv`) and resolves once it prints its URL (rejects after `timeout` ms). */
export function startServe(
  args: string[],
  timeout = 30_000,
  extraEnv: Record<string, string> = {},
): Promise<ServeProcess> {
  const env = { ...process.env };
  for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'SKILLTREE_MODEL']) delete env[key];
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, [join(CLI_DIR, 'bin', 'skilltree.js'), 'serve', ...args], {
    cwd: CLI_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`skilltree serve printed no URL in ${timeout} ms.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeout);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
      const match = /skilltree serve: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child, stdout: () => stdout, stderr: () => stderr, stop });
      }
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`skilltree serve exited with ${code}.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}
