import { defineConfig } from 'vitest/config';

// The lifecycle suites run three times: as they are, with every request's lifecycle deltas checked
// against its classic layout (SKILLTREE_CHECK_DELTAS=1; see lifecycleProblems in src/request/deltas.ts), and
// append-only.
const LIFECYCLE = ['test/contract.test.tsx', 'test/lifecycle.test.tsx'];

// No test here waits on a clock; the property tests are CPU work, which a busy machine slows down
// several times over: they get room for that instead of vitest's 5 s.
const testTimeout = 30_000;

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'classic', include: ['test/**/*.test.{ts,tsx}'], testTimeout } },
      { test: { name: 'deltas', include: LIFECYCLE, env: { SKILLTREE_CHECK_DELTAS: '1' }, testTimeout } },
      // And once more with every session sending append-only requests (as to Claude Opus 5.5 or
      // GPT-5.6): the seed's semantics hold on that layout too.
      {
        test: {
          name: 'append-only',
          include: [...LIFECYCLE, 'test/append-only.test.tsx'],
          exclude: [],
          env: { SKILLTREE_APPEND_ONLY: '1' },
          testTimeout,
        },
      },
    ],
  },
});
