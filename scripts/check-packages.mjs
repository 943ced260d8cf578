#!/usr/bin/env node
// `pnpm check:packages [--build]`: packs every public package (packages/*, not "private") the way
// `pnpm publish` would, and fails unless each tarball
// - passes publint (strict: its warnings count as errors),
// - passes @arethetypeswrong/cli with `--profile esm-only` (types resolve under node16 from ESM
//   and under bundler; the packages are ESM-only on purpose, so `require()` resolution under
//   node10 / node16-from-CJS is not a goal: CommonJS callers use `await import()`),
// - has the metadata a published package needs (files, exports, engines, repository, license,
//   description, README.md and LICENSE in the tarball, publishConfig.access for scoped names),
// - keeps no `workspace:` range, declares every package its JavaScript and its .d.ts files import
//   (in dependencies or peerDependencies), and has dev versions that satisfy its peer ranges:
//   a peer range has to allow exactly what the repository tests with.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import semver from 'semver';
import ts from 'typescript';
import { log, mapLimit, run, shortDir } from './lib/workspace.mjs';
import { packAll } from './pack-all.mjs';

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Package name of a bare import specifier, or null for relative, absolute and builtin ones. */
function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  if (builtins.has(specifier) || builtins.has(specifier.split('/')[0])) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function* walk(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Bare packages imported by the built files (dist/**, bin/**) of an unpacked package. */
function importedPackages(unpacked, { declarationsOnly = false } = {}) {
  const found = new Map();
  for (const top of ['dist', 'bin']) {
    let files;
    try {
      files = [...walk(join(unpacked, top))];
    } catch {
      continue;
    }
    for (const file of files) {
      if (!/\.(m?js|cjs|d\.m?ts|d\.cts)$/.test(file)) continue;
      if (declarationsOnly && !/\.d\.[mc]?ts$/.test(file)) continue;
      // TypeScript's scanner finds import/export/require/import() and `/// <reference types>`,
      // and skips comments and strings (examples in TSDoc, the templates of create-skilltree).
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const ref of [...info.importedFiles, ...info.typeReferenceDirectives]) {
        const name = packageOf(ref.fileName);
        if (name && !found.has(name)) found.set(name, relative(unpacked, file));
      }
    }
  }
  return found;
}

function checkManifest(pkg, manifest, files) {
  const problems = [];
  const need = (ok, message) => {
    if (!ok) problems.push(message);
  };
  need(typeof manifest.description === 'string' && manifest.description.length > 0, 'add a "description"');
  need(typeof manifest.license === 'string', 'add a "license" (the repository uses "MIT")');
  need(manifest.type === 'module', 'set "type": "module" (the packages are ESM-only)');
  need(typeof manifest.engines?.node === 'string', 'add "engines": { "node": ">=20" }');
  need(
    manifest.engines?.node === undefined || semver.satisfies('20.19.0', manifest.engines.node),
    `"engines.node" is ${manifest.engines?.node}, which excludes Node 20`,
  );
  need(
    typeof manifest.repository === 'object' &&
      typeof manifest.repository.url === 'string' &&
      manifest.repository.directory === shortDir(pkg),
    `add "repository": { "type": "git", "url": "git+https://github.com/skilltree/skilltree.git", "directory": "${shortDir(pkg)}" }`,
  );
  need(Array.isArray(manifest.files) && manifest.files.length > 0, 'add "files" (what the tarball ships)');
  need(
    (typeof manifest.exports === 'object' && manifest.exports !== null) || manifest.bin !== undefined,
    'add "exports" (a library) or "bin" (a command)',
  );
  need(
    !manifest.name.startsWith('@') || manifest.publishConfig?.access === 'public',
    'add "publishConfig": { "access": "public" } (scoped packages publish as restricted otherwise)',
  );
  need(files.includes('README.md'), 'add a README.md beside package.json');
  need(files.includes('LICENSE'), 'add a LICENSE file beside package.json (copy the repository one)');
  // Peer ranges must allow the version the repository tests with (its devDependency).
  const dev = manifest.devDependencies ?? {};
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    const tested = dev[name];
    if (!tested || !semver.valid(tested)) continue;
    need(
      semver.satisfies(tested, range),
      `peer ${name}@"${range}" does not allow ${tested}, the version its tests use`,
    );
  }
  for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    need(!String(range).startsWith('workspace:'), `${name} still says "${range}" after packing`);
    need(!/^(file|link|portal):/.test(String(range)), `${name} points at a local path ("${range}")`);
  }
  return problems;
}

/** True when the installed package `name` (as `pkg` resolves it) ships its own type declarations. */
function shipsTypes(pkg, name) {
  const file = join(pkg.dir, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return true; // not installed here: nothing to judge
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  if (manifest.types || manifest.typings) return true;
  if (JSON.stringify(manifest.exports ?? null).includes('"types"')) return true;
  return existsSync(join(dirname(file), 'index.d.ts'));
}

/** A package's .d.ts files import a package without types: its `@types/x` must be a dependency. */
function checkDeclarationTypes(pkg, manifest, unpacked) {
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const problems = [];
  for (const [name, file] of importedPackages(unpacked, { declarationsOnly: true })) {
    if (name === manifest.name || name.startsWith('@types/') || shipsTypes(pkg, name)) continue;
    const typesName = name.startsWith('@') ? `@types/${name.slice(1).replace('/', '__')}` : `@types/${name}`;
    if (!declared.has(typesName)) {
      problems.push(
        `${file} imports types from "${name}", which has none of its own: add ${typesName} to dependencies (users without skipLibCheck need it)`,
      );
    }
  }
  return problems;
}

function checkImports(manifest, unpacked) {
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const problems = [];
  for (const [name, file] of importedPackages(unpacked)) {
    if (declared.has(name)) continue;
    // `@types/x` declares the types of `x`; a `.d.ts` importing `x` needs `x` or `@types/x`.
    const typesName = name.startsWith('@') ? `@types/${name.slice(1).replace('/', '__')}` : `@types/${name}`;
    if (declared.has(typesName)) continue;
    problems.push(`${file} imports "${name}", which is neither a dependency nor a peerDependency`);
  }
  return problems;
}

async function checkPackage(entry) {
  const problems = [];
  const unpacked = mkdtempSync(join(tmpdir(), 'skilltree-check-'));
  try {
    execFileSync('tar', ['-xzf', entry.tarball, '-C', unpacked, '--strip-components=1']);
    const files = readdirSync(unpacked);
    problems.push(...checkManifest(entry, entry.manifest, files));
    problems.push(...checkImports(entry.manifest, unpacked));
    problems.push(...checkDeclarationTypes(entry, entry.manifest, unpacked));

    const data = readFileSync(entry.tarball);
    const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    const result = await publint({ pack: { tarball }, strict: true, level: 'suggestion' });
    for (const message of result.messages) {
      const text = formatMessage(message, result.pkg, { color: false }) ?? message.code;
      if (message.type === 'suggestion') log(`  publint suggestion (${entry.name}): ${text}`);
      else problems.push(`publint: ${text}`);
    }

    try {
      await run(
        'pnpm',
        ['exec', 'attw', entry.tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color'],
        { stdout: 'capture' },
      );
    } catch (error) {
      problems.push(`@arethetypeswrong/cli --profile esm-only:\n${error instanceof Error ? error.message : error}`);
    }
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  return problems;
}

const build = process.argv.includes('--build');
const out = mkdtempSync(join(tmpdir(), 'skilltree-packs-'));
let failed = 0;
try {
  const packed = await packAll({ out, build });
  const results = await mapLimit(packed, 3, checkPackage);
  for (const [index, entry] of packed.entries()) {
    const problems = results[index];
    if (problems.length === 0) {
      log(`check:packages: ${entry.name}@${entry.version} ok (publint, attw esm-only, metadata, imports)`);
    } else {
      failed++;
      log(`check:packages: ${entry.name} (${shortDir(entry)}) is not ready to publish:`);
      for (const problem of problems) log(`  - ${problem.replace(/\n/g, '\n    ')}`);
    }
  }
  if (failed > 0) {
    log(`check:packages: ${failed} of ${packed.length} packages failed`);
    process.exitCode = 1;
  } else {
    log(`check:packages: ${packed.length} packages ready to publish (${packed.map((p) => p.name).join(', ')})`);
  }
} catch (error) {
  log(`check:packages: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
