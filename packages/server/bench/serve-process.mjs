/**
 * What the load tests (load.mjs, load-crash.mjs) share: the checkout's paths, the bounded knobs,
 * the percentile, whether @skilltree/store is installed, and starting one `skilltree serve` process.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder, the checkout's root and the CLI the tests run. */
export const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..', '..');
export const cli = join(repo, 'packages', 'cli', 'bin', 'skilltree.js');

/** The whole-number knob `name` from the environment (`fallback` when unset), at most `max`. */
export function bounded(name, fallback, max) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 1) throw new Error(`${name} must be a positive number.`);
  return Math.min(Math.floor(value), max);
}

/** The `p`th percentile of the ascending `sorted` (NaN when empty). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Whether the CLI can load `@skilltree/store/<kind>`. */
export function storeAvailable(kind) {
  try {
    createRequire(join(repo, 'packages', 'cli', 'package.json')).resolve(`@skilltree/store/${kind}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `node <args>` (a `skilltree serve` command) in the checkout with `env`: resolves once it
 * prints its URL with `{ url, pid, stderr(), stop(), kill() }`; `label` names it in errors.
 */
export function startServeProcess(args, env, label) {
  const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  const server = {
    url: '',
    pid: child.pid,
    stderr: () => stderr,
    /** Kills the process at once, as a crash would. */
    kill() {
      child.kill('SIGKILL');
      return exited;
    },
    /** Stops the process gracefully, killing it after 20 s. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void server.stop();
      reject(new Error(`${label} did not start in 60 s.\n${stdout}\n${stderr}`));
    }, 60_000);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
      const match = /skilltree serve: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match && !server.url) {
        clearTimeout(timer);
        server.url = match[1];
        resolve(server);
      }
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (!server.url) reject(new Error(`${label} exited with ${code}.\n${stdout}\n${stderr}`));
    });
  });
}

/** POSTs `text` as `user`'s next message of chat `chatId` (as useChat does): the streaming response. */
export function postTurn(url, user, chatId, text) {
  return fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-bench-user': user },
    body: JSON.stringify({
      id: chatId,
      message: { id: `${chatId}-${text}`, role: 'user', parts: [{ type: 'text', text }] },
    }),
  });
}
