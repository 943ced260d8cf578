// The install lines the documentation gives, read back so the consumer test can install exactly
// them: a package's README (its first ```sh block with an install command) and the getting-started
// page's "existing project" block, with the tsconfig that page gives.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** The tsconfig that docs/getting-started.md gives an existing project (a scripts test keeps the page equal to it). */
export const EXISTING_PROJECT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    jsx: 'react-jsx',
    strict: true,
    noEmit: true,
    types: ['node'],
  },
};

/**
 * The install commands of the first ```sh block of `markdown` that has one (`npm install`,
 * `npm i`, `pnpm add`), in order. Comments (` # …`) are dropped; `-D`/`--save-dev` mark a dev line.
 * @param {string} markdown
 * @param {string} [after] start looking after the first line that contains this text
 * @returns {{ dev: boolean, specs: string[], line: string }[]}
 */
export function installLines(markdown, after) {
  let text = markdown;
  if (after !== undefined) {
    const at = text.indexOf(after);
    if (at < 0) throw new Error(`no "${after}" in the page`);
    text = text.slice(at);
  }
  for (const block of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    const lines = [];
    for (const raw of block[1].split('\n')) {
      const line = raw.replace(/\s#.*$/, '').trim();
      const match = /^(?:npm (?:install|i)|pnpm add)\s+(.*)$/.exec(line);
      if (!match) continue;
      const words = match[1].split(/\s+/).filter(Boolean);
      const dev = words.some((w) => w === '-D' || w === '--save-dev');
      const specs = words.filter((w) => !w.startsWith('-')).map((w) => w.replace(/^(['"])(.*)\1$/, '$2'));
      lines.push({ dev, specs, line });
    }
    if (lines.length > 0) return lines;
  }
  return [];
}

/**
 * Splits `name@range` (also `@scope/name@range`) into its parts; the range is `latest` when absent,
 * as npm reads a bare name.
 * @param {string} spec
 */
export function splitSpec(spec) {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at < 0 ? { name: spec, range: 'latest' } : { name: spec.slice(0, at), range: spec.slice(at + 1) };
}

/** Bare package names imported by a declaration file and the package's own declaration files it imports. */
function declarationImports(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return new Set();
  seen.add(file);
  const found = new Set();
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  for (const ref of [...info.importedFiles, ...info.typeReferenceDirectives]) {
    const spec = ref.fileName;
    if (spec.startsWith('.')) {
      const next = resolve(dirname(file), spec.replace(/\.js$/, '.d.ts'));
      for (const name of declarationImports(next, seen)) found.add(name);
    } else if (!spec.startsWith('node:')) {
      found.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  }
  return found;
}

/**
 * The optional peers of an installed package that one of its entry points needs for its types and
 * that the project lacks: such an entry point is for those who install the peer (e.g.
 * `@skilltree/models/ai-sdk` and `@ai-sdk/provider`).
 * @param {string} project
 * @param {Record<string, any>} manifest the package's package.json
 * @param {string} subpath `.` or `./x`
 */
export function missingOptionalPeers(project, manifest, subpath) {
  const dir = join(project, 'node_modules', manifest.name);
  const target = manifest.exports?.[subpath];
  const types = typeof target === 'object' ? target.types : undefined;
  if (!types) return [];
  const optional = Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta?.optional)
    .map(([name]) => name);
  const imported = declarationImports(join(dir, types));
  return optional.filter(
    (name) => imported.has(name) && !existsSync(join(project, 'node_modules', name, 'package.json')),
  );
}
