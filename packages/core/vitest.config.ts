import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

// Core's tests share fixtures with the other packages' tests through @skilltree/test-kit, read from
// its sources: test-kit builds on core, so core cannot depend on its build (that would be a cycle in
// the build graph). Both names resolve to sources here, so the fixtures run on the same copy of core
// as the tests do. tsconfig.json's `paths` says the same to the type checker.
const alias = [
  { find: /^@skilltree\/core$/, replacement: here('./src/index.ts') },
  { find: /^@skilltree\/core\/provider$/, replacement: here('./src/provider.ts') },
  { find: /^@skilltree\/test-kit$/, replacement: here('../test-kit/src/index.ts') },
];

// The lifecycle suites run three times: as they are, with every request's lifecycle deltas checked
// against its classic layout (SKILLTREE_CHECK_DELTAS=1; see lifecycleProblems in src/request/deltas.ts), and
// append-only.
const LIFECYCLE = ['test/contract.test.tsx', 'test/lifecycle.test.tsx'];

// No test here waits on a clock; the property tests are CPU work, which a busy machine slows down
// several times over: they get room for that instead of vitest's 5 s.
const testTimeout = 30_000;

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: 'classic', include: ['test/**/*.test.{ts,tsx}'], testTimeout } },
      {
        resolve: { alias },
        test: { name: 'deltas', include: LIFECYCLE, env: { SKILLTREE_CHECK_DELTAS: '1' }, testTimeout },
      },
      // And once more with every session sending append-only requests (as to Claude Opus 5.5 or
      // GPT-5.6): the seed's semantics hold on that layout too.
      {
        resolve: { alias },
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
