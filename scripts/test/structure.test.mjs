// The repository's shape, read from the source files (no build needed): which @skilltree packages
// each package may import, that no file reaches into another package by a relative path, and that
// no import cycle forms, inside a package or between packages. `node --test scripts/test/`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import {
  codeFiles,
  cycles,
  packageOf,
  resolveRelative,
  shortPath,
  specifiers,
  workspacePackages,
} from '../lib/imports.mjs';

/**
 * The @skilltree packages each package may import (besides itself). Libraries build on core and
 * never on each other, except the CLI, which composes them; nothing imports an app, an example or
 * the docs. A new dependency between packages is a decision: make it here. `@skilltree/test-kit`
 * (test code packages share) is a test-only package: see TEST_ONLY.
 */
const ALLOWED = {
  '@skilltree/core': [],
  '@skilltree/testing': ['@skilltree/core', '@skilltree/test-kit'],
  '@skilltree/models': ['@skilltree/core', '@skilltree/test-kit'],
  // Its tests serve chats on each store through the server's handler, from real processes.
  '@skilltree/store': ['@skilltree/core', '@skilltree/server', '@skilltree/test-kit'],
  '@skilltree/server': ['@skilltree/core', '@skilltree/test-kit'],
  // Its tests render folder skills with the testing package.
  '@skilltree/agent-skills': ['@skilltree/core', '@skilltree/testing'],
  '@skilltree/mcp': ['@skilltree/core'],
  // Its tests record and replay conversations through the real adapters.
  '@skilltree/evals': ['@skilltree/core', '@skilltree/models', '@skilltree/test-kit'],
  '@skilltree/cli': [
    '@skilltree/core',
    '@skilltree/evals',
    '@skilltree/models',
    '@skilltree/server',
    '@skilltree/store',
    '@skilltree/test-kit',
  ],
  'create-skilltree': [],
  // Engines run core's turns; its crash suites keep chats on the PostgreSQL store, and their
  // worker fixture (test/fixtures only, never src) serves the chat routes through the server.
  '@skilltree/durable': ['@skilltree/core', '@skilltree/server', '@skilltree/store'],
  // Test code shared between packages (see TEST_ONLY): fixtures build on core.
  '@skilltree/test-kit': ['@skilltree/core'],
  // The page reads the dev server's protocol (@skilltree/cli/dev-protocol, types only), and opens
  // eval reports (@skilltree/evals: the report's types, and /format, which runs in a browser).
  '@skilltree/playground': ['@skilltree/cli', '@skilltree/core', '@skilltree/evals', '@skilltree/test-kit'],
  '@skilltree/example-agent-skills': [
    '@skilltree/agent-skills',
    '@skilltree/core',
    '@skilltree/mcp',
    '@skilltree/test-kit',
    '@skilltree/testing',
  ],
  '@skilltree/example-filesystem': ['@skilltree/core', '@skilltree/test-kit', '@skilltree/testing'],
  '@skilltree/example-research-notes': ['@skilltree/core', '@skilltree/test-kit', '@skilltree/testing'],
  '@skilltree/example-support-desk': [
    '@skilltree/core',
    '@skilltree/evals',
    '@skilltree/test-kit',
    '@skilltree/testing',
  ],
  '@skilltree/example-web-chat': ['@skilltree/core', '@skilltree/server', '@skilltree/test-kit'],
  '@skilltree/docs': [
    '@skilltree/agent-skills',
    '@skilltree/core',
    '@skilltree/evals',
    '@skilltree/example-support-desk',
    '@skilltree/mcp',
    '@skilltree/models',
    '@skilltree/server',
    '@skilltree/store',
    '@skilltree/test-kit',
    '@skilltree/testing',
  ],
};

/**
 * Packages only tests use: private, never published, so a package's src (what ships) never imports
 * one; its tests and fixtures may, as a devDependency.
 */
const TEST_ONLY = new Set(['@skilltree/test-kit']);

/**
 * Test-only packages a package's tests read from their sources rather than depend on, because the
 * test-only package builds on this one: core's tests share test-kit's fixtures, and test-kit builds on
 * core, so a dependency would be a cycle in the build graph. The package's vitest config and
 * tsconfig point the name at the sources (so one copy of core runs); it is no edge of the build graph.
 */
const FROM_SOURCES = { '@skilltree/core': ['@skilltree/test-kit'] };
const fromSources = (i) =>
  FROM_SOURCES[i.pkg.name]?.includes(packageOf(i.specifier)) && relative(i.pkg.dir, i.file).split(sep)[0] === 'test';

const packages = workspacePackages();
const names = new Set(packages.map((p) => p.name));
const ours = (specifier) => names.has(packageOf(specifier));

/** The package a path lies in (the innermost, for a fixture package inside a package). */
const packageAt = (path) =>
  packages.filter((p) => path === p.dir || path.startsWith(p.dir + sep)).sort((a, b) => b.dir.length - a.dir.length)[0];

/** Benches measure the workspace as a whole and are no part of a package: they may load its other packages' files. */
const isBench = (pkg, file) => relative(pkg.dir, file).split(sep)[0] === 'bench';

/** Files whose import lines are the text of files they write (a starter project's), not their own imports. */
const WRITES_CODE = new Set([
  'packages/create-skilltree/src/templates.ts',
  'packages/create-skilltree/src/addon-files.ts',
  'packages/create-skilltree/src/evals-files.ts',
]);

/** Every import of every code file: `{ pkg, file, specifier, target }` (target: the file a relative import names). */
const imports = packages.flatMap((pkg) =>
  codeFiles(pkg.dir)
    .filter((file) => !WRITES_CODE.has(shortPath(file)))
    .flatMap((file) =>
      specifiers(file).map((specifier) => ({
        pkg,
        file,
        specifier,
        target: specifier.startsWith('.') ? resolveRelative(file, specifier) : null,
      })),
    ),
);

test('the import reader sees the imports it checks (else every rule below would pass)', () => {
  const has = (file, specifier) => imports.some((i) => shortPath(i.file) === file && i.specifier === specifier);
  assert.ok(has('packages/cli/src/main.ts', './commands/chat/index.js'));
  assert.ok(has('packages/cli/src/kit/pick-model.ts', '@skilltree/models'));
  assert.ok(has('apps/playground/src/protocol.ts', '@skilltree/cli/dev-protocol'));
  assert.ok(imports.filter((i) => i.target).length > 500);
  // Examples in doc comments are not imports.
  assert.ok(!has('packages/models/src/providers.ts', './mistral-model.js'));
});

test('every workspace package has a row in the table of allowed imports', () => {
  assert.deepEqual(
    packages.map((p) => p.name).filter((name) => !(name in ALLOWED)),
    [],
    'add the package to ALLOWED in scripts/test/structure.test.mjs',
  );
});

test('each package imports only the @skilltree packages the table allows it', () => {
  const wrong = imports
    .filter((i) => ours(i.specifier) && !isBench(i.pkg, i.file) && !fromSources(i))
    .filter((i) => packageOf(i.specifier) !== i.pkg.name && !ALLOWED[i.pkg.name]?.includes(packageOf(i.specifier)))
    .map((i) => `${shortPath(i.file)} imports ${i.specifier}`);
  assert.deepEqual(wrong, []);
});

test('each @skilltree package a package imports is declared in its package.json', () => {
  const wrong = [];
  for (const pkg of packages) {
    const m = pkg.manifest;
    const declared = new Set(Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.peerDependencies }));
    for (const name of ALLOWED[pkg.name] ?? []) {
      const used = imports.some((i) => i.pkg === pkg && packageOf(i.specifier) === name);
      if (used && !declared.has(name)) wrong.push(`${pkg.name} imports ${name} without declaring it`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('no file imports another package by a relative path: packages import each other by name', () => {
  const wrong = imports
    .filter((i) => i.specifier.startsWith('.') && !isBench(i.pkg, i.file))
    .filter((i) => {
      const to = i.target ?? resolve(dirname(i.file), i.specifier);
      const owner = packageAt(to);
      // A file outside every package (the repository's own scripts) is no package's either.
      return owner !== undefined && owner !== packageAt(i.file);
    })
    .map((i) => `${shortPath(i.file)} → ${i.specifier}`);
  assert.deepEqual(wrong, []);
});

test('a test-only package is private and no shipped source imports it (tests in src/ may)', () => {
  for (const name of TEST_ONLY) {
    assert.equal(packages.find((p) => p.name === name)?.manifest.private, true, `${name} must say "private": true`);
  }
  const wrong = imports
    .filter((i) => TEST_ONLY.has(packageOf(i.specifier)))
    .filter((i) => relative(i.pkg.dir, i.file).split(sep)[0] === 'src' && !/\.test\.tsx?$/.test(i.file))
    .map((i) => `${shortPath(i.file)} imports ${i.specifier}: only tests may`);
  assert.deepEqual(wrong, []);
});

test('each package that imports a test-only package declares it as a devDependency', () => {
  const wrong = imports
    .filter((i) => TEST_ONLY.has(packageOf(i.specifier)) && i.pkg.name !== packageOf(i.specifier) && !fromSources(i))
    .filter((i) => !i.pkg.manifest.devDependencies?.[packageOf(i.specifier)])
    .map((i) => `${i.pkg.name} imports ${i.specifier} without a devDependency on it`);
  assert.deepEqual([...new Set(wrong)], []);
});

test('no import cycle between packages', () => {
  const graph = new Map(packages.map((p) => [p.name, new Set()]));
  for (const i of imports) {
    const to = packageOf(i.specifier);
    if (ours(i.specifier) && to !== i.pkg.name && !isBench(i.pkg, i.file) && !fromSources(i))
      graph.get(i.pkg.name).add(to);
  }
  assert.deepEqual(cycles(graph), []);
});

test('a package whose tests read a test-only package from sources aliases it there and never declares it', () => {
  const wrong = [];
  for (const [name, kits] of Object.entries(FROM_SOURCES)) {
    const pkg = packages.find((p) => p.name === name);
    const vitest = readFileSync(join(pkg.dir, 'vitest.config.ts'), 'utf8');
    const paths = JSON.parse(readFileSync(join(pkg.dir, 'tsconfig.json'), 'utf8')).compilerOptions?.paths ?? {};
    const m = pkg.manifest;
    for (const kit of kits) {
      if (!vitest.includes(kit.replace('/', '\\/'))) wrong.push(`${name}'s vitest.config.ts does not alias ${kit}`);
      if (!paths[kit]) wrong.push(`${name}'s tsconfig.json has no paths entry for ${kit}`);
      if (!paths[name]) wrong.push(`${name}'s tsconfig.json must map ${name} to its sources too (one copy of it)`);
      if ({ ...m.dependencies, ...m.devDependencies }[kit]) wrong.push(`${name} declares ${kit}: a cycle of builds`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('no import cycle between the files of any package or app (type-only and dynamic imports count)', () => {
  const graph = new Map();
  for (const i of imports) {
    const from = shortPath(i.file);
    if (!graph.has(from)) graph.set(from, new Set());
    if (i.target) graph.get(from).add(shortPath(i.target));
  }
  assert.deepEqual(cycles(graph), []);
});

test('the cycle finder finds cycles', () => {
  const graph = new Map([
    ['components', ['runtime']],
    ['runtime', ['store']],
    ['store', ['components']],
    ['view', ['view']],
    ['leaf', []],
  ]);
  assert.deepEqual(cycles(graph), [['components', 'runtime', 'store'], ['view']]);
});
