import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

// Tests import the package by its public names, resolved to the sources.
const alias = [
  { find: /^@skilltree\/testing\/pure$/, replacement: src('pure.ts') },
  { find: /^@skilltree\/testing\/vitest$/, replacement: src('vitest.ts') },
  { find: /^@skilltree\/testing$/, replacement: src('index.ts') },
];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['test/**/*.test.{ts,tsx}'], exclude: ['test/globals/**'] },
      },
      {
        // The seed's lifecycle again, with every request's lifecycle deltas checked (see core's lifecycleProblems).
        resolve: { alias },
        test: { name: 'deltas', include: ['test/seed-lifecycle.test.tsx'], env: { SKILLTREE_CHECK_DELTAS: '1' } },
      },
      {
        // Auto-cleanup needs the runner's `afterEach` global.
        resolve: { alias },
        test: { name: 'globals', include: ['test/globals/**/*.test.{ts,tsx}'], globals: true },
      },
    ],
  },
});
