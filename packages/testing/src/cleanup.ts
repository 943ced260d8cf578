/**
 * The agents a test rendered, and `cleanup()`, which unmounts them all.
 */

/** Anything `cleanup()` can unmount. */
export interface Mounted {
  unmount(): void;
}

const mounted = new Set<Mounted>();

/** @internal Records an agent rendered by `renderAgent`. */
export function track(agent: Mounted): void {
  mounted.add(agent);
}

/** @internal Forgets an agent that was unmounted. */
export function untrack(agent: Mounted): void {
  mounted.delete(agent);
}

/**
 * Unmounts every agent `renderAgent` mounted and not yet unmounted: effects clean up, sessions are
 * disposed. `@skilltree/testing` calls it after each test when the runner has an `afterEach`
 * global (vitest with `globals: true`, jest); with `@skilltree/testing/pure`, or without globals,
 * call it yourself: `afterEach(cleanup)`.
 */
export function cleanup(): void {
  const errors: unknown[] = [];
  for (const agent of [...mounted]) {
    mounted.delete(agent);
    try {
      agent.unmount();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'Several agents failed to unmount during cleanup().');
}
