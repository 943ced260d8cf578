#!/usr/bin/env node
// `pnpm test:consumer`: uses skilltree the way someone outside this repository does.
//
// 1. Builds and packs every public package (packages/*, not "private") into a temporary directory
//    outside the workspace.
// 2. Runs the packed create-skilltree (`npm exec --package=<tarball> -- create-skilltree`) to make a
//    project that installs those tarballs (`--from`).
// 3. `npm install` there: no workspace, no links, the registry for everything else.
// 4. The project's own `typecheck` (strict, no skipLibCheck) and `test`, as generated.
// 5. `npx skilltree run agent.tsx --json` (the scripted demo model): stdout must be the JSON alone;
//    then `--model scripted:<file>`.
// 6. Every other public package and every peer they declare (install scripts off: type-checking
//    needs no native build), TypeScript 5.9 beside 6, a file importing the types of every export of
//    every public package and a test using the model adapters: `typecheck` with TypeScript 6 and 5.9,
//    and `test` again.
// Any failing step fails the run. Budget: three minutes.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import semver from 'semver';
import { root, run } from './lib/workspace.mjs';
import { packAll } from './pack-all.mjs';

const BUDGET_MS = 180_000;

/** @ai-sdk/provider's index.d.ts imports `json-schema`, whose types live in @types/json-schema. */
const UNDECLARED_PEER_TYPES = { '@ai-sdk/provider': '@types/json-schema@7.0.15' };
const started = Date.now();
const keep = process.argv.includes('--keep');
let passed = 0;

function elapsed(since = started) {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

/** The environment of a user's shell: no pnpm/npm script variables, no model keys, no colors. */
function userEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|INIT_CWD$|TURBO_|ANTHROPIC_|OPENAI_|SKILLTREE_)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false' };
}

async function step(name, fn) {
  const since = Date.now();
  process.stdout.write(`consumer: ${name} ...\n`);
  try {
    const result = await fn();
    passed++;
    process.stdout.write(`consumer: ${name} ok (${elapsed(since)})\n`);
    return result;
  } catch (error) {
    process.stdout.write(`consumer: ${name} FAILED after ${elapsed(since)}\n`);
    throw error;
  }
}

/**
 * better-sqlite3 (the CLI's session store) installs a prebuilt binary from GitHub, or compiles for
 * ~100 s when it cannot reach it (CI cannot). prebuild-install's documented `local_prebuilds` option
 * gets it the same binary from a folder: the one pnpm already built for this workspace.
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

const env = userEnv();
const npm = (args, cwd, options = {}) => run('npm', args, { cwd, env, stdout: 'capture', ...options });

const work = realpathSync(mkdtempSync(join(tmpdir(), 'skilltree-consumer-')));
const tarballs = join(work, 'tarballs');
const project = join(work, 'my-agent');

try {
  if (work.startsWith(root + sep)) throw new Error(`${work} is inside the workspace ${root}`);
  // Node resolves packages in every parent's node_modules: none may exist above the project.
  for (let dir = dirname(work); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules')) || existsSync(join(dir, 'pnpm-workspace.yaml'))) {
      throw new Error(`${dir} has a node_modules or a pnpm workspace: the project would not be isolated`);
    }
    if (dirname(dir) === dir) break;
  }

  const packed = await step('build and pack every public package', () => packAll({ out: tarballs, build: true }));
  const scaffolder = packed.find((p) => p.name === 'create-skilltree');
  if (!scaffolder) throw new Error('create-skilltree was not packed');
  const libraries = packed.filter((p) => p !== scaffolder);

  await step('create-skilltree my-agent --from <tarballs>', async () => {
    const out = await npm(
      ['exec', '--yes', `--package=${scaffolder.tarball}`, '--', 'create-skilltree', 'my-agent', '--from', tarballs],
      work,
    );
    if (!out.includes('npm install')) throw new Error(`create-skilltree printed no next steps:\n${out}`);
  });

  Object.assign(env, localPrebuilds(join(work, 'prebuilds')));
  await step('npm install (no workspace, no links)', async () => {
    await npm(['install', '--no-audit', '--no-fund', '--prefer-offline'], project, { timeoutMs: 150_000 });
    for (const pkg of ['@skilltree/core', '@skilltree/testing', '@skilltree/cli']) {
      const dir = join(project, 'node_modules', pkg);
      if (!existsSync(dir) || lstatSync(dir).isSymbolicLink()) throw new Error(`${pkg} is not installed as a copy`);
    }
    for (const pkg of libraries) {
      if (existsSync(join(project, 'node_modules', pkg.name, 'node_modules', 'react'))) {
        throw new Error(`${pkg.name} got its own copy of react`);
      }
    }
  });

  await step('npm run typecheck (as generated: strict, no skipLibCheck, TypeScript 6)', () =>
    npm(['run', 'typecheck'], project),
  );
  await step('npm test (as generated)', () => npm(['test'], project));

  await step('npx skilltree run agent.tsx --json | JSON.parse (the demo model)', async () => {
    const out = await npm(['exec', '--', 'skilltree', 'run', 'agent.tsx', '--json'], project);
    let result;
    try {
      result = JSON.parse(out);
    } catch {
      throw new Error(`stdout is not JSON alone:\n${out}`);
    }
    if (result.reply !== 'Added "water the plants" to your todo list.') throw new Error(`reply: ${result.reply}`);
    if (!result.loadedSkills?.includes('todos'))
      throw new Error(`loadedSkills: ${JSON.stringify(result.loadedSkills)}`);
  });

  await step('npx skilltree run agent.tsx --model scripted:script.json -m ...', async () => {
    const script = [
      { toolCalls: [{ name: 'read_skill', input: { name: 'todos' } }] },
      { toolCalls: [{ name: 'add_todo', input: { text: 'call mum' } }] },
      { text: 'Done: call mum.' },
    ];
    writeFileSync(join(project, 'script.json'), JSON.stringify(script));
    const out = await npm(
      ['exec', '--', 'skilltree', 'run', 'agent.tsx', '--model', 'scripted:script.json', '-m', 'Add: call mum'],
      project,
    );
    if (out !== 'Done: call mum.\n') throw new Error(`stdout: ${JSON.stringify(out)}`);
  });

  await step('npx skilltree run agent.tsx --session (SQLite, twice: saved, then resumed)', async () => {
    for (let i = 0; i < 2; i++) {
      const out = await npm(['exec', '--', 'skilltree', 'run', 'agent.tsx', '--session', 'first', '--json'], project);
      const result = JSON.parse(out);
      if (!result.reply) throw new Error(`run ${i + 1} gave no reply:\n${out}`);
    }
    if (!existsSync(join(project, '.skilltree', 'sessions.db')))
      throw new Error('.skilltree/sessions.db was not written');
  });

  await step('install every public package, their peers (scripts off) and TypeScript 5.9', async () => {
    const present = (name) => existsSync(join(project, 'node_modules', name, 'package.json'));
    // The other libraries go into package.json with exactly the spec of the project's `overrides`:
    // npm refuses a direct dependency whose spec differs from its override, and it rewrites a
    // `file:` spec given on the command line to a relative one.
    const manifestPath = join(project, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    for (const p of libraries.filter((p) => !present(p.name))) {
      manifest.devDependencies[p.name] = manifest.overrides?.[p.name] ?? `file:${p.tarball}`;
    }
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    const specs = [];
    const peers = new Map();
    for (const pkg of libraries) {
      const dev = pkg.manifest.devDependencies ?? {};
      for (const [name, range] of Object.entries(pkg.manifest.peerDependencies ?? {})) {
        if (name.startsWith('@skilltree/') || present(name) || peers.has(name)) continue;
        // The version the package tests with, when it allows it; else the peer range itself.
        peers.set(name, semver.valid(dev[name]) && semver.satisfies(dev[name], range) ? dev[name] : range);
      }
    }
    specs.push(...[...peers].map(([name, version]) => `${name}@${version}`));
    // Types a peer's own .d.ts needs but does not declare (a user without skipLibCheck adds them too;
    // docs/compatibility.md says so).
    for (const [peer, extra] of Object.entries(UNDECLARED_PEER_TYPES)) {
      if (peers.has(peer) || present(peer)) specs.push(extra);
    }
    specs.push('typescript-5.9@npm:typescript@5.9.3');
    process.stdout.write(`consumer:   + ${specs.map((s) => s.replace(tarballs + sep, '')).join(' ')}\n`);
    await npm(
      ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', ...specs],
      project,
      {
        timeoutMs: 150_000,
      },
    );
  });

  await step('type-check every export of every public package, and the model adapters', async () => {
    const lines = [
      '// Written by the consumer test: the types of every public entry point, checked without skipLibCheck.',
    ];
    let n = 0;
    for (const pkg of libraries) {
      for (const subpath of Object.keys(pkg.manifest.exports ?? {})) {
        if (subpath.includes('*') || subpath.endsWith('.json')) continue;
        const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
        lines.push(`export type * as entry${n++} from '${specifier}';`);
      }
    }
    writeFileSync(join(project, 'skilltree-exports.ts'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(project, 'models.test.tsx'),
      `import { anthropic } from '@skilltree/models/anthropic';
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
    );
    const v6 = JSON.parse(readFileSync(join(project, 'node_modules', 'typescript', 'package.json'), 'utf8'));
    const v59 = JSON.parse(readFileSync(join(project, 'node_modules', 'typescript-5.9', 'package.json'), 'utf8'));
    const tsc59 = join(project, 'node_modules', 'typescript-5.9', 'bin', 'tsc');
    // The two compilers run side by side (two cores).
    await Promise.all([
      npm(['run', 'typecheck'], project).then(() =>
        process.stdout.write(`consumer:   TypeScript ${v6.version}: ${n} entry points ok\n`),
      ),
      run(process.execPath, [tsc59, '--noEmit'], { cwd: project, env, stdout: 'capture' }).then(() =>
        process.stdout.write(`consumer:   TypeScript ${v59.version}: ${n} entry points ok\n`),
      ),
    ]);
  });

  await step('npm test (with the model adapters)', () => npm(['test'], project));

  const total = Date.now() - started;
  process.stdout.write(`consumer: ${passed} passed, 0 failed (${elapsed()})\n`);
  if (total > BUDGET_MS) {
    process.stdout.write(`consumer: over the ${BUDGET_MS / 1000}s budget; see which step grew above\n`);
  }
} catch (error) {
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.stdout.write(`consumer: ${passed} passed, 1 failed (${elapsed()})\n`);
  if (!keep) process.stdout.write(`consumer: rerun with --keep to keep ${work}\n`);
  process.exitCode = 1;
} finally {
  if (keep) process.stdout.write(`consumer: kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
