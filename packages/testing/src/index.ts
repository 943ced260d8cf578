/**
 * `@skilltree/testing`: test skilltree skills the way you test React components.
 *
 * Importing it sets `IS_REACT_ACT_ENVIRONMENT` (so React reports updates that escape `act`) and,
 * when the test runner has an `afterEach` global (vitest with `globals: true`, jest), unmounts
 * every rendered agent after each test. Set `SKILLTREE_SKIP_AUTO_CLEANUP=true`, or import
 * `@skilltree/testing/pure`, to opt out.
 *
 * @packageDocumentation
 */
import { setReactActEnvironment } from './act.js';
import { cleanup } from './cleanup.js';

export * from './pure.js';

setReactActEnvironment(true);

const runner = globalThis as { afterEach?: (fn: () => unknown) => void };
const skip = typeof process !== 'undefined' && !!process.env?.SKILLTREE_SKIP_AUTO_CLEANUP;
if (typeof runner.afterEach === 'function' && !skip) {
  runner.afterEach(() => {
    cleanup();
  });
}
