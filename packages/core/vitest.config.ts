import { defineConfig } from 'vitest/config';

// The lifecycle suites run twice: as they are, and with every request's lifecycle deltas checked
// against its classic layout (SKILLTREE_CHECK_DELTAS=1; see lifecycleProblems in src/deltas.ts).
const LIFECYCLE = ['test/contract.test.tsx', 'test/lifecycle.test.tsx'];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'classic', include: ['test/**/*.test.{ts,tsx}'] } },
      { test: { name: 'deltas', include: LIFECYCLE, env: { SKILLTREE_CHECK_DELTAS: '1' } } },
    ],
  },
});
