/**
 * Formats generated pages the way `biome check --write` would, so that a regenerated page is
 * byte-identical to the committed, linted one.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = join(fileURLToPath(new URL('..', import.meta.url)), '..');

function biomeBin(): string {
  const require = createRequire(join(repoDir, 'package.json'));
  return join(dirname(require.resolve('@biomejs/biome/package.json')), 'bin', 'biome');
}

/** `text` formatted as the file `path` (relative to the repository root) would be. */
export function formatWithBiome(path: string, text: string): string {
  return execFileSync(process.execPath, [biomeBin(), 'format', `--stdin-file-path=${path}`], {
    cwd: repoDir,
    input: text,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}
