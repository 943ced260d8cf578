// Tests of the repository scripts: `node --test scripts/test/` (part of `pnpm test`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  DOC_FILE,
  REPORT_FILE,
  renderTable,
  reportDifferences,
  TABLE_END,
  TABLE_START,
  tableCells,
  tableInDoc,
  withTable,
} from '../lib/compatibility.mjs';
import { EXISTING_PROJECT_TSCONFIG, installLines, splitSpec } from '../lib/install-lines.mjs';
import { cacheDir, NODE_BINARIES } from '../lib/node-binaries.mjs';
import { publicPackages, root } from '../lib/workspace.mjs';
import { installInstructions } from '../pack-all.mjs';

const gettingStarted = readFileSync(join(root, 'docs', 'getting-started.md'), 'utf8');

test('public packages are discovered, private ones skipped, dependencies first', () => {
  const names = publicPackages().map((p) => p.name);
  for (const name of ['@skilltree/core', '@skilltree/testing', '@skilltree/cli', 'create-skilltree']) {
    assert.ok(names.includes(name), `${name} is discovered`);
  }
  assert.ok(!names.some((n) => n.includes('playground') || n.includes('example') || n === '@skilltree/docs'));
  assert.ok(names.indexOf('@skilltree/core') < names.indexOf('@skilltree/testing'));
  assert.ok(names.indexOf('@skilltree/core') < names.indexOf('@skilltree/cli'));
});

const VERSIONS = {
  tools: {
    react: '19.3.1',
    zod: '4.6.7',
    vitest: '4.1.12',
    typescript: '6.0.3',
    tsx: '4.23.15',
    '@types/react': '19.3.3',
    '@types/node': '20.19.43',
  },
};
const packedAt = (dir) => {
  const entry = (name, file, manifest = {}) => ({ name, tarball: `${dir}/${file}`, manifest: { name, ...manifest } });
  return [
    entry('@skilltree/core', 'skilltree-core-0.1.0.tgz'),
    entry('@skilltree/testing', 'skilltree-testing-0.1.0.tgz'),
    entry('@skilltree/cli', 'skilltree-cli-0.1.0.tgz'),
    entry('create-skilltree', 'create-skilltree-0.1.0.tgz', { bin: { 'create-skilltree': './bin.js' } }),
  ];
};

test('pack:all prints the create-skilltree line, then the two npm install lines of an existing project', () => {
  const text = installInstructions(packedAt('/t'), VERSIONS);
  assert.match(
    text,
    /npm exec --yes --package=\/t\/create-skilltree-0\.1\.0\.tgz -- create-skilltree my-agent --from \/t\n/,
  );
  assert.match(text, /\n {2}npm install \/t\/skilltree-core-0\.1\.0\.tgz react@19\.3\.1 zod@4\.6\.7\n/);
  assert.match(
    text,
    /\n {2}npm install -D \/t\/skilltree-testing-0\.1\.0\.tgz \/t\/skilltree-cli-0\.1\.0\.tgz vitest@4\.1\.12 typescript@6\.0\.3 tsx@4\.23\.15 @types\/react@19\.3\.3 @types\/node@20\.19\.43\n/,
  );
  assert.doesNotMatch(text, /@types\/react@\^/, 'one @types/react, pinned');
});

test("docs/getting-started.md shows pack:all's lines as pack:all prints them", () => {
  const dir = '/path/to/skilltree/tarballs';
  const printed = installInstructions(packedAt(dir), VERSIONS)
    .split('\n')
    .filter((line) => line.startsWith('  '))
    .map((line) => line.trim());
  const section = gettingStarted.slice(
    gettingStarted.indexOf('### From a clone'),
    gettingStarted.indexOf('## Your first skill'),
  );
  const shown = [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) => m[1].trim().split('\n'));
  assert.ok(shown.includes(printed[0]), `the page shows ${printed[0]}`);
  assert.ok(shown.includes(printed[1]), `the page shows ${printed[1]}`);
  // The existing-project lines: the page elides tarballs with "…", but keeps the start and the versions.
  const runtime = shown.find((l) => l.startsWith(`npm install ${dir}/skilltree-core`));
  assert.ok(runtime?.endsWith(printed[2].slice(printed[2].indexOf(' react@'))), `runtime line: ${runtime}`);
  const dev = shown.find((l) => l.startsWith('npm install -D '));
  assert.equal(dev, printed[3]);
  assert.match(section, /prints two things/);
});

test('install lines: read from the first sh block that has them, comments and flags dropped', () => {
  const readme = [
    'Intro',
    '```sh',
    'pnpm skilltree run x   # not an install',
    '```',
    '```sh',
    "npm install @skilltree/core react 'zod@^4'   # runtime",
    'npm install -D typescript@6 @types/react',
    'pnpm add -D @skilltree/cli',
    '```',
  ].join('\n');
  assert.deepEqual(
    installLines(readme).map(({ dev, specs }) => ({ dev, specs })),
    [
      { dev: false, specs: ['@skilltree/core', 'react', 'zod@^4'] },
      { dev: true, specs: ['typescript@6', '@types/react'] },
      { dev: true, specs: ['@skilltree/cli'] },
    ],
  );
  assert.deepEqual(splitSpec('@types/react@19.3.3'), { name: '@types/react', range: '19.3.3' });
  assert.deepEqual(splitSpec('react'), { name: 'react', range: 'latest' });
  for (const pkg of publicPackages().filter((p) => p.name !== 'create-skilltree')) {
    const lines = installLines(readFileSync(join(pkg.dir, 'README.md'), 'utf8'));
    assert.ok(
      lines.some((l) => l.specs.some((s) => splitSpec(s).name === pkg.name)),
      `${pkg.name}'s README has an install line that names it`,
    );
    assert.ok(
      lines.some((l) => l.specs.includes('typescript@6')),
      `${pkg.name}'s README names TypeScript 6 (7, npm's latest, is untested)`,
    );
  }
});

test("each package's guide in docs/ installs with its README's lines (the ones the consumer test checks)", () => {
  const guides = {
    'testing.md': 'testing',
    'mcp.md': 'mcp',
    'cli.md': 'cli',
    'agent-skills.md': 'agent-skills',
    'models.md': 'models',
    'serving.md': 'server',
  };
  const specs = (file) => installLines(readFileSync(file, 'utf8')).map(({ dev, specs }) => ({ dev, specs }));
  for (const [guide, pkg] of Object.entries(guides)) {
    assert.deepEqual(
      specs(join(root, 'docs', guide)),
      specs(join(root, 'packages', pkg, 'README.md')),
      `docs/${guide} and packages/${pkg}/README.md`,
    );
  }
});

test('docs/getting-started.md gives an existing project the tsconfig the consumer test checks its lines with', () => {
  const section = gettingStarted.slice(gettingStarted.indexOf('### An existing project'));
  const json = /^```json\n([\s\S]*?)^```/m.exec(section)?.[1];
  assert.deepEqual(JSON.parse(json), EXISTING_PROJECT_TSCONFIG);
  assert.ok(installLines(gettingStarted, '### An existing project').length >= 2);
});

test('docs/compatibility.md has the table rendered from scripts/compatibility.json (what CI ran)', () => {
  const report = JSON.parse(readFileSync(REPORT_FILE, 'utf8'));
  const table = tableInDoc(readFileSync(DOC_FILE, 'utf8'));
  assert.ok(table, `docs/compatibility.md has the markers ${TABLE_START} … ${TABLE_END}`);
  assert.deepEqual(tableCells(table), tableCells(renderTable(report)));
  // One column per Node CI runs: this machine's and each binary's.
  assert.deepEqual(
    report.runs.map((r) => r.node.split('.')[0]),
    ['20', ...NODE_BINARIES.map((v) => v.split('.')[0])],
  );
  assert.deepEqual(
    report.runs.slice(1).map((r) => r.node),
    NODE_BINARIES,
  );
  for (const run of report.runs) {
    for (const name of ['ai', '@ai-sdk/react', 'pg', 'ioredis'])
      assert.ok(run.packages[name], `${name} on Node ${run.node}`);
  }
});

test("docs/serving.md and the server's README install the ai and @ai-sdk/react versions CI runs, with react-dom", () => {
  const { packages } = JSON.parse(readFileSync(REPORT_FILE, 'utf8')).runs[0];
  for (const file of ['docs/serving.md', 'packages/server/README.md']) {
    const specs = installLines(readFileSync(join(root, file), 'utf8')).flatMap((l) => l.specs);
    assert.ok(specs.includes(`ai@${packages.ai}`), `${file} installs ai@${packages.ai}`);
    assert.ok(
      specs.includes(`@ai-sdk/react@${packages['@ai-sdk/react']}`),
      `${file} installs @ai-sdk/react@${packages['@ai-sdk/react']}`,
    );
    assert.ok(specs.includes('react-dom'), `${file} installs react-dom`);
  }
});

test('the compatibility table: rewritten between its markers, compared cell by cell, differences named', () => {
  const report = {
    runs: [
      { node: '20.20.2', npm: '11.19.1', sqlite: 'better-sqlite3 12.11.1', packages: { ai: '6.0.325' } },
      { node: '24.22.3', npm: '11.19.1', sqlite: 'node:sqlite (SQLite 3.50.4)', packages: { ai: '6.0.325' } },
    ],
    typescript: ['6.0.3', '5.9.3'],
    services: { postgres: 'PostgreSQL 15.14', redis: 'Redis 7.0.15' },
  };
  const page = `# x\n\n${TABLE_START}\nold\n${TABLE_END}\n\nafter\n`;
  const written = withTable(page, report);
  assert.match(written, /\| Node +\| 20\.20\.2 +\| 24\.22\.3 +\|/);
  assert.match(written, /\| `ai` +\| 6\.0\.325 +\| 6\.0\.325 +\|/);
  assert.match(written, /\| SQLite store +\| better-sqlite3 12\.11\.1 +\| node:sqlite \(SQLite 3\.50\.4\) +\|/);
  assert.ok(written.endsWith(`${TABLE_END}\n\nafter\n`));
  assert.deepEqual(tableCells(tableInDoc(written).replace(/ {2,}/g, ' ')), tableCells(renderTable(report)));
  const later = structuredClone(report);
  later.runs[1].packages.ai = '6.0.330';
  assert.deepEqual(reportDifferences(report, later), ['runs[1].packages.ai: "6.0.325" → "6.0.330"']);
  assert.deepEqual(reportDifferences(report, structuredClone(report)), []);
});

test('Node binaries are cached under $SKILLTREE_CACHE_DIR, else $XDG_CACHE_HOME/skilltree, else ~/.cache/skilltree', () => {
  assert.equal(cacheDir({ SKILLTREE_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }), '/c');
  assert.equal(cacheDir({ XDG_CACHE_HOME: '/x' }), '/x/skilltree');
  assert.match(cacheDir({}), /\/\.cache\/skilltree$/);
  for (const version of NODE_BINARIES)
    assert.match(version, /^\d+\.\d+\.\d+$/, 'exact versions: a cached binary stays valid');
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
