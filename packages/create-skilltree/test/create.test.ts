import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  AI_SDK_7,
  aiSdkFor,
  bundledVersions,
  createProject,
  describeFiles,
  detectPackageManager,
  findTarballs,
  type Io,
  main,
  nodeHasSqlite,
  parseAddons,
  toPackageName,
  typesNodeFor,
  workspaceVersions,
} from '../src/index.js';

/**
 * How long a test that runs vitest or tsc in a generated project may take before it is called hung.
 * Not a margin the test relies on (it waits for the processes to exit): on a machine at load 25 the
 * two processes took over two minutes, so the guard is far above any healthy run.
 */
const PROCESS_GUARD = 600_000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'create-skilltree-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function io(cwd: string, env: Record<string, string> = {}): Io & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    stdin,
    env,
    cwd,
    out: () => out,
    err: () => err,
  };
}

const manifest = (project: string) => JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));

test('writes the project with the scripts, and pins the versions the repository tests with', async () => {
  const session = io(dir);
  expect(await main(['my-agent'], session)).toBe(0);
  const project = join(dir, 'my-agent');
  const pkg = manifest(project);
  const versions = bundledVersions();

  expect(pkg.name).toBe('my-agent');
  expect(pkg.type).toBe('module');
  expect(pkg.scripts).toEqual({
    dev: 'skilltree dev agent.tsx',
    chat: 'skilltree chat agent.tsx',
    demo: 'skilltree run agent.tsx',
    test: 'vitest run',
    typecheck: 'tsc --noEmit',
  });
  expect(pkg.dependencies).toEqual({
    '@skilltree/core': `^${versions.skilltree['@skilltree/core']}`,
    react: versions.tools.react,
    zod: versions.tools.zod,
  });
  expect(pkg.devDependencies['@skilltree/cli']).toBe(`^${versions.skilltree['@skilltree/cli']}`);
  expect(pkg.devDependencies['@skilltree/testing']).toBe(`^${versions.skilltree['@skilltree/testing']}`);
  expect(pkg.devDependencies.vitest).toMatch(/^4\.\d+\.\d+$/);
  expect(pkg.overrides).toBeUndefined();

  for (const file of ['agent.tsx', 'agent.test.tsx', 'tsconfig.json', 'vitest.config.ts', 'README.md', '.gitignore']) {
    expect(readFileSync(join(project, file), 'utf8').length).toBeGreaterThan(0);
  }
  const tsconfig = JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8'));
  expect(tsconfig.compilerOptions.strict).toBe(true);
  expect(tsconfig.compilerOptions.skipLibCheck).toBeUndefined();
  expect(readFileSync(join(project, 'agent.tsx'), 'utf8')).toMatch(/createAgentStore/);
  expect(session.out()).toContain('npm install');
  expect(session.out()).toContain('npm test');
});

test('the versions come from the checkout: the packages of packages/* and what they test with', () => {
  const versions = workspaceVersions(join(import.meta.dirname, '..', '..', '..'));
  const core = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'core', 'package.json'), 'utf8'));
  expect(versions.skilltree['@skilltree/core']).toBe(core.version);
  expect(versions.tools.react).toBe(core.devDependencies.react);
  expect(versions.skilltree).not.toHaveProperty('create-skilltree');
});

test('--from writes file: specs and overrides every @skilltree package to its tarball', async () => {
  const packs = join(dir, 'packs');
  mkdirSync(packs);
  for (const f of ['skilltree-core-0.1.0.tgz', 'skilltree-testing-0.1.0.tgz', 'skilltree-cli-0.1.0.tgz']) {
    writeFileSync(join(packs, f), '');
  }
  writeFileSync(join(packs, 'skilltree-agent-skills-0.2.0-beta.1.tgz'), '');
  writeFileSync(join(packs, 'create-skilltree-0.1.0.tgz'), '');

  expect(await main(['app', '--from', 'packs'], io(dir))).toBe(0);
  const pkg = manifest(join(dir, 'app'));
  expect(pkg.dependencies['@skilltree/core']).toBe(`file:${join(packs, 'skilltree-core-0.1.0.tgz')}`);
  expect(pkg.devDependencies['@skilltree/cli']).toBe(`file:${join(packs, 'skilltree-cli-0.1.0.tgz')}`);
  expect(pkg.overrides).toEqual({
    '@skilltree/agent-skills': `file:${join(packs, 'skilltree-agent-skills-0.2.0-beta.1.tgz')}`,
    '@skilltree/cli': `file:${join(packs, 'skilltree-cli-0.1.0.tgz')}`,
    '@skilltree/core': `file:${join(packs, 'skilltree-core-0.1.0.tgz')}`,
    '@skilltree/testing': `file:${join(packs, 'skilltree-testing-0.1.0.tgz')}`,
  });
  expect(pkg.pnpm.overrides).toEqual(pkg.overrides);
});

test('--from a directory without the tarballs says how to make them', async () => {
  mkdirSync(join(dir, 'empty'));
  const session = io(dir);
  expect(await main(['app', '--from', 'empty'], session)).toBe(1);
  expect(session.err()).toMatch(/has no tarball of @skilltree\/core\. Run `pnpm pack:all`/);
  expect(() => findTarballs(join(dir, 'missing'))).toThrow(/is not a directory/);
});

test('refuses a non-empty directory unless --force', async () => {
  mkdirSync(join(dir, 'taken'));
  writeFileSync(join(dir, 'taken', 'notes.txt'), 'mine');
  const session = io(dir);
  expect(await main(['taken'], session)).toBe(1);
  expect(session.err()).toMatch(/taken is not empty \(use --force/);
  expect(await main(['taken', '--force'], io(dir))).toBe(0);
  expect(readFileSync(join(dir, 'taken', 'notes.txt'), 'utf8')).toBe('mine');
});

test('asks nothing without a terminal: no directory means my-agent', async () => {
  expect(await main([], io(dir))).toBe(0);
  expect(manifest(join(dir, 'my-agent')).name).toBe('my-agent');
});

test('usage errors exit 2; --help and --version print on stdout', async () => {
  const bad = io(dir);
  expect(await main(['--nope'], bad)).toBe(2);
  expect(bad.err()).toMatch(/Unknown option '--nope'/);
  expect(await main(['a', 'b'], io(dir))).toBe(2);
  const help = io(dir);
  expect(await main(['--help'], help)).toBe(0);
  expect(help.out()).toMatch(/^Usage: create-skilltree \[directory\]/);
  const version = io(dir);
  expect(await main(['-v'], version)).toBe(0);
  expect(version.out()).toMatch(/^\d+\.\d+\.\d+/);
});

test('names and package managers', () => {
  expect(toPackageName('My Agent!')).toBe('my-agent');
  expect(toPackageName('...')).toBe('my-agent');
  expect(detectPackageManager({ npm_config_user_agent: 'pnpm/10.34.9 npm/? node/v20.20.0 linux x64' })).toBe('pnpm');
  expect(detectPackageManager({})).toBe('npm');
  const project = createProject({ dir: join(dir, 'p'), packageManager: 'pnpm' });
  expect(readFileSync(join(project.dir, 'README.md'), 'utf8')).toContain('pnpm chat');
});

describe('--with adds packages, each with what it needs and an example with its test', () => {
  test('server, store, agent-skills and mcp: the packages, their peers, the examples and their tests', async () => {
    const session = io(dir);
    expect(await main(['app', '--with', 'server,store', '--with', 'agent-skills,mcp'], session)).toBe(0);
    const project = join(dir, 'app');
    const pkg = manifest(project);
    const { skilltree, tools } = bundledVersions();
    for (const name of ['@skilltree/server', '@skilltree/store', '@skilltree/agent-skills', '@skilltree/mcp']) {
      expect(pkg.dependencies[name]).toBe(`^${skilltree[name]}`);
    }
    expect(pkg.dependencies.ai).toBe(tools.ai);
    expect(pkg.dependencies['@ai-sdk/react']).toBe(tools['@ai-sdk/react']);
    expect(pkg.dependencies['@modelcontextprotocol/sdk']).toBe(tools['@modelcontextprotocol/sdk']);
    expect(pkg.scripts.serve).toBe('tsx server.tsx');
    for (const file of [
      'server.tsx',
      'server.test.tsx',
      'sessions.tsx',
      'sessions.test.tsx',
      'folder-agent.tsx',
      'folder-agent.test.tsx',
      'skills/plant-care/SKILL.md',
      'skills/plant-care/references/schedule.md',
      'mcp-agent.tsx',
      'mcp-agent.test.tsx',
    ]) {
      expect(readFileSync(join(project, file), 'utf8').length, file).toBeGreaterThan(0);
    }
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toContain('- `server.tsx`: ');
  });

  test('store adds better-sqlite3 (and allows its install script) only for a Node without node:sqlite', () => {
    const on20 = createProject({ dir: join(dir, 'node20'), addons: ['store'], nodeHasSqlite: false });
    expect(on20.dependencies['better-sqlite3']).toBe(bundledVersions().tools['better-sqlite3']);
    expect(manifest(on20.dir).allowScripts).toEqual({ 'better-sqlite3': true, esbuild: true });
    const on24 = createProject({ dir: join(dir, 'node24'), addons: ['store'], nodeHasSqlite: true });
    expect(on24.dependencies).not.toHaveProperty('better-sqlite3');
    expect(manifest(on24.dir).allowScripts).toEqual({ esbuild: true });
    // node:sqlite loads without a flag from Node 22.13 and 23.4 on.
    const [major, minor] = process.versions.node.split('.').map(Number);
    expect(nodeHasSqlite()).toBe(major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13));
  });

  test('an unknown name is a usage error that lists the choices; nothing is written', async () => {
    const session = io(dir);
    expect(await main(['app', '--with', 'server,database'], session)).toBe(2);
    expect(session.err()).toMatch(
      /--with: unknown database \(choose from server, store, agent-skills, mcp, models, evals\)/,
    );
    expect(() => readFileSync(join(dir, 'app', 'package.json'))).toThrow();
    expect(parseAddons(['mcp,server', ' store '])).toEqual(['server', 'store', 'mcp']);
  });

  test('with --from, each added package comes from its tarball, and a missing one is named', async () => {
    const packs = join(dir, 'packs');
    mkdirSync(packs);
    for (const f of ['core', 'testing', 'cli', 'server', 'models', 'store']) {
      writeFileSync(join(packs, `skilltree-${f}-0.1.0.tgz`), '');
    }
    expect(await main(['app', '--from', 'packs', '--with', 'server'], io(dir))).toBe(0);
    const pkg = manifest(join(dir, 'app'));
    expect(pkg.dependencies['@skilltree/server']).toBe(`file:${join(packs, 'skilltree-server-0.1.0.tgz')}`);
    expect(pkg.overrides['@skilltree/server']).toBe(pkg.dependencies['@skilltree/server']);

    const session = io(dir);
    expect(await main(['other', '--from', 'packs', '--with', 'mcp'], session)).toBe(1);
    expect(session.err()).toMatch(/has no tarball of @skilltree\/mcp\. Run `pnpm pack:all`/);
  });

  test('prints every file it wrote, with what it is, and every dependency with its version', async () => {
    const session = io(dir);
    expect(await main(['app', '--with', 'store'], session)).toBe(0);
    const printed = session.out();
    const { skilltree, tools } = bundledVersions();
    expect(printed).toMatch(/^Created app in .*app:\n/);
    expect(printed).toMatch(/\n {2}sessions\.test\.tsx +a conversation that outlives the process\n/);
    expect(printed).toMatch(/\n {2}vitest\.config\.ts +the tests' own config/);
    expect(printed).toContain('\ndependencies:\n');
    expect(printed).toMatch(
      new RegExp(`\\n {2}@skilltree/store +\\^${skilltree['@skilltree/store'].replace(/\./g, '\\.')}\\n`),
    );
    expect(printed).toMatch(new RegExp(`\\n {2}vitest +${tools.vitest.replace(/\./g, '\\.')}\\n`));
    for (const file of Object.keys(describeFiles({ addons: ['store'] }))) expect(printed).toContain(`  ${file} `);
  });
});

test(
  "a vite.config.ts in a folder above does not capture the project's tests: it has its own vitest config",
  () => {
    const parent = join(dir, 'web-app');
    mkdirSync(parent);
    writeFileSync(join(parent, 'vite.config.ts'), "export default { test: { include: ['web/**/*.test.ts'] } };\n");
    const project = createProject({ dir: join(parent, 'agent'), addons: ['store'] });
    const vitest = join(import.meta.dirname, '..', 'node_modules', 'vitest', 'vitest.mjs');
    const list = () =>
      spawnSync(process.execPath, [vitest, 'list', '--filesOnly'], {
        cwd: project.dir,
        encoding: 'utf8',
        env: { ...process.env, CI: '1' },
      });

    const listed = list();
    expect(listed.stdout.split('\n').filter(Boolean).sort()).toEqual(['agent.test.tsx', 'sessions.test.tsx']);

    // Without the project's own config, the parent's is used and the tests are not found: the rule above.
    rmSync(join(project.dir, 'vitest.config.ts'));
    expect(list().stdout.trim()).toBe('');
  },
  PROCESS_GUARD,
);

describe('--with server gets the AI SDK major that fits the Node the project is made on', () => {
  test('AI SDK 6 on Node 20, AI SDK 7 on Node 22 and later (its packages declare Node >= 22)', () => {
    const { tools, aiSdk } = bundledVersions();
    expect(aiSdk?.['20']).toEqual({ ai: tools.ai, '@ai-sdk/react': tools['@ai-sdk/react'] });
    expect(aiSdk?.['22']).toEqual(AI_SDK_7);
    let n = 0;
    const made = (major: number) =>
      createProject({ dir: join(dir, `ai${major}-${n++}`), nodeMajor: major, addons: ['server'] }).dependencies;
    expect(made(20).ai).toMatch(/^6\.\d+\.\d+$/);
    expect(made(20)['@ai-sdk/react']).toMatch(/^3\.\d+\.\d+$/);
    for (const major of [22, 24, 26]) {
      expect(made(major).ai).toBe(AI_SDK_7.ai);
      expect(made(major)['@ai-sdk/react']).toBe(AI_SDK_7['@ai-sdk/react']);
    }
    expect(AI_SDK_7.ai).toMatch(/^7\.\d+\.\d+$/);
    expect(AI_SDK_7['@ai-sdk/react']).toMatch(/^4\.\d+\.\d+$/);
  });

  test("the server's peer range accepts both majors", () => {
    const server = JSON.parse(readFileSync(new URL('../../server/package.json', import.meta.url), 'utf8'));
    const range: string = server.peerDependencies.ai;
    expect(range.split('||').map((r) => r.trim())).toEqual(['^6.0.0', '^7.0.0']);
  });

  test('a versions.json from before the table gives every Node the one AI SDK it names', () => {
    const versions = { tools: { ai: '6.0.1', '@ai-sdk/react': '3.0.1' } } as Parameters<typeof aiSdkFor>[1];
    expect(aiSdkFor(24, versions)).toEqual({ ai: '6.0.1', '@ai-sdk/react': '3.0.1' });
  });
});

describe('@types/node follows the Node the project is made on', () => {
  test("pins the running Node's major: the @types/node of 20, 22 or 24 on that Node", () => {
    const { typesNode } = bundledVersions();
    expect(Object.keys(typesNode).sort()).toEqual(['20', '22', '24']);
    for (const major of [20, 22, 24]) {
      const project = createProject({ dir: join(dir, `node${major}`), nodeMajor: major });
      expect(project.devDependencies['@types/node']).toBe(typesNode[String(major)]);
      expect(project.devDependencies['@types/node']).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
    }
    // By default, this process's Node.
    const here = Number(process.versions.node.split('.')[0]);
    expect(createProject({ dir: join(dir, 'here') }).devDependencies['@types/node']).toBe(
      typesNodeFor(here, typesNode),
    );
  });

  test('a Node line without its own pin gets the newest one below it (an older one, the oldest)', () => {
    const typesNode = { '20': '20.19.43', '22': '22.20.7', '24': '24.19.4' };
    expect(typesNodeFor(26, typesNode)).toBe('24.19.4');
    expect(typesNodeFor(23, typesNode)).toBe('22.20.7');
    expect(typesNodeFor(18, typesNode)).toBe('20.19.43');
  });
});

/** The checkout's root, and the folder whose node_modules has the one react and vitest that @skilltree/testing uses. */
const repo = join(import.meta.dirname, '..', '..', '..');
const testingModules = join(repo, 'packages', 'testing', 'node_modules');

/**
 * Creates a project with `addon` in the test folder, linked to this checkout: its `testFile` passes
 * offline (vitest's summary matches `passed`) and the project type-checks.
 */
function expectProjectPasses(addon: 'models' | 'evals', testFile: string, passed: RegExp): void {
  const project = createProject({ dir: join(dir, 'app'), addons: [addon] });
  linkCheckout(project.dir);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    CI: '1',
    NO_COLOR: '1',
  };
  const tests = spawnSync(process.execPath, [join(testingModules, 'vitest', 'vitest.mjs'), 'run', testFile], {
    cwd: project.dir,
    encoding: 'utf8',
    env,
  });
  expect(tests.status, `${tests.stdout}\n${tests.stderr}`).toBe(0);
  expect(tests.stdout).toMatch(passed);
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const typecheck = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project.dir], { encoding: 'utf8', env });
  expect(typecheck.status, typecheck.stdout).toBe(0);
}

/** Gives `project` a node_modules of links into this checkout: what `npm install` would put there. */
function linkCheckout(project: string): void {
  const links: Record<string, string> = {
    '@skilltree/core': join(repo, 'packages', 'core'),
    '@skilltree/models': join(repo, 'packages', 'models'),
    '@skilltree/testing': join(repo, 'packages', 'testing'),
    '@skilltree/evals': join(repo, 'packages', 'evals'),
    react: join(testingModules, 'react'),
    zod: join(testingModules, 'zod'),
    vitest: join(testingModules, 'vitest'),
    '@types/react': join(testingModules, '@types', 'react'),
    '@types/node': join(testingModules, '@types', 'node'),
  };
  for (const [name, target] of Object.entries(links)) {
    if (name.startsWith('@skilltree/') && !existsSync(join(target, 'dist'))) {
      throw new Error(`${name} is not built: run "pnpm build" first.`);
    }
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(target), link, 'dir');
  }
}

describe('--with models', () => {
  test('adds @skilltree/models with model.ts (Anthropic or OpenAI by the key that is set) and its test', async () => {
    expect(await main(['app', '--with', 'models'], io(dir))).toBe(0);
    const project = join(dir, 'app');
    expect(manifest(project).dependencies['@skilltree/models']).toBe(
      `^${bundledVersions().skilltree['@skilltree/models']}`,
    );
    expect(readFileSync(join(project, 'model.ts'), 'utf8')).toContain('export function chooseModel(');
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toContain('- `model.test.tsx`: ');
  });

  // Runs vitest and tsc in the new project: the test waits for both processes to exit.
  test("the example's test passes offline, against a local OpenAI-compatible server, and the project type-checks", {
    timeout: PROCESS_GUARD,
  }, () => {
    expectProjectPasses('models', 'model.test.tsx', /Tests +2 passed/);
  });
});

describe('--with evals', () => {
  test('adds @skilltree/evals with an eval suite of the agent, its test, and an eval script', async () => {
    const session = io(dir);
    expect(await main(['app', '--with', 'evals'], session)).toBe(0);
    const project = join(dir, 'app');
    const pkg = manifest(project);
    // A tool of the tests, as docs/evals.md installs it: a devDependency.
    expect(pkg.devDependencies['@skilltree/evals']).toBe(`^${bundledVersions().skilltree['@skilltree/evals']}`);
    expect(pkg.dependencies).not.toHaveProperty('@skilltree/evals');
    expect(pkg.scripts.eval).toBe('skilltree eval agent.eval.tsx');
    const suite = readFileSync(join(project, 'agent.eval.tsx'), 'utf8');
    expect(suite).toContain('export default defineEval({');
    expect(suite).toContain("import { TodoAgent } from './agent.js';");
    expect(readFileSync(join(project, 'agent.eval.test.tsx'), 'utf8')).toContain('describeEval(suite');
    const readme = readFileSync(join(project, 'README.md'), 'utf8');
    expect(readme).toContain('- `agent.eval.tsx`: ');
    expect(readme).toContain('npm run eval');
    expect(session.out()).toMatch(/\n {2}agent\.eval\.test\.tsx +the evals as tests/);
  });

  // Runs vitest and tsc in the new project: the test waits for both processes to exit.
  test('the generated evals pass offline as tests (a test per threshold, per case and for the run), and the project type-checks', {
    timeout: PROCESS_GUARD,
  }, () => {
    expectProjectPasses('evals', 'agent.eval.test.tsx', /Tests +5 passed/);
  });
});
