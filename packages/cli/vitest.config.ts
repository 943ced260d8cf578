import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 120_000,
  },
});
