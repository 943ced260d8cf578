/**
 * Where the sandbox is: `--sandbox <dir>` (or `--sandbox=<dir>`) on the command line, else the
 * `SKILLTREE_SANDBOX` environment variable, else a fresh temporary copy of this example's
 * `sandbox/` folder (so chatting with the example never changes the repository), deleted on exit.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The example's seed files. */
export const SEED_DIR = fileURLToPath(new URL('../sandbox', import.meta.url));

/** A new temporary folder holding a copy of the seed files. */
export function copySeed(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skilltree-sandbox-'));
  cpSync(SEED_DIR, dir, { recursive: true });
  return dir;
}

/** The sandbox named by `argv` or `env`, or null when neither names one. */
export function sandboxFromArgs(argv: readonly string[], env: Record<string, string | undefined>): string | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--sandbox' && argv[i + 1]) return path.resolve(argv[i + 1]);
    if (arg.startsWith('--sandbox=')) return path.resolve(arg.slice('--sandbox='.length));
  }
  return env.SKILLTREE_SANDBOX ? path.resolve(env.SKILLTREE_SANDBOX) : null;
}

/**
 * The sandbox for this process: from the command line or the environment, else a copy of the
 * seed, removed when the process exits.
 */
export function resolveSandbox(argv = process.argv, env: Record<string, string | undefined> = process.env): string {
  const given = sandboxFromArgs(argv, env);
  if (given) return given;
  const copy = copySeed();
  process.once('exit', () => rmSync(copy, { recursive: true, force: true }));
  return copy;
}
