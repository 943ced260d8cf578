import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests import the package by its public name, resolved to the sources.
export default defineConfig({
  resolve: {
    alias: [{ find: /^@skilltree\/mcp$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: { include: ['test/**/*.test.{ts,tsx}'], testTimeout: 20_000 },
});
