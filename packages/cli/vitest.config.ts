import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Real processes on a machine that may be busy: a hook that starts a server (beforeAll) gets
    // the same room as a test. Nothing waits on these; they only bound a hang.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
