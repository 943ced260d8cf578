/**
 * Runs the real `skilltree` binary (`node bin/skilltree.js`) as a child process.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { providers } from '@skilltree/models';
import { tracked } from './children.js';

/** The package directory (packages/cli). */
export const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The fixtures directory. */
export const FIXTURES = join(CLI_DIR, 'test', 'fixtures');

/** What a run produced. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Written to stdin, then stdin is closed. Default: stdin closed at once. */
  stdin?: string;
  /** Extra environment; model keys are cleared unless given here. */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** This process's environment without model keys, a default model or color settings, plus `extra`. */
export function cliEnv(extra: Record<string, string | null | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  // Every provider's key and endpoint variables, from the provider table.
  const model = new Set(providers().flatMap((p) => [p.apiKeyEnv, ...(p.baseUrlEnv ? [p.baseUrlEnv] : [])]));
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value !== undefined &&
      !model.has(key) &&
      !/^(ANTHROPIC|OPENAI)_|^SKILLTREE_MODEL$|^FORCE_COLOR$|^NO_COLOR$/.test(key)
    )
      env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    // null takes a variable out of the child's environment (undefined leaves it as inherited).
    if (value === null) delete env[key];
    else if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Runs `node bin/skilltree.js ...args` and resolves when it exits (the test's timeout is the bound). */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env = cliEnv(options.env);
  return new Promise((resolve, reject) => {
    const child = tracked(
      spawn(process.execPath, [join(CLI_DIR, 'bin', 'skilltree.js'), ...args], {
        cwd: options.cwd ?? CLI_DIR,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
