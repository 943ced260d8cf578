import { defineConfig } from 'vitest/config';

// No test waits on a clock; the long conversations are CPU work that a busy machine slows down
// several times over: they get room for that instead of vitest's 5 s.
export default defineConfig({
  test: { include: ['test/**/*.test.{ts,tsx}'], testTimeout: 30_000 },
});
