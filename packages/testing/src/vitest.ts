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

// Every matcher and its types, for a test that calls one directly.
export * from './matchers.js';

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
  // Vitest 4 merges custom matchers through `Matchers<T>` alone: `expect(x).toHaveTool()`,
  // `expect.not` and the asymmetric `expect.toHaveTool()` all read it. `T` repeats its own type
  // parameter. Augmenting `AsymmetricMatchersContaining` as well makes vitest's own `ExpectStatic`
  // extend two different signatures of each matcher: an error in vitest's .d.ts that only projects
  // without `skipLibCheck` see.
  interface Matchers<T = any> extends SkilltreeMatchers<T> {}
}
