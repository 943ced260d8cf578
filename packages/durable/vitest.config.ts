import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

// Tests import the package by its public names, resolved to the sources.
const alias = [
  { find: /^@skilltree\/durable\/(dbos|restate|testing)$/, replacement: src('$1.ts') },
  { find: /^@skilltree\/durable$/, replacement: src('index.ts') },
];

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Real servers and child processes that are killed and recovered: give them room, one file at a time.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
