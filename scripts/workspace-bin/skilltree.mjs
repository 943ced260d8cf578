#!/usr/bin/env node
// `pnpm skilltree …` inside this repository. The root package.json links this package, so pnpm
// runs this bin directly (`pnpm exec`): no "> script" banner on stdout, unlike a package.json
// script. It builds the CLI and its workspace dependencies with turbo, and the packages the
// examples import besides core (agent-skills, mcp), saying on stderr which package it builds
// (./build.mjs), then runs packages/cli/bin/skilltree.js in this process. stdout carries only the
// command's own output, so `pnpm skilltree run agent.tsx --json | jq .reply` works.
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBuild } from './build.mjs';

const root = join(dirname(realpathSync(fileURLToPath(import.meta.url))), '..', '..');
const turbo = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'turbo.cmd' : 'turbo');
const build = await startBuild({
  command: turbo,
  args: [
    'run',
    'build',
    '--filter=@skilltree/cli...',
    // examples/agent-skills imports these; the CLI itself does not depend on them.
    '--filter=@skilltree/agent-skills...',
    '--filter=@skilltree/mcp...',
    // The logs of the tasks that run (a cache miss), which ./build.mjs reads for its progress lines.
    '--output-logs=new-only',
  ],
  cwd: root,
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  stderr: process.stderr,
});
const status = await build.done;
if (status !== 0) {
  process.stderr.write(`skilltree: building the CLI failed (exit ${status})\n`);
  process.exit(status);
}
await import(pathToFileURL(join(root, 'packages', 'cli', 'bin', 'skilltree.js')).href);
