/**
 * `act` for the skilltree renderer, and the wrapper that runs the session's own async work outside
 * of it. Mirrors `@testing-library/react`'s `act-compat` and `asyncWrapper`.
 */
import * as React from 'react';

type ActGlobal = typeof globalThis & { IS_REACT_ACT_ENVIRONMENT?: boolean };

/** Whether React currently treats this environment as a test environment that uses `act`. */
export function getIsReactActEnvironment(): boolean | undefined {
  return (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT;
}

/** Sets `globalThis.IS_REACT_ACT_ENVIRONMENT`, the flag React reads before warning about updates outside `act`. */
export function setReactActEnvironment(value: boolean | undefined): void {
  (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = value;
}

type ReactAct = (callback: () => unknown) => unknown;
const reactAct = (React as unknown as { act?: ReactAct }).act;

/** How many `act` callbacks of this package are running. */
let actDepth = 0;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * React's `act`, with `IS_REACT_ACT_ENVIRONMENT` switched on for its duration. Everything React
 * scheduled inside the callback (renders, effects, the updates effects make) is flushed before
 * `act` returns (or resolves, for an async callback).
 *
 * You rarely need it: `renderAgent`, `rerender`, `unmount` already run inside `act`, and the
 * session's async operations (`callTool`, `say`, `readSkill`) settle React work themselves.
 * Use it when your own test code updates state a skill subscribes to, e.g. a store:
 *
 * @example
 * act(() => cart.of(agent.session).setState({ items: ['lamp'] }));
 *
 * Do not wrap the agent's async methods in `act`: inside an `act` scope React holds back the work
 * the session waits for.
 */
export function act<T>(callback: () => Promise<T>): Promise<T>;
export function act<T>(callback: () => T): T;
export function act(callback: () => unknown): unknown {
  // `act` is not available in production builds of React: run the callback as is.
  if (!reactAct) return callback();
  const previous = getIsReactActEnvironment();
  setReactActEnvironment(true);
  actDepth++;
  const done = () => {
    actDepth--;
    setReactActEnvironment(previous);
  };
  try {
    let async = false;
    let value: unknown;
    const result = reactAct(() => {
      value = callback();
      if (isThenable(value)) async = true;
      return value;
    });
    if (!async) {
      done();
      // React's act returns a thenable even for a sync callback; the caller wants the value.
      return value;
    }
    return Promise.resolve(result as PromiseLike<unknown>).then(
      (value) => {
        done();
        return value;
      },
      (error) => {
        done();
        throw error;
      },
    );
  } catch (error) {
    done();
    throw error;
  }
}

let asyncDepth = 0;
let savedEnvironment: boolean | undefined;

/**
 * Runs an async operation with `IS_REACT_ACT_ENVIRONMENT` switched off, then restores it. The
 * session settles React's work itself (flushes renders and effects, waits for the updates effects
 * make), so the updates it causes are not test code forgetting `act`. Overlapping calls nest: the
 * flag is restored when the last one finishes.
 */
export async function withoutActEnvironment<T>(operation: () => Promise<T>): Promise<T> {
  if (asyncDepth++ === 0) {
    savedEnvironment = getIsReactActEnvironment();
    setReactActEnvironment(false);
  }
  try {
    return await operation();
  } finally {
    if (--asyncDepth === 0) setReactActEnvironment(savedEnvironment);
  }
}

/**
 * Throws when called inside an `act` callback (of this package's `act`). The session waits for
 * React's work to finish (renders, effects, the updates effects make); inside `act` React queues
 * that work until the scope ends, so the session would record a result that misses it.
 */
export function assertOutsideAct(method: string): void {
  if (actDepth > 0) {
    throw new Error(
      `${method} was called inside act(...). Call it without act: it settles React's work itself, and inside act React holds that work back until the act scope ends, so the result would miss it.`,
    );
  }
}
