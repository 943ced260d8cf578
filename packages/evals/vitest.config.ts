import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

// Tests import the package by its public names, resolved to the sources.
const alias = [
  { find: /^@skilltree\/evals\/vitest$/, replacement: src('vitest.ts') },
  { find: /^@skilltree\/evals$/, replacement: src('index.ts') },
];

export default defineConfig({
  resolve: { alias },
  // Room for a busy machine: no test waits on a clock, but trials are CPU work.
  test: { include: ['test/**/*.test.{ts,tsx}'], testTimeout: 30_000 },
});
