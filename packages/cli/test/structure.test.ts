/**
 * The CLI is commands over a kit: `src/commands/<name>/` for each command, `src/kit/` for what
 * they share, and `main.ts`/`index.ts` on top. A command reads the kit, never another command; the
 * kit never reads a command.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Relative imports of `file` (static, type-only and dynamic), as paths relative to `src`. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => m[1]);
  return specifiers.map((s) =>
    relative(src, resolve(dirname(file), s))
      .split(sep)
      .join('/'),
  );
}

/** `kit`, `commands/<name>`, or `top` for main.ts and index.ts. */
function part(path: string): string {
  const [first, second] = path.split('/');
  if (first === 'commands') return `commands/${second}`;
  if (first === 'kit') return 'kit';
  return 'top';
}

const edges = files(src).flatMap((file) => {
  const from = relative(src, file).split(sep).join('/');
  return imports(file).map((to) => ({ from, to }));
});

describe('the CLI is commands over a kit', () => {
  it('every source file is in the kit, in a command, or is main.ts / index.ts', () => {
    const stray = files(src)
      .map((file) => relative(src, file).split(sep).join('/'))
      .filter((path) => part(path) === 'top' && !['main.ts', 'index.ts'].includes(path));
    expect(stray).toEqual([]);
    expect(readdirSync(join(src, 'commands')).sort()).toEqual(['chat', 'dev', 'eval', 'run', 'serve']);
  });

  it('a command never imports another command', () => {
    const wrong = edges.filter(
      ({ from, to }) =>
        part(from).startsWith('commands/') && part(to).startsWith('commands/') && part(from) !== part(to),
    );
    expect(wrong).toEqual([]);
  });

  it('the kit never imports a command, main.ts or index.ts', () => {
    const wrong = edges.filter(({ from, to }) => part(from) === 'kit' && part(to) !== 'kit');
    expect(wrong).toEqual([]);
  });

  it('nothing imports main.ts or index.ts but index.ts itself', () => {
    const wrong = edges.filter(({ from, to }) => part(to) === 'top' && from !== 'index.ts');
    expect(wrong).toEqual([]);
  });

  it('the imports are read: the commands do use the kit', () => {
    // Guards the test itself: a pattern that matched nothing would make every rule above pass.
    expect(edges.some(({ from, to }) => from === 'commands/run/run.ts' && to === 'kit/flags.js')).toBe(true);
    expect(edges.some(({ from, to }) => from === 'main.ts' && to === 'commands/chat/index.js')).toBe(true);
  });
});
