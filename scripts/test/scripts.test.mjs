// Tests of the repository scripts: `node --test scripts/test/` (part of `pnpm test`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { publicPackages, root } from '../lib/workspace.mjs';
import { installInstructions } from '../pack-all.mjs';

test('public packages are discovered, private ones skipped, dependencies first', () => {
  const names = publicPackages().map((p) => p.name);
  for (const name of ['@skilltree/core', '@skilltree/testing', '@skilltree/cli', 'create-skilltree']) {
    assert.ok(names.includes(name), `${name} is discovered`);
  }
  assert.ok(!names.some((n) => n.includes('playground') || n.includes('example') || n === '@skilltree/docs'));
  assert.ok(names.indexOf('@skilltree/core') < names.indexOf('@skilltree/testing'));
  assert.ok(names.indexOf('@skilltree/core') < names.indexOf('@skilltree/cli'));
});

test('pack:all prints the create-skilltree line and the npm install lines', () => {
  const entry = (name, file, manifest = {}) => ({ name, tarball: `/t/${file}`, manifest: { name, ...manifest } });
  const text = installInstructions([
    entry('@skilltree/core', 'skilltree-core-1.0.0.tgz', { peerDependencies: { react: '^19.3.0' } }),
    entry('@skilltree/testing', 'skilltree-testing-1.0.0.tgz'),
    entry('@skilltree/cli', 'skilltree-cli-1.0.0.tgz'),
    entry('create-skilltree', 'create-skilltree-1.0.0.tgz', { bin: { 'create-skilltree': './bin.js' } }),
  ]);
  assert.match(
    text,
    /npm exec --yes --package=\/t\/create-skilltree-1\.0\.0\.tgz -- create-skilltree my-agent --from \/t\n/,
  );
  assert.match(text, /npm install \/t\/skilltree-core-1\.0\.0\.tgz 'react@\^19\.3\.0'\n/);
  assert.match(text, /npm install -D \/t\/skilltree-testing-1\.0\.0\.tgz \/t\/skilltree-cli-1\.0\.0\.tgz vitest@4/);
});

test('pnpm skilltree run --json: stdout is the JSON alone, the build goes to stderr', () => {
  const result = spawnSync('pnpm', ['skilltree', 'run', 'examples/support-desk/agent.tsx', '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', SKILLTREE_MODEL: '', FORCE_COLOR: '0' },
    timeout: 300_000,
  });
  assert.equal(result.status, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  assert.equal(typeof out.reply, 'string');
  assert.ok(Array.isArray(out.transcript) && out.transcript.length > 0);
});
