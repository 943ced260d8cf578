#!/usr/bin/env node
// `pnpm test:consumer [--node 20,22,24] [--update] [--keep]`: uses skilltree the way a project
// outside this repository does, on every Node of the compatibility table.
//
// 1. Builds and packs every public package (packages/*, not "private") into a temporary directory.
// 2. On each Node — this machine's (20) and the official Linux x64 binaries of 22 and 24 from the
//    npm registry (scripts/lib/node-binaries.mjs), in parallel — with that Node first on PATH, so
//    npm and every script run on it:
//    - the packed create-skilltree makes a project from the tarballs with
//      `--with server,store,agent-skills,mcp,models`, inside a folder whose vite.config.ts would capture
//      its tests if the project had no vitest config of its own;
//    - `npm install`, timed (target: under 60 s with a warm npm cache); no `EBADENGINE` line, and
//      nothing compiled: better-sqlite3 only where Node has no `node:sqlite` (20);
//    - the evals package, pg and ioredis join (models came with --with models), with tests of the
//      model adapters, an eval under Vitest (recorded, then replayed), and the SQLite, Postgres and
//      Redis stores' conformance suite (node:sqlite on 22 and 24);
//    - `npm run typecheck` (strict, no skipLibCheck, TypeScript 6) and `npm test`;
//    - `npx skilltree run agent.tsx --json`, `--model scripted:<file>` and `--session` (twice), and
//      `npx skilltree eval todos.eval.tsx`.
//    On this machine's Node also: every export of every public package type-checked with
//    TypeScript 6 and 5.9, with every peer they declare.
// 3. Each package's README install line, and the getting-started page's, installed alone into a
//    project of its own (install scripts off): that project type-checks every export of the package
//    without skipLibCheck, with exactly what the line names.
// 4. The versions each Node ran with must equal scripts/compatibility.json, which
//    docs/compatibility.md's table is rendered from (`--update` rewrites both).
// Any failing step fails the run. It needs PostgreSQL and Redis: `pnpm test:consumer` starts them
// through .ci/with-services.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import semver from 'semver';
import {
  DOC_FILE,
  installedVersion,
  RECORDED,
  REPORT_FILE,
  reportDifferences,
  withTable,
} from './lib/compatibility.mjs';
import { AI_SDK_7_OPENAI, AI_SDK_TEST, aiMajorFor } from './lib/consumer-ai-sdk.mjs';
import { EXISTING_PROJECT_TSCONFIG, installLines, missingOptionalPeers, splitSpec } from './lib/install-lines.mjs';
import { NODE_BINARIES, nodeBinDir } from './lib/node-binaries.mjs';
import { mapLimit, root, run } from './lib/workspace.mjs';
import { packAll } from './pack-all.mjs';

/** Past this, the run says which step grew (CI gives `.ci/run` 20 minutes in all). */
const BUDGET_MS = 420_000;
/** The install time a new project should stay under, with a warm npm cache. */
const INSTALL_TARGET_MS = 60_000;
const WITH = ['server', 'store', 'agent-skills', 'mcp', 'models'];
const DEMO_REPLY = 'Added "water the plants" to your todo list.';

const started = Date.now();
const argv = process.argv.slice(2);
const keep = argv.includes('--keep');
const update = argv.includes('--update');
/** `--only=install-lines`: just the documented install lines (no Node matrix, no services, no report). */
const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const nodeArg = argv.find((a, i) => argv[i - 1] === '--node' || a.startsWith('--node='));
const hostNode = process.versions.node;
const hostMajor = hostNode.split('.')[0];
const majors = (nodeArg?.replace(/^--node=/, '') ?? [hostMajor, ...NODE_BINARIES.map((v) => v.split('.')[0])].join(','))
  .split(',')
  .map((m) => m.trim());
let passed = 0;

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const out = (line) => process.stdout.write(`${line}\n`);

/**
 * The environment of a user's shell: no pnpm/npm script variables, no model keys, no colors, and
 * no folder of this workspace on PATH (pnpm puts its node_modules/.bin there).
 */
function userEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|INIT_CWD$|TURBO_|ANTHROPIC_|OPENAI_|SKILLTREE_)/i.test(key)) continue;
    env[key] = value;
  }
  const path = (process.env.PATH ?? '').split(':').filter((dir) => dir && !dir.startsWith(root + sep));
  return { ...env, PATH: path.join(':'), NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false' };
}

/** Runs a command in a user's environment (exactly `env`, nothing of this process's). */
const runAs = (env, command, args, options = {}) => run(command, args, { ...options, env, inheritEnv: false });

async function step(label, name, fn) {
  const since = Date.now();
  out(`consumer: [${label}] ${name} ...`);
  try {
    const result = await fn();
    passed++;
    out(`consumer: [${label}] ${name} ok (${seconds(Date.now() - since)})`);
    return result;
  } catch (error) {
    out(`consumer: [${label}] ${name} FAILED after ${seconds(Date.now() - since)}`);
    throw error;
  }
}

/** Fails on any `EBADENGINE` line: every dependency must accept every Node of the table. */
function noBadEngine(output, what) {
  const lines = output.split('\n').filter((l) => l.includes('EBADENGINE') || /Unsupported engine/.test(l));
  if (lines.length > 0) throw new Error(`${what} warned about engines:\n${output}`);
}

/** Names of installed packages that build native code (a binding.gyp), e.g. better-sqlite3. */
function nativePackages(project) {
  const base = join(project, 'node_modules');
  const found = [];
  for (const entry of readdirSync(base)) {
    const dirs = entry.startsWith('@') ? readdirSync(join(base, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of dirs) if (existsSync(join(base, name, 'binding.gyp'))) found.push(name);
  }
  return found.sort();
}

/**
 * better-sqlite3 (the SQLite store on Node 20) installs a prebuilt binary from GitHub, or compiles
 * for ~100 s when it cannot reach it (CI cannot). prebuild-install's documented `local_prebuilds`
 * option gets it the same binary from a folder: the one pnpm built for this workspace on this Node.
 */
function localPrebuilds(dir) {
  const pkg = join(root, 'node_modules', '.pnpm');
  const found = existsSync(pkg) ? readdirSync(pkg).find((name) => /^better-sqlite3@\d/.test(name)) : undefined;
  if (!found) return {};
  const source = join(pkg, found, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(source, 'build', 'Release', 'better_sqlite3.node'))) return {};
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-czf', join(dir, name), '-C', source, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

/** The test files the consumer adds beside the generated ones. */
function extraTests() {
  return {
    'models.test.tsx': `import { anthropic } from '@skilltree/models/anthropic';
import { openai } from '@skilltree/models/openai';
import { cleanup, renderAgent } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { TodoAgent, todos } from './agent.js';

afterEach(cleanup);

test('the model adapters plug into renderAgent (no request is sent)', async () => {
  const models = [
    anthropic({ model: 'claude-sonnet-4-5', apiKey: 'test' }),
    openai({ model: 'gpt-4.1', apiKey: 'test', baseURL: 'http://127.0.0.1:9/v1' }),
  ];
  for (const model of models) {
    const agent = renderAgent(<TodoAgent />, { model });
    await agent.readSkill('todos');
    await agent.callTool('add_todo', { text: 'one' });
    expect(agent).toHaveTool('clear_todos');
    expect(agent.session.store(todos).getState().items).toEqual(['one']);
  }
});
`,
    'evals.test.tsx': `import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEval, oracleModel, runEval } from '@skilltree/evals';
import { describeEval } from '@skilltree/evals/vitest';
import { expect, test } from 'vitest';
import { TodoAgent } from './agent.js';

const suite = defineEval({
  name: 'todos',
  agent: <TodoAgent />,
  model: oracleModel(),
  cases: [
    {
      name: 'add',
      messages: 'Add: call mum',
      expect: { reads: ['todos'], toolCalls: [{ name: 'add_todo', input: { text: 'call mum' } }], stores: { todos: { items: ['call mum'] } } },
    },
    { name: 'hello', messages: 'Hi!', expect: { reads: [], notRead: 'others' } },
  ],
  thresholds: ['selection.recall >= 0.9', 'success == 1'],
});

describeEval(suite, { print: false });

test('an eval recorded once replays offline, with no model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'consumer-evals-'));
  try {
    const recorded = await runEval(suite, { recordings: { dir, mode: 'record' } });
    const replayed = await runEval({ ...suite, model: undefined }, { recordings: { dir, mode: 'replay' } });
    expect(replayed.variants[0].metrics.success?.mean).toBe(recorded.variants[0].metrics.success?.mean);
    expect(replayed.passed).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
`,
    'todos.eval.tsx': `import { defineEval, oracleModel } from '@skilltree/evals';
import { TodoAgent } from './agent.js';

export default defineEval({
  name: 'todos',
  agent: <TodoAgent />,
  model: oracleModel(),
  cases: [{ name: 'add', messages: 'Add: call mum', expect: { reads: ['todos'], toolCalls: ['add_todo'] } }],
  thresholds: ['selection.recall >= 0.9'],
});
`,
    'ai-sdk.test.tsx': AI_SDK_TEST,
    'store-drivers.test.ts': `import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresStore } from '@skilltree/store/postgres';
import { redisStore } from '@skilltree/store/redis';
import { sqliteStore } from '@skilltree/store/sqlite';
import { sessionStoreConformance } from '@skilltree/store/testing';
import { expect, test, vi } from 'vitest';

// The suite gives its own tests 30 s (they wait out real leases); its hooks open connections.
vi.setConfig({ hookTimeout: 30_000 });

const url = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(\`\${name} is not set (the consumer test passes it)\`);
  return value;
};
const prefix = \`c\${process.versions.node.split('.')[0]}_\${Date.now().toString(36)}_\`;

const file = join(mkdtempSync(join(tmpdir(), 'consumer-store-')), 'sessions.db');
sessionStoreConformance('sqliteStore', { open: () => sqliteStore({ path: file }), sessions: 100 });
sessionStoreConformance('postgresStore', {
  open: () => postgresStore({ connectionString: url('CONSUMER_POSTGRES_URL'), prefix }),
  sessions: 100,
});
sessionStoreConformance('redisStore', {
  open: () => redisStore({ url: url('CONSUMER_REDIS_URL'), prefix: prefix.replace(/_$/, ':') }),
  sessions: 100,
});

test('sqliteStore runs on node:sqlite where Node has it, else on better-sqlite3, which is then the only native package', () => {
  const builtin = process.getBuiltinModule?.('node:sqlite') !== undefined;
  expect(builtin).toBe(process.env.CONSUMER_EXPECT_SQLITE === 'node:sqlite');
  if (builtin) {
    expect(() => sqliteStore({ path: ':memory:', driver: 'better-sqlite3' })).toThrow(/npm install better-sqlite3@12$/);
  }
});
`,
  };
}

/**
 * An `export type *` line for every entry point of `packages` (skipping wildcards and JSON). With
 * `skip`, entry points it returns a reason for are left out (and listed).
 */
function exportsFile(packages, skip = () => null) {
  const lines = ['// Written by the consumer test: the types of these entry points, checked without skipLibCheck.'];
  const skipped = [];
  let n = 0;
  for (const pkg of packages) {
    for (const subpath of Object.keys(pkg.manifest.exports ?? {})) {
      if (subpath.includes('*') || subpath.endsWith('.json')) continue;
      const reason = skip(pkg, subpath);
      if (reason) {
        skipped.push(`${subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`} (${reason})`);
        continue;
      }
      const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      lines.push(`export type * as entry${n++} from '${specifier}';`);
    }
  }
  return { text: `${lines.join('\n')}\n`, count: n, skipped };
}

// ---------------------------------------------------------------------------------------------

const work = realpathSync(mkdtempSync(join(tmpdir(), 'skilltree-consumer-')));
const tarballs = join(work, 'tarballs');

/** The project of one Node: made, installed, tested; returns what ran. */
async function onNode(major, context) {
  const { packed, bin, prebuilds, installAlone, installed } = context;
  const label = `node ${major}`;
  const scaffolder = packed.find((p) => p.name === 'create-skilltree');
  const libraries = packed.filter((p) => p !== scaffolder);
  const base = join(work, `node-${major}`);
  const project = join(base, 'my-agent');
  mkdirSync(base);
  // A web app's config in the folder above: vitest finds it unless the project has its own.
  writeFileSync(join(base, 'vite.config.ts'), "export default { test: { include: ['web/**/*.test.ts'] } };\n");
  const env = {
    ...userEnv(),
    ...(bin ? { PATH: `${bin}:${userEnv().PATH}` } : prebuilds),
    CONSUMER_POSTGRES_URL: context.postgres,
    CONSUMER_REDIS_URL: context.redis,
  };
  const npm = (args, cwd = project, options = {}) =>
    runAs(options.env ?? env, 'npm', args, { cwd, stdout: 'capture', ...options });
  const npmAll = (args, cwd = project, options = {}) => npm(args, cwd, { stdout: 'capture-all', ...options });
  const node = (await runAs(env, 'node', ['--version'], { stdout: 'capture' })).trim().slice(1);
  if (node.split('.')[0] !== major) throw new Error(`[${label}] node on PATH is ${node}`);
  const hasSqlite =
    (
      await runAs(env, 'node', ['-p', "process.getBuiltinModule?.('node:sqlite') !== undefined"], { stdout: 'capture' })
    ).trim() === 'true';

  await step(label, `create-skilltree my-agent --from <tarballs> --with ${WITH.join(',')}`, async () => {
    const printed = await npmAll(
      [
        'exec',
        '--yes',
        `--package=${scaffolder.tarball}`,
        '--',
        'create-skilltree',
        'my-agent',
        '--from',
        tarballs,
        '--with',
        WITH.join(','),
      ],
      base,
    );
    noBadEngine(printed, 'npm exec create-skilltree');
    for (const expected of [
      'server.tsx',
      'sessions.test.tsx',
      'folder-agent.tsx',
      'mcp-agent.tsx',
      'model.ts',
      '@skilltree/server',
      '@skilltree/models',
      '@ai-sdk/react',
      'npm install',
    ]) {
      if (!printed.includes(expected)) throw new Error(`create-skilltree did not print ${expected}:\n${printed}`);
    }
    if (printed.includes('better-sqlite3') === hasSqlite) {
      throw new Error(
        `create-skilltree on Node ${node} ${hasSqlite ? 'added' : 'left out'} better-sqlite3:\n${printed}`,
      );
    }
  });

  // Timed alone: one Node's install at a time, and nothing else of the run beside it.
  const installMs = await installAlone(() =>
    step(label, 'npm install (the new project, warm cache, timed alone)', async () => {
      const since = Date.now();
      const output = await npmAll(['install', '--no-audit', '--no-fund', '--prefer-offline'], project, {
        timeoutMs: 300_000,
      });
      const ms = Date.now() - since;
      noBadEngine(output, 'npm install');
      const native = nativePackages(project);
      const expected = hasSqlite ? [] : ['better-sqlite3'];
      if (JSON.stringify(native) !== JSON.stringify(expected)) {
        throw new Error(
          `native packages installed on Node ${node}: ${native.join(', ') || 'none'} (expected ${expected.join(', ') || 'none'})`,
        );
      }
      for (const pkg of libraries) {
        if (existsSync(join(project, 'node_modules', pkg.name, 'node_modules', 'react'))) {
          throw new Error(`${pkg.name} got its own copy of react`);
        }
      }
      out(`consumer: [${label}] install time ${seconds(ms)} (target < ${seconds(INSTALL_TARGET_MS)})`);
      return ms;
    }),
  );
  await installed;

  await step(label, 'add the evals package, pg, ioredis and the extra tests', async () => {
    const manifestPath = join(project, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    // --with models added the models package (the tests below use it too).
    if (!manifest.dependencies['@skilltree/models'])
      throw new Error('create-skilltree --with models left out @skilltree/models');
    // npm refuses a direct dependency whose spec differs from its override: use the override's.
    manifest.devDependencies['@skilltree/evals'] = manifest.overrides['@skilltree/evals'];
    const storeDev = libraries.find((p) => p.name === '@skilltree/store').manifest.devDependencies;
    manifest.devDependencies.pg = storeDev.pg;
    manifest.devDependencies.ioredis = storeDev.ioredis;
    // The OpenAI provider of the project's AI SDK major, for the aiSdk() bridge test (ai-sdk.test.tsx).
    const aiMajor = aiMajorFor(major);
    if (manifest.dependencies.ai?.split('.')[0] !== aiMajor) {
      throw new Error(`create-skilltree on Node ${major} chose ai ${manifest.dependencies.ai} (expected ${aiMajor}.x)`);
    }
    const modelsDev = libraries.find((p) => p.name === '@skilltree/models').manifest.devDependencies;
    manifest.devDependencies['@ai-sdk/openai'] = aiMajor === '7' ? AI_SDK_7_OPENAI : modelsDev['@ai-sdk/openai'];
    if (major === hostMajor) {
      // Every peer any package declares (the version it tests with), for the every-export check.
      const present = (name) => manifest.dependencies[name] || manifest.devDependencies[name];
      for (const pkg of libraries) {
        const dev = pkg.manifest.devDependencies ?? {};
        for (const [name, range] of Object.entries(pkg.manifest.peerDependencies ?? {})) {
          if (name.startsWith('@skilltree/') || present(name) || name === 'better-sqlite3') continue;
          manifest.devDependencies[name] =
            semver.valid(dev[name]) && semver.satisfies(dev[name], range) ? dev[name] : range;
        }
      }
      manifest.devDependencies['typescript-5.9'] = 'npm:typescript@5.9.3';
      // No --with brings the durable engines: the every-export check installs them here.
      manifest.devDependencies['@skilltree/durable'] = manifest.overrides['@skilltree/durable'];
    }
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    for (const [file, text] of Object.entries(extraTests())) writeFileSync(join(project, file), text);
    const output = await npmAll(['install', '--no-audit', '--no-fund', '--prefer-offline'], project, {
      timeoutMs: 300_000,
    });
    noBadEngine(output, 'npm install (extras)');
  });

  if (major !== hostMajor) {
    await step(label, 'npm run typecheck (strict, no skipLibCheck, TypeScript 6)', () => npm(['run', 'typecheck']));
  } else {
    // Here the typecheck also covers the types of every export of every public package, with every
    // peer installed, and runs with TypeScript 5.9 as well.
    await step(
      label,
      'npm run typecheck with every export of every public package (TypeScript 6 and 5.9)',
      async () => {
        const { text, count } = exportsFile(libraries);
        writeFileSync(join(project, 'skilltree-exports.ts'), text);
        const tsc59 = join(project, 'node_modules', 'typescript-5.9', 'bin', 'tsc');
        await Promise.all([
          npm(['run', 'typecheck']),
          runAs(env, 'node', [tsc59, '--noEmit'], { cwd: project, stdout: 'capture' }),
        ]);
        out(
          `consumer: [${label}]   ${count} entry points ok with TypeScript ${installedVersion(project, 'typescript')} and ${installedVersion(project, 'typescript-5.9')}`,
        );
      },
    );
  }

  await step(
    label,
    `npm test (the generated tests, the models and the stores' conformance on ${hasSqlite ? 'node:sqlite' : 'better-sqlite3'})`,
    async () => {
      const files = readdirSync(project).filter((f) => /\.test\.tsx?$/.test(f));
      const output = await npmAll(['test'], project, {
        env: {
          ...env,
          CONSUMER_EXPECT_SQLITE: hasSqlite ? 'node:sqlite' : 'better-sqlite3',
          CONSUMER_EXPECT_AI_MAJOR: aiMajorFor(major),
        },
        timeoutMs: 300_000,
      });
      // The generated vitest.config.ts keeps the parent folder's vite.config.ts from capturing them.
      const ran = /Test Files\s+(\d+) passed/.exec(output)?.[1];
      if (Number(ran) !== files.length)
        throw new Error(`vitest ran ${ran ?? 'no'} test files of ${files.length}:\n${output}`);
    },
  );

  await step(label, 'npx skilltree run agent.tsx --json | JSON.parse (the demo model)', async () => {
    const stdout = await npm(['exec', '--', 'skilltree', 'run', 'agent.tsx', '--json']);
    let result;
    try {
      result = JSON.parse(stdout);
    } catch {
      throw new Error(`stdout is not JSON alone:\n${stdout}`);
    }
    if (result.reply !== DEMO_REPLY) throw new Error(`reply: ${result.reply}`);
    if (!result.loadedSkills?.includes('todos'))
      throw new Error(`loadedSkills: ${JSON.stringify(result.loadedSkills)}`);
  });

  await step(label, 'npx skilltree run agent.tsx --model scripted:script.json -m ...', async () => {
    const script = [
      { toolCalls: [{ name: 'read_skill', input: { name: 'todos' } }] },
      { toolCalls: [{ name: 'add_todo', input: { text: 'call mum' } }] },
      { text: 'Done: call mum.' },
    ];
    writeFileSync(join(project, 'script.json'), JSON.stringify(script));
    const stdout = await npm([
      'exec',
      '--',
      'skilltree',
      'run',
      'agent.tsx',
      '--model',
      'scripted:script.json',
      '-m',
      'Add: call mum',
    ]);
    if (stdout !== 'Done: call mum.\n') throw new Error(`stdout: ${JSON.stringify(stdout)}`);
  });

  await step(label, 'npx skilltree eval todos.eval.tsx (the table on stdout, exit 0)', async () => {
    const stdout = await npm(['exec', '--', 'skilltree', 'eval', 'todos.eval.tsx']);
    if (!/selection\.recall\s+1\.00/.test(stdout) || !stdout.trimEnd().endsWith('passed')) {
      throw new Error(`skilltree eval printed:\n${stdout}`);
    }
  });

  await step(label, 'npx skilltree run agent.tsx --session (SQLite, twice: saved, then resumed)', async () => {
    const first = await npmAll(['exec', '--', 'skilltree', 'run', 'agent.tsx', '--session', 'first', '--json']);
    const json = first.slice(first.indexOf('{'), first.lastIndexOf('}') + 1);
    if (!JSON.parse(json).reply) throw new Error(`the first run gave no reply:\n${first}`);
    if (!existsSync(join(project, '.skilltree', 'sessions.db')))
      throw new Error('.skilltree/sessions.db was not written');
    const second = await npmAll(['exec', '--', 'skilltree', 'run', 'agent.tsx', '--session', 'first']);
    if (!/Resumed \d+ messages from first \(loaded: todos\)\./.test(second)) {
      throw new Error(`the second run did not say it resumed the session:\n${second}`);
    }
    for (const output of [first, second]) {
      if (/ExperimentalWarning/.test(output)) throw new Error(`a run printed a warning:\n${output}`);
    }
  });

  const npmVersion = (await runAs(env, 'npm', ['--version'], { stdout: 'capture' })).trim();
  const sqlite = hasSqlite
    ? `node:sqlite (SQLite ${(await runAs(env, 'node', ['-p', 'process.versions.sqlite'], { stdout: 'capture' })).trim()})`
    : `better-sqlite3 ${installedVersion(project, 'better-sqlite3')}`;
  const packages = Object.fromEntries(RECORDED.map(([name]) => [name, installedVersion(project, name)]));
  return {
    run: { node, npm: npmVersion, sqlite, packages },
    installMs,
    typescript59: installedVersion(project, 'typescript-5.9'),
  };
}

/** Each README's install line (and the getting-started page's), alone in a project: its types check. */
async function installLineChecks(packed, installed) {
  const label = 'install lines';
  const scaffolder = packed.find((p) => p.name === 'create-skilltree');
  const libraries = packed.filter((p) => p !== scaffolder);
  const byName = new Map(libraries.map((p) => [p.name, p]));
  const overrides = Object.fromEntries(libraries.map((p) => [p.name, `file:${p.tarball}`]));
  const cases = libraries.map((pkg) => ({
    name: pkg.name,
    doc: join(pkg.dir, 'README.md'),
    lines: installLines(readFileSync(join(pkg.dir, 'README.md'), 'utf8')),
    check: [pkg],
  }));
  const started = readFileSync(join(root, 'docs', 'getting-started.md'), 'utf8');
  const existing = installLines(started, '### An existing project');
  cases.push({
    name: 'getting-started (an existing project)',
    doc: join(root, 'docs', 'getting-started.md'),
    lines: existing,
    check: existing.flatMap((l) => l.specs.map((s) => byName.get(splitSpec(s).name)).filter(Boolean)),
  });
  const env = userEnv();
  const hostHasSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;
  await installed; // the timed installs run alone

  await step(
    label,
    `${cases.length} projects, each with exactly its documented install line: every export type-checks`,
    () =>
      mapLimit(cases, 3, async (c, i) => {
        const doc = c.doc.slice(root.length + 1);
        if (c.lines.length === 0) throw new Error(`${doc} has no install line (a \`\`\`sh block with npm install)`);
        const dir = join(work, `line-${i}`);
        mkdirSync(dir);
        const manifest = {
          name: `line-${i}`,
          private: true,
          type: 'module',
          dependencies: {},
          devDependencies: {},
          overrides,
        };
        for (const line of c.lines) {
          for (const spec of line.specs) {
            const { name, range } = splitSpec(spec);
            manifest[line.dev ? 'devDependencies' : 'dependencies'][name] = overrides[name] ?? range;
          }
        }
        if (!manifest.devDependencies.typescript && !manifest.dependencies.typescript) {
          throw new Error(
            `${doc}: the install lines name no typescript, so its users' types are not checked:\n${c.lines.map((l) => l.line).join('\n')}`,
          );
        }
        writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
        writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(EXISTING_PROJECT_TSCONFIG, null, 2)}\n`);
        // Install scripts off: types need no native build.
        const output = await runAs(
          env,
          'npm',
          ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
          {
            cwd: dir,
            stdout: 'capture-all',
            timeoutMs: 300_000,
          },
        );
        noBadEngine(output, `npm install of ${doc}'s line`);
        // An entry point whose types need an optional peer the line leaves out is for those who add it.
        const { text, count, skipped } = exportsFile(c.check, (pkg, subpath) => {
          const missing = missingOptionalPeers(dir, pkg.manifest, subpath);
          return missing.length > 0 ? `with ${missing.join(', ')}` : null;
        });
        writeFileSync(join(dir, 'exports.ts'), text);
        try {
          await runAs(env, 'node', [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], {
            cwd: dir,
            stdout: 'capture',
          });
        } catch (error) {
          throw new Error(
            `${doc}: with exactly ${c.lines.map((l) => `\`${l.line}\``).join(' and ')}, the types do not check:\n${error.message}`,
          );
        }
        const also = skipped.length > 0 ? `; not checked here: ${skipped.join(', ')}` : '';
        out(
          `consumer: [${label}]   ${c.name}: ${count} entry points ok (${c.lines.map((l) => l.line).join('; ')})${also}`,
        );
        if (c.name === '@skilltree/cli') await sessionWithoutDriver(dir, env, hostHasSqlite);
      }),
  );
}

/** `skilltree run --session` in a project with the CLI alone: works on node:sqlite, else one line saying what to install. */
async function sessionWithoutDriver(dir, env, hostHasSqlite) {
  writeFileSync(
    join(dir, 'agent.tsx'),
    "import { Agent, Instructions } from '@skilltree/core';\nexport default () => <Agent><Instructions>Hi.</Instructions></Agent>;\n",
  );
  writeFileSync(join(dir, 'script.json'), JSON.stringify([{ text: 'hello' }]));
  const args = [
    'exec',
    '--',
    'skilltree',
    'run',
    'agent.tsx',
    '--session',
    's',
    '--model',
    'scripted:script.json',
    '-m',
    'hi',
  ];
  try {
    const stdout = await runAs(env, 'npm', args, { cwd: dir, stdout: 'capture' });
    if (!hostHasSqlite) throw new Error(`--session ran without better-sqlite3 on Node ${hostNode}:\n${stdout}`);
  } catch (error) {
    if (hostHasSqlite) throw error;
    const message = error.message.split('\n').filter((l) => /better-sqlite3/.test(l));
    if (message.length !== 1 || !/npm install better-sqlite3@12/.test(message[0])) {
      throw new Error(
        `--session without better-sqlite3 on Node ${hostNode} should say, in one line, what to install:\n${error.message}`,
      );
    }
    out(`consumer: [install lines]   @skilltree/cli alone, --session on Node ${hostNode}: ${message[0].trim()}`);
  }
}

async function serviceVersions(postgres, redis) {
  const pg = await run('psql', [postgres, '-tAc', 'SHOW server_version'], { stdout: 'capture' }).catch(() => null);
  const info = await run('redis-cli', ['-u', redis, 'INFO', 'server'], { stdout: 'capture' }).catch(() => null);
  return {
    postgres: pg ? `PostgreSQL ${pg.trim().split(' ')[0]}` : 'unknown',
    redis: info ? `Redis ${/redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown'}` : 'unknown',
  };
}

try {
  if (work.startsWith(root + sep)) throw new Error(`${work} is inside the workspace ${root}`);
  // Node resolves packages in every parent's node_modules: none may exist above the projects.
  for (let dir = dirname(work); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules')) || existsSync(join(dir, 'pnpm-workspace.yaml'))) {
      throw new Error(`${dir} has a node_modules or a pnpm workspace: the projects would not be isolated`);
    }
    if (dirname(dir) === dir) break;
  }
  const postgres = process.env.SKILLTREE_TEST_POSTGRES_URL;
  const redis = process.env.SKILLTREE_TEST_REDIS_URL;
  if (only === 'install-lines') {
    await installLineChecks(
      await step('all', 'build and pack every public package', () => packAll({ out: tarballs, build: true })),
    );
    out(`consumer: ${passed} passed, 0 failed (${seconds(Date.now() - started)})`);
    if (keep) out(`consumer: kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
    process.exit(0);
  }
  if (only !== undefined) throw new Error(`--only=${only}: only --only=install-lines is known`);
  if (!postgres || !redis) {
    throw new Error(
      'The consumer test needs PostgreSQL and Redis: run it as `pnpm test:consumer` (through .ci/with-services).',
    );
  }
  const binaries = new Map(NODE_BINARIES.map((v) => [v.split('.')[0], v]));
  for (const major of majors) {
    if (major !== hostMajor && !binaries.has(major))
      throw new Error(`--node ${major}: not one of ${hostMajor}, ${[...binaries.keys()].join(', ')}`);
  }
  const [packed, bins] = await Promise.all([
    step('all', 'build and pack every public package', () => packAll({ out: tarballs, build: true })),
    step(
      'all',
      `the Node binaries (${majors.filter((m) => m !== hostMajor).join(', ') || 'none'}), cached`,
      async () => {
        const entries = await Promise.all(
          majors.filter((m) => m !== hostMajor).map(async (m) => [m, await nodeBinDir(binaries.get(m))]),
        );
        return new Map(entries);
      },
    ),
  ]);
  const prebuilds = localPrebuilds(join(work, 'prebuilds'));
  // The timed installs run one after the other; the rest waits for the last, then runs in parallel.
  let queue = Promise.resolve();
  let allTimed = () => {};
  const installed = new Promise((resolve) => {
    allTimed = resolve;
  });
  const timed = [];
  const installAlone = (fn) => {
    const done = queue.then(fn);
    queue = done.catch(() => {});
    timed.push(done);
    if (timed.length === majors.length) allTimed(Promise.allSettled(timed));
    return done;
  };
  const [results] = await Promise.all([
    Promise.all(
      majors.map((major) =>
        onNode(major, { packed, bin: bins.get(major), prebuilds, postgres, redis, installAlone, installed }),
      ),
    ),
    installLineChecks(packed, installed),
  ]);

  const report = {
    runs: results.map((r) => r.run),
    typescript: [results[0].run.packages.typescript, results[majors.indexOf(hostMajor)]?.typescript59].filter(Boolean),
    services: await serviceVersions(postgres, redis),
  };
  for (const [i, r] of results.entries())
    out(
      `consumer: install time on Node ${r.run.node}: ${seconds(r.installMs)}${r.installMs > INSTALL_TARGET_MS ? ' (over the 60 s target)' : ''} [${majors[i]}]`,
    );
  await step('all', 'the versions that ran are the ones docs/compatibility.md lists', async () => {
    const full = majors.join(',') === [hostMajor, ...binaries.keys()].join(',');
    if (update) {
      if (!full) throw new Error('--update needs every Node (leave out --node)');
      writeFileSync(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
      writeFileSync(DOC_FILE, withTable(readFileSync(DOC_FILE, 'utf8'), report));
      // In the repository's format, so that the lint step keeps passing.
      await run('pnpm', ['exec', 'biome', 'format', '--write', REPORT_FILE, DOC_FILE], { stdout: 'capture' });
      out(`consumer: wrote ${basename(REPORT_FILE)} and the table of ${basename(DOC_FILE)}`);
      return;
    }
    const expected = JSON.parse(readFileSync(REPORT_FILE, 'utf8'));
    const compared = full
      ? expected
      : { ...expected, runs: expected.runs.filter((r) => majors.includes(r.node.split('.')[0])) };
    const differences = reportDifferences(compared, full ? report : { ...report, runs: report.runs });
    if (differences.length > 0) {
      throw new Error(
        `What ran differs from scripts/compatibility.json (and so from docs/compatibility.md):\n  ${differences.join('\n  ')}\nIf the change is meant, run \`pnpm test:consumer --update\` and commit both files.`,
      );
    }
  });

  const total = Date.now() - started;
  out(`consumer: ${passed} passed, 0 failed (${seconds(total)})`);
  if (total > BUDGET_MS) out(`consumer: over the ${seconds(BUDGET_MS)} budget; see which step grew above`);
} catch (error) {
  out(error instanceof Error ? error.message : String(error));
  out(`consumer: ${passed} passed, 1 failed (${seconds(Date.now() - started)})`);
  if (!keep) out(`consumer: rerun with --keep to keep ${work}`);
  process.exitCode = 1;
} finally {
  if (keep) out(`consumer: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
