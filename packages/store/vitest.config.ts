import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

// Tests import the package by its public names, resolved to the sources.
const alias = [
  { find: /^@skilltree\/store\/(sqlite|postgres|redis|testing)$/, replacement: src('$1.ts') },
  { find: /^@skilltree\/store$/, replacement: src('index.ts') },
];

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Real servers and child processes: give the slow tests room, and run files one at a time so
    // the multi-process test has the machine's cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fileParallelism: false,
  },
});
