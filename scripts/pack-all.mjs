#!/usr/bin/env node
// `pnpm pack:all [--out <dir>] [--no-build]`: builds every public package, packs each with
// `pnpm pack` (which turns `workspace:` ranges into real versions) and prints, on stdout, the
// exact commands that install the tarballs into a project outside this repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildPublicPackages, log, mapLimit, publicPackages, root, run, shortDir } from './lib/workspace.mjs';

/** The package.json inside a tarball. */
export function packedManifest(tarball) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
}

/** File names inside a tarball, without the leading `package/`. */
export function packedFiles(tarball) {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
}

/**
 * Packs every public package into `out` (emptied first). Throws when a packed package.json still
 * holds a `workspace:` range.
 * @returns {Promise<{ name: string, version: string, dir: string, tarball: string, manifest: Record<string, any> }[]>}
 */
export async function packAll({ out, build = true }) {
  if (build) {
    log('pack:all: building the public packages (turbo)');
    await buildPublicPackages();
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const packed = await mapLimit(publicPackages(), 4, async (pkg) => {
    await run('pnpm', ['pack', '--pack-destination', out], { cwd: pkg.dir, stdout: 'capture' });
    const file = `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
    const tarball = join(out, file);
    if (!existsSync(tarball)) throw new Error(`pnpm pack in ${shortDir(pkg)} did not write ${file}`);
    const manifest = packedManifest(tarball);
    const leftover = Object.entries({
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.optionalDependencies,
    }).filter(([, range]) => String(range).startsWith('workspace:'));
    if (leftover.length > 0) {
      throw new Error(`${tarball} still has workspace ranges: ${leftover.map(([n, r]) => `${n}@${r}`).join(', ')}`);
    }
    log(`pack:all: ${pkg.name}@${pkg.version} -> ${file}`);
    return { ...pkg, tarball, manifest };
  });
  return packed;
}

/** The versions the packed create-skilltree pins (its dist/versions.json), the same ones pack:all prints. */
export function packedVersions(tarball) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/dist/versions.json'], { encoding: 'utf8' }));
}

/**
 * What pack:all prints: the command that makes a new project from the tarballs, and the two lines
 * that install them into an existing project (runtime, then dev), with the versions create-skilltree
 * pins. docs/getting-started.md shows the same lines.
 * @param {{ name: string, tarball: string, manifest: Record<string, any> }[]} packed
 * @param {{ tools: Record<string, string> }} versions
 */
export function installInstructions(packed, versions) {
  const scaffolder = packed.find((p) => p.manifest.bin?.['create-skilltree'] || p.name === 'create-skilltree');
  const libraries = packed.filter((p) => p !== scaffolder);
  const isDev = (p) => /\/(testing|cli)$/.test(p.name);
  const dir = packed.length > 0 ? resolve(packed[0].tarball, '..') : '';
  const t = versions.tools;
  const lines = [];
  if (scaffolder) {
    lines.push(
      'A new project from these tarballs (add --with server,store,agent-skills,mcp,models for those packages, each',
      'with an example and its test):',
      '',
      `  npm exec --yes --package=${scaffolder.tarball} -- create-skilltree my-agent --from ${dir}`,
      '  cd my-agent && npm install && npm test',
      '',
    );
  }
  lines.push(
    'An existing project ("type": "module"): these two lines name every tarball, so npm installs them',
    'from here and never looks for them on the registry:',
    '',
    `  npm install ${[...libraries.filter((p) => !isDev(p)).map((p) => p.tarball), `react@${t.react}`, `zod@${t.zod}`].join(' ')}`,
    `  npm install -D ${[
      ...libraries.filter(isDev).map((p) => p.tarball),
      `vitest@${t.vitest}`,
      `typescript@${t.typescript}`,
      `tsx@${t.tsx}`,
      `@types/react@${t['@types/react']}`,
      `@types/node@${t['@types/node']}`,
    ].join(' ')}`,
  );
  return `${lines.join('\n')}\n`;
}

function parseArgs(argv) {
  const options = { out: join(root, 'tarballs'), build: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--no-build') options.build = false;
    else if (arg === '--out') options.out = argv[++i];
    else if (arg.startsWith('--out=')) options.out = arg.slice('--out='.length);
    else throw new Error(`pack:all: unknown argument ${arg} (usage: pnpm pack:all [--out <dir>] [--no-build])`);
  }
  if (!options.out) throw new Error('pack:all: --out needs a directory');
  // pnpm runs root scripts in the root; INIT_CWD is where `pnpm pack:all` was typed.
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by pnpm for this script, not an input of a turbo task
  const from = process.env.INIT_CWD ?? process.cwd();
  options.out = isAbsolute(options.out) ? options.out : resolve(from, options.out);
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const options = parseArgs(process.argv.slice(2));
    const packed = await packAll(options);
    const scaffolder = packed.find((p) => p.name === 'create-skilltree');
    const versions = packedVersions(scaffolder.tarball);
    process.stdout.write(
      `\nPacked ${packed.length} packages into ${options.out}\n\n${installInstructions(packed, versions)}`,
    );
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
