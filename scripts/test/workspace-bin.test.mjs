// `pnpm skilltree …` and `pnpm start` build first (scripts/workspace-bin/build.mjs): the build says
// on stderr which package it builds while it builds, is silent when everything is cached, prints
// turbo's output when it fails, and never writes to stdout. turbo is played here by a small script
// that prints what turbo prints (`--output-logs=new-only`, not a terminal), and waits to be told to
// go on, so the test sees the progress line before the build ends.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startBuild } from '../workspace-bin/build.mjs';

const FAKE_TURBO = `
import { createInterface } from 'node:readline';
const mode = process.argv[2];
const out = (line) => process.stdout.write(line + '\\n');
out('');
out('   • turbo 2.11.11');
out('   • Running build in 3 packages');
out('');
if (mode === 'warm') {
  out('@skilltree/core:build: cache hit, suppressing logs 1a2b3c');
  out('@skilltree/cli:build: cache hit, suppressing logs 4d5e6f');
  process.exit(0);
}
out('@skilltree/core:build: cache miss, executing 1a2b3c');
out('@skilltree/core:build: > tsc -p tsconfig.build.json');
if (mode === 'fail') {
  out('@skilltree/core:build: src/index.ts(3,1): error TS2304: Cannot find name "oops".');
  process.stderr.write('  x Internal errors encountered: external process killed a task\\n');
  process.exit(2);
}
// Wait for the test to have seen the first package's line.
for await (const line of createInterface({ input: process.stdin })) if (line === 'go') break;
out('@skilltree/core:build: cache hit, suppressing logs 1a2b3c');
out('@skilltree/cli:build: cache bypass, force executing 4d5e6f');
out('@skilltree/cli:build: > tsc -p tsconfig.build.json');
out(' Tasks:    2 successful, 2 total');
`;

const dir = mkdtempSync(join(tmpdir(), 'skilltree-fake-turbo-'));
const fake = join(dir, 'turbo.mjs');
writeFileSync(fake, FAKE_TURBO);

/** Starts the build with the fake turbo in `mode`; `seen()` is what it wrote to stderr so far. */
async function build(mode, stdin = 'ignore') {
  let written = '';
  const waiters = [];
  const stderr = {
    write(text) {
      written += text;
      for (const waiter of waiters.splice(0)) waiter();
    },
  };
  let clock = 1_000;
  const started = await startBuild({
    command: process.execPath,
    args: [fake, mode],
    cwd: dir,
    stderr,
    stdin,
    now: () => (clock += 21_000),
  });
  /** Resolves once stderr holds `text`. */
  const until = async (text) => {
    while (!written.includes(text)) await new Promise((resolve) => waiters.push(resolve));
  };
  return { ...started, seen: () => written, until };
}

test('a cold build says on stderr which package it builds while it builds, then how long it took', async () => {
  const run = await build('cold', 'pipe');
  await run.until('skilltree: building @skilltree/core…\n');
  // The build is still running (the fake waits for "go"), and the line is out already.
  assert.equal(run.child.exitCode, null);
  assert.equal(run.seen(), 'skilltree: building @skilltree/core…\n');
  run.child.stdin.end('go\n');
  assert.equal(await run.done, 0);
  assert.equal(
    run.seen(),
    'skilltree: building @skilltree/core…\nskilltree: building @skilltree/cli…\nskilltree: built 2 packages in 21 s.\n',
  );
});

test('a warm build (every package cached) prints nothing', async () => {
  const run = await build('warm');
  assert.equal(await run.done, 0);
  assert.equal(run.seen(), '');
});

test("a failed build prints turbo's output, the task's errors included, and its exit code", async () => {
  const run = await build('fail');
  assert.equal(await run.done, 2);
  assert.match(run.seen(), /^skilltree: building @skilltree\/core…\n/);
  assert.match(run.seen(), /error TS2304: Cannot find name "oops"/);
  assert.match(run.seen(), /Internal errors encountered/);
});
