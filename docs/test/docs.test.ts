/**
 * Keeps the docs honest:
 * - every `<!-- snippet: file -->` code block in docs/*.md is byte-for-byte the file docs/snippets/file;
 * - every snippet runs (except the few that need a real model and are only type-checked), and every
 *   `<!-- output: file -->` block is exactly what that snippet printed;
 * - every snippet file is shown on some page;
 * - the generated pages (what-the-model-receives.md, api.md, api/*.md) are up to date.
 *
 * `pnpm docs:update` rewrites all of it from the sources.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { generateApi } from '../scripts/api.js';
import { formatWithBiome } from '../scripts/format.js';
import { renderWhatTheModelReceives } from '../scripts/what-the-model-receives.js';

const docsDir = fileURLToPath(new URL('..', import.meta.url));
const snippetsDir = join(docsDir, 'snippets');
const UPDATE = process.env.UPDATE_DOCS === '1' && process.env.CI !== 'true';
const FIX = 'Run `pnpm docs:update` to regenerate it, and commit the result.';

/** Snippets that need a real model or a terminal: type-checked by `tsc`, not run. */
const COMPILE_ONLY: Record<string, string> = {
  'real-model.tsx': 'calls Anthropic; needs ANTHROPIC_API_KEY',
};

const snippetFiles = readdirSync(snippetsDir)
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
  .sort();
const allSnippetFiles = readdirSync(snippetsDir)
  .filter((f) => /\.tsx?$/.test(f))
  .sort();
const pages = readdirSync(docsDir)
  .filter((f) => f.endsWith('.md'))
  .sort();

const SNIPPET_BLOCK = /<!-- snippet: ([\w.-]+) -->\n```(\w*)\n([\s\S]*?)```\n/g;
const OUTPUT_BLOCK = /<!-- output: ([\w.-]+) -->\n```(\w*)\n([\s\S]*?)```\n/g;

const outputs = new Map<string, string>();

describe('snippets run', () => {
  for (const file of snippetFiles) {
    const reason = COMPILE_ONLY[file];
    if (reason) {
      test(`${file} is type-checked only (${reason})`, () => {
        expect(existsSync(join(snippetsDir, file))).toBe(true);
      });
      continue;
    }
    test(file, async () => {
      const lines: string[] = [];
      const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        lines.push(format(...args));
      });
      try {
        await import(`../snippets/${file}`);
      } finally {
        spy.mockRestore();
      }
      outputs.set(file, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    });
  }
});

describe('pages match their sources', () => {
  const shown = new Set<string>();
  for (const page of pages) {
    test(page, () => {
      const path = join(docsDir, page);
      const text = readFileSync(path, 'utf8');
      const problems: string[] = [];
      let next = text.replace(SNIPPET_BLOCK, (whole, name: string, lang: string) => {
        shown.add(name);
        const file = join(snippetsDir, name);
        if (!existsSync(file)) {
          problems.push(`${page} shows snippet "${name}", but docs/snippets/${name} does not exist.`);
          return whole;
        }
        return `<!-- snippet: ${name} -->\n\`\`\`${lang}\n${readFileSync(file, 'utf8')}\`\`\`\n`;
      });
      next = next.replace(OUTPUT_BLOCK, (whole, name: string, lang: string) => {
        const output = outputs.get(name);
        if (output === undefined) {
          problems.push(`${page} shows the output of "${name}", but that snippet did not run.`);
          return whole;
        }
        return `<!-- output: ${name} -->\n\`\`\`${lang}\n${output}\`\`\`\n`;
      });
      expect(problems).toEqual([]);
      if (UPDATE && next !== text) writeFileSync(path, next);
      else expect(text, `${page} shows a snippet or an output that differs from its source. ${FIX}`).toBe(next);
    });
  }
  afterAll(() => {
    const orphans = allSnippetFiles.filter((f) => !shown.has(f) && !f.endsWith('.test.tsx') && !f.endsWith('.test.ts'));
    expect(orphans, 'every file in docs/snippets is shown on a page').toEqual([]);
  });
});

function checkGenerated(files: Map<string, string>, owned: (path: string) => boolean) {
  const stale: string[] = [];
  for (const [path, text] of files) {
    const target = join(docsDir, path);
    const current = existsSync(target) ? readFileSync(target, 'utf8') : null;
    if (current === text) continue;
    if (UPDATE) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    } else stale.push(path);
  }
  // Files the generator no longer produces.
  const apiDir = join(docsDir, 'api');
  if (existsSync(apiDir)) {
    for (const entry of readdirSync(apiDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name).slice(docsDir.length).replace(/^\//, '');
      if (!owned(path) || files.has(path)) continue;
      if (UPDATE) rmSync(join(docsDir, path));
      else stale.push(`${path} (no longer generated)`);
    }
  }
  expect(stale, `Generated docs are stale. ${FIX}`).toEqual([]);
}

test('what-the-model-receives.md is generated from a real session', async () => {
  const page = formatWithBiome('docs/what-the-model-receives.md', await renderWhatTheModelReceives());
  checkGenerated(new Map([['what-the-model-receives.md', page]]), () => false);
});

test('api.md and api/ are generated from the TSDoc of every package', async () => {
  const pages = await generateApi();
  // docs/api/ is outside Biome's files; api.md is not.
  pages.set('api.md', formatWithBiome('docs/api.md', pages.get('api.md') ?? ''));
  checkGenerated(pages, (path) => path.startsWith('api/'));
  // TypeDoc over every package: over two minutes on a busy machine. The bound only catches a hang.
}, 600_000);

/** GitHub's heading anchor: lowercase, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of markdown.replace(/```[\s\S]*?```/g, '').split('\n')) {
    const heading = line.match(/^#{1,6} (.+)$/);
    if (!heading) continue;
    const base = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('relative links between the pages resolve', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(docsDir, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, hash] = target.split('#');
      const file = path ? join(docsDir, path) : join(docsDir, page);
      if (!existsSync(file)) {
        broken.push(`${page}: ${target} (no such file)`);
        continue;
      }
      if (hash && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(hash)) {
        broken.push(`${page}: ${target} (no heading with that anchor)`);
      }
    }
  }
  expect(broken).toEqual([]);
});
