/**
 * docs/evals.md shows this example's eval file in full (`<!-- source: … -->`): it must be the file,
 * byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

test('docs/evals.md shows evals/support-desk.eval.tsx as it is', () => {
  const page = readFileSync(join(root, 'docs', 'evals.md'), 'utf8');
  const path = 'examples/support-desk/evals/support-desk.eval.tsx';
  const block = page.match(
    /<!-- source: examples\/support-desk\/evals\/support-desk\.eval\.tsx -->\n```tsx\n([\s\S]*?)```\n/,
  );
  expect(block, `docs/evals.md has no <!-- source: ${path} --> block`).not.toBeNull();
  expect(block?.[1], `docs/evals.md shows an old ${path}: copy the file into the block`).toBe(
    readFileSync(join(root, path), 'utf8'),
  );
});
