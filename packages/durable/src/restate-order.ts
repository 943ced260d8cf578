/**
 * Awaiting a Restate invocation's promises one at a time. The Restate SDK (1.17) drives an
 * invocation's progress from the promise being awaited, through one channel per invocation that
 * takes one waiter at a time: two promises awaited side by side (the steps of subagent runs that
 * run in one round) fail the attempt with "awaitNext already pending". So each step's `ctx.run` is
 * called when the step starts (Restate journals it then, in start order), and the turn awaits the
 * steps' promises in that same order, one after another.
 */

/** The last promise of each invocation's chain (by its context). */
const chains = new WeakMap<object, Promise<unknown>>();

/**
 * Awaits `promise` (a promise of invocation `ctx`) once every promise handed here before it for the
 * same invocation has settled: only then is it awaited, so one of them is awaited at a time.
 */
export function awaitInOrder<T>(ctx: object, promise: PromiseLike<T>): Promise<T> {
  const before = chains.get(ctx) ?? Promise.resolve();
  const turn = before.then(() => promise);
  chains.set(
    ctx,
    turn.then(
      () => {},
      () => {},
    ),
  );
  return turn;
}
