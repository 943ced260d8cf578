// Reads the import graph of the workspace from the source files: which files each file imports
// (relative imports resolved to files) and which packages. For the structure test; no build needed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { root } from './workspace.mjs';

const CODE = /\.(?:[cm]?[jt]sx?)$/;
const SKIP = new Set(['node_modules', 'dist', 'coverage', '.turbo', '.vite']);

/**
 * Every workspace package (the folders pnpm-workspace.yaml names), with its manifest.
 * @returns {{ name: string, dir: string, manifest: Record<string, any> }[]}
 */
export function workspacePackages() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.matchAll(/^\s+-\s+['"]?([\w./*-]+)['"]?\s*$/gm)]
    .map((m) => m[1])
    .filter((g) => !g.includes('.') || g.includes('/'));
  const dirs = [];
  for (const glob of globs) {
    if (glob.endsWith('/*')) {
      const base = join(root, glob.slice(0, -2));
      if (!existsSync(base)) continue;
      for (const entry of readdirSync(base, { withFileTypes: true }))
        if (entry.isDirectory()) dirs.push(join(base, entry.name));
    } else {
      dirs.push(join(root, glob));
    }
  }
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .map(({ dir, manifest }) => ({ name: manifest.name, dir, manifest }));
}

/** The code files of a package (sources, tests, scripts, fixtures), never node_modules or build output. */
export function codeFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // A nested package (a fixture with its own package.json) still belongs to this one's files.
      out.push(...codeFiles(path));
    } else if (CODE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

/** Source text without comments, so that examples in doc comments are not read as imports. */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[\s;{}(),])\/\/[^\n]*/g, '$1');
}

/**
 * The module specifiers a file imports: static imports and re-exports (type-only ones too),
 * side-effect imports, `import('…')` and `require('…')` with a literal.
 */
export function specifiers(file) {
  const text = withoutComments(readFileSync(file, 'utf8'));
  const found = new Set();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;
  for (const match of text.matchAll(pattern)) found.add(match[2]);
  return [...found];
}

/** The file a relative specifier names (a `.js` specifier names its `.ts`/`.tsx` source), or null. */
export function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier.split('?')[0]);
  const stem = base.replace(/\.[cm]?jsx?$/, '');
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'].map((ext) => stem + ext),
    ...['index.ts', 'index.tsx', 'index.js', 'index.mjs'].map((name) => join(base, name)),
  ];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

/** `@skilltree/core/x` → `@skilltree/core`; `react/jsx-runtime` → `react`. */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** A path relative to the repository root, with forward slashes, for messages. */
export function shortPath(path) {
  return relative(root, path).split(sep).join('/');
}

/**
 * One cycle of `graph` (node → nodes it points to) per strongly connected component with more
 * than one node or a self-edge, as the nodes in order.
 * @param {Map<string, Iterable<string>>} graph
 * @returns {string[][]}
 */
export function cycles(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (node) => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indexOf.get(next)));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfEdge = [...(graph.get(node) ?? [])].includes(node);
      if (component.length > 1 || selfEdge) out.push(component.reverse());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return out;
}
