/**
 * Builds the CLI before the tests run the real binary, so that `dist` is never stale.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CLI_DIR } from './run-cli.js';

export default function setup(): void {
  const require = createRequire(join(CLI_DIR, 'package.json'));
  for (const dep of [
    '@skilltree/core/package.json',
    '@skilltree/evals/package.json',
    '@skilltree/models/package.json',
    '@skilltree/server/package.json',
  ]) {
    const dir = join(require.resolve(dep), '..');
    if (!existsSync(join(dir, 'dist'))) {
      throw new Error(
        `${dep.replace('/package.json', '')} is not built: run "pnpm --filter @skilltree/cli... build" first.`,
      );
    }
  }
  const tsc = join(require.resolve('typescript/package.json'), '..', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: CLI_DIR, stdio: 'inherit' });
}
