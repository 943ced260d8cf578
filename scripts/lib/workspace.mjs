// Helpers the release scripts share. Every public package is discovered, never listed: a package
// is public when it lives in packages/* and its package.json does not say "private": true.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Every public package under packages/*, sorted so that a package comes after the packages it
 * depends on inside the workspace (then by name).
 * @returns {{ name: string, version: string, dir: string, manifest: Record<string, any> }[]}
 */
export function publicPackages() {
  const base = join(root, 'packages');
  const found = [];
  for (const entry of readdirSync(base, { withFileTypes: true })) {
    const file = join(base, entry.name, 'package.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.private === true) continue;
    found.push({ name: manifest.name, version: manifest.version, dir: join(base, entry.name), manifest });
  }
  found.sort((a, b) => a.name.localeCompare(b.name));
  const names = new Set(found.map((p) => p.name));
  const ordered = [];
  const seen = new Set();
  const visit = (pkg) => {
    if (seen.has(pkg.name)) return;
    seen.add(pkg.name);
    const m = pkg.manifest;
    for (const dep of Object.keys({ ...m.dependencies, ...m.peerDependencies, ...m.devDependencies })) {
      if (names.has(dep)) visit(found.find((p) => p.name === dep));
    }
    ordered.push(pkg);
  };
  for (const pkg of found) visit(pkg);
  return ordered;
}

/** `packages/x` style path of a package, for messages. */
export function shortDir(pkg) {
  return pkg.dir.slice(root.length + 1);
}

/** A progress line on stderr (stdout stays for what a script is asked to print). */
export function log(message) {
  process.stderr.write(`${message}\n`);
}

/**
 * Runs a command. `stdout: 'stderr'` sends its output to our stderr, `'capture'` returns it,
 * `'capture-all'` returns stdout and stderr together (as they came), `'inherit'` passes it through.
 * `env` is added to this process's environment, or is the whole of it with `inheritEnv: false`.
 * Rejects with the command's output when it exits non-zero.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string | undefined>, inheritEnv?: boolean, stdout?: 'stderr' | 'capture' | 'capture-all' | 'inherit' | 'quiet', timeoutMs?: number }} [options]
 * @returns {Promise<string>}
 */
export function run(command, args, options = {}) {
  const mode = options.stdout ?? 'stderr';
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? root,
      env: options.inheritEnv === false ? options.env : { ...process.env, ...options.env },
      stdio: [
        'ignore',
        mode === 'inherit' ? 'inherit' : 'pipe',
        mode === 'inherit' || mode === 'stderr' ? 'inherit' : 'pipe',
      ],
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => {
      if (mode === 'stderr') process.stderr.write(chunk);
      else out += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      if (mode === 'capture-all') out += chunk;
      else err += chunk;
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGTERM');
            err += `\n(timed out after ${options.timeoutMs} ms)`;
          }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolvePromise(out);
      const shown = `${command} ${args.join(' ')}`;
      const output = `${out}${err}`.trim();
      reject(new Error(`\`${shown}\` failed (${signal ?? `exit ${code}`})${output ? `:\n${output}` : ''}`));
    });
  });
}

/** Builds every public package (and what they need) with turbo; turbo's output goes to stderr. */
export async function buildPublicPackages() {
  const filters = publicPackages().map((p) => `--filter=${p.name}...`);
  await run('pnpm', ['exec', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only'], {
    env: { TURBO_TELEMETRY_DISABLED: '1' },
  });
}

/** `Promise.all` over `items` with at most `limit` calls of `fn` running at once; keeps the order. */
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
