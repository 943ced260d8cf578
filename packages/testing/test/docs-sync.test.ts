import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

/** Code blocks of docs/testing.md marked `<!-- source: path -->`, by path. */
function markedBlocks(page: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of page.matchAll(/<!-- source: ([\w./-]+) -->\n```\w*\n([\s\S]*?)```\n/g)) {
    blocks.set(match[1], match[2]);
  }
  return blocks;
}

test('docs/testing.md shows the worked example verbatim (the example runs as test/docs-example.test.tsx)', () => {
  const blocks = markedBlocks(read('../../../docs/testing.md'));
  expect([...blocks.keys()]).toEqual([
    'packages/testing/test/docs-example.tsx',
    'packages/testing/test/docs-example.test.tsx',
  ]);
  expect(blocks.get('packages/testing/test/docs-example.tsx')).toBe(read('./docs-example.tsx'));
  expect(blocks.get('packages/testing/test/docs-example.test.tsx')).toBe(read('./docs-example.test.tsx'));
});
