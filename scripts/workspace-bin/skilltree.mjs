#!/usr/bin/env node
// `pnpm skilltree …` inside this repository. The root package.json links this package, so pnpm
// runs this bin directly (`pnpm exec`): no "> script" banner on stdout, unlike a package.json
// script. It builds the CLI and its workspace dependencies with turbo, and the packages the
// examples import besides core (agent-skills, mcp), turbo's output going to stderr, then runs
// packages/cli/bin/skilltree.js in this process. stdout carries only the command's own output,
// so `pnpm skilltree run agent.tsx --json | jq .reply` works.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(realpathSync(fileURLToPath(import.meta.url))), '..', '..');
const turbo = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'turbo.cmd' : 'turbo');
const build = spawnSync(
  turbo,
  [
    'run',
    'build',
    '--filter=@skilltree/cli...',
    // examples/agent-skills imports these; the CLI itself does not depend on them.
    '--filter=@skilltree/agent-skills...',
    '--filter=@skilltree/mcp...',
    '--output-logs=errors-only',
  ],
  {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  },
);
if (build.status !== 0) {
  process.stderr.write(`skilltree: building the CLI failed (${build.error?.message ?? `exit ${build.status}`})\n`);
  process.exit(build.status ?? 1);
}
await import(pathToFileURL(join(root, 'packages', 'cli', 'bin', 'skilltree.js')).href);
