import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['test/**/*.test.{ts,tsx}', 'snippets/**/*.test.{ts,tsx}'], testTimeout: 60_000 },
});
