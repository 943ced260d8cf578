/**
 * Generates the API reference (docs/api.md and docs/api/*.md) from the TSDoc comments of every
 * public entry point of the packages under packages/, with TypeDoc and typedoc-plugin-markdown.
 *
 * `pnpm docs:update` writes it; the docs test regenerates it in memory and
 * fails when the committed files are stale.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, Converter, LogLevel } from 'typedoc';

const docsDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(docsDir, '..');

/** The package name of `packages/<folder>` (`core` → `@skilltree/core`, `create-skilltree` → itself). */
function packageName(folder: string): string {
  const manifest = join(repoDir, 'packages', folder, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name : folder;
}

/** The source file behind each `exports` entry of every public package (`./dist/x.js` → `src/x.ts(x)`). */
export function entryPoints(): string[] {
  const out: string[] = [];
  const packagesDir = join(repoDir, 'packages');
  for (const name of readdirSync(packagesDir).sort()) {
    const manifest = join(packagesDir, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown>; private?: boolean };
    // A private package (the test kit) is no one's API: it is never published.
    if (pkg.private === true) continue;
    for (const target of Object.values(pkg.exports ?? {})) {
      const dist = typeof target === 'string' ? target : (target as { default?: string }).default;
      const match = dist?.match(/^\.\/dist\/(.+)\.js$/);
      if (!match) continue;
      for (const ext of ['.ts', '.tsx']) {
        const source = join(packagesDir, name, 'src', `${match[1]}${ext}`);
        if (existsSync(source)) {
          out.push(source);
          break;
        }
      }
    }
  }
  return out;
}

function readTree(dir: string, base = dir, files = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) readTree(path, base, files);
    else files.set(relative(base, path), readFileSync(path, 'utf8'));
  }
  return files;
}

const HEADER = `# API reference

Generated from the TSDoc comments in \`packages/*/src\` by TypeDoc. Do not edit by hand: run
\`pnpm docs:update\` after changing a public API. For the ideas behind the names,
start with [the lifecycle](./lifecycle.md).

`;

/**
 * The generated pages, keyed by their path relative to docs/: `api.md` (the entry) and `api/*.md`
 * (one page per entry point).
 */
export async function generateApi(): Promise<Map<string, string>> {
  const out = mkdtempSync(join(tmpdir(), 'skilltree-api-'));
  try {
    const app = await Application.bootstrapWithPlugins({
      entryPoints: entryPoints(),
      tsconfig: join(docsDir, 'tsconfig.typedoc.json'),
      plugin: ['typedoc-plugin-markdown'],
      out,
      readme: 'none',
      disableSources: true,
      excludeInternal: true,
      excludePrivate: true,
      logLevel: LogLevel.Error,
      // typedoc-plugin-markdown options
      outputFileStrategy: 'modules',
      entryFileName: 'index',
      hidePageHeader: true,
      hideBreadcrumbs: true,
      parametersFormat: 'table',
      interfacePropertiesFormat: 'table',
      classPropertiesFormat: 'table',
      useCodeBlocks: true,
      excludeScopesInPaths: true,
    } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
    // Modules are named after their import path (`@skilltree/models/anthropic`), not their folder.
    app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
      for (const mod of context.project.children ?? []) {
        mod.name = mod.name.replace(
          /^([\w-]+)\/src(?:\/index)?(\/.+)?$/,
          (_all, folder: string, sub = '') => `${packageName(folder)}${sub}`,
        );
      }
    });
    const project = await app.convert();
    if (!project) throw new Error('TypeDoc could not convert the packages (see the errors above).');
    await app.generateOutputs(project);
    const pages = new Map<string, string>();
    for (const [path, text] of readTree(out)) {
      if (path === 'index.md') {
        // The entry page lives beside the other docs: point its links into api/.
        const body = text.replace(/^# .*\n+/, '').replace(/\]\((?!https?:|#)/g, '](api/');
        pages.set('api.md', `${HEADER}${body}`);
      } else {
        pages.set(join('api', path), text);
      }
    }
    return pages;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
