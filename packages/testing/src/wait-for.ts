/**
 * `waitFor`: retry an assertion until it passes, for skills that change on their own (data loaded in
 * an effect, a suspended component whose promise resolves, a timer).
 */
import { withoutActEnvironment } from './act.js';

/** Options of {@link waitFor} and of every `findBy*` query. */
export interface WaitForOptions {
  /** Milliseconds before giving up with the callback's last error. Default 1000. */
  timeout?: number;
  /** Milliseconds between attempts. Default 50. */
  interval?: number;
  /** Turns the last error into the error `waitFor` rejects with. */
  onTimeout?: (error: Error) => Error;
}

// Captured at import, so a test that installs fake timers later does not freeze the polling.
const realSetTimeout = globalThis.setTimeout;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}

/**
 * Calls `callback` until it returns (or resolves) without throwing, and resolves with its value.
 * Between attempts React and the skill's own async work get to run. Rejects with the callback's
 * last error after `timeout` ms.
 *
 * Runs with `IS_REACT_ACT_ENVIRONMENT` off, like `@testing-library/react`: updates that arrive
 * while a test waits are expected, not test code that forgot `act`.
 *
 * Uses real timers; with fake timers installed, advance them yourself instead.
 *
 * @example
 * await waitFor(() => expect(agent).toHaveContext('Orders: 3'));
 */
export function waitFor<T>(callback: () => T | Promise<T>, options: WaitForOptions = {}): Promise<T> {
  const timeout = options.timeout ?? 1000;
  const interval = options.interval ?? 50;
  return withoutActEnvironment(async () => {
    const start = Date.now();
    let last: unknown;
    for (;;) {
      try {
        return await callback();
      } catch (error) {
        last = error;
      }
      const left = timeout - (Date.now() - start);
      if (left <= 0) break;
      await sleep(Math.min(interval, left));
    }
    const error =
      last instanceof Error ? last : new Error(`waitFor timed out after ${timeout}ms: ${String(last ?? 'no attempt')}`);
    throw options.onTimeout ? options.onTimeout(error) : error;
  });
}
