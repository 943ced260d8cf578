/**
 * `@skilltree/testing/vitest`: importing it registers the skilltree matchers with vitest's
 * `expect`, and a snapshot serializer that prints an agent handle as the request it would send.
 * Add it to `setupFiles`, or import it in a test file.
 *
 * @example
 * import '@skilltree/testing/vitest';
 * expect(agent).toHaveTool('checkout');
 *
 * @packageDocumentation
 */
import { expect } from 'vitest';
import { matchers, type SkilltreeMatchers } from './matchers.js';
import { prettyRequest } from './pretty.js';
import { isAgentHandle } from './render-agent.js';

export {
  type MatcherResult,
  type MatcherTarget,
  type MatcherThis,
  matchers,
  type SkilltreeMatchers,
  toHaveActiveSkill,
  toHaveContext,
  toHaveLoadedSkill,
  toHaveTool,
} from './matchers.js';

expect.extend(matchers);

expect.addSnapshotSerializer({
  test: (value: unknown) => isAgentHandle(value),
  serialize: (value: unknown) =>
    isAgentHandle(value)
      ? value.unmounted
        ? '(unmounted agent)'
        : prettyRequest(value.request(), { maxLength: Number.POSITIVE_INFINITY })
      : '',
});

declare module 'vitest' {
  // Vitest 4 merges custom matchers through `Matchers<T>`; `T` repeats its own type parameter.
  interface Matchers<T = any> extends SkilltreeMatchers<T> {}
  interface AsymmetricMatchersContaining extends SkilltreeMatchers<void> {}
}
