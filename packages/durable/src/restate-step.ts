/** A step of a Restate invocation: how `restateEngine` records a model call, tool run or charge. */
import type * as Restate from '@restatedev/restate-sdk';
import { messageOf } from './restate-deferred.js';
import { awaitInOrder } from './restate-order.js';

/** A recorded step: its value, or the error it threw (name and message). */
type StepRecord = { value: unknown } | { failed: { name: string; message: string } };

/** The code of the Restate SDK's error that ends an attempt without ending its invocation (a suspension). */
export const SUSPENDED = 599;

/**
 * Records step `name` on invocation `ctx`: a `ctx.run`, journaled now (in the order steps start)
 * and awaited in that order (see restate-order.ts). With `hold` (a child's step, see
 * child-steps.ts), an attempt that ends while the step runs leaves it unsettled: the child's next
 * attempt replays or runs it and settles it for the run that asked.
 */
export async function stepOn<T>(ctx: Restate.Context, name: string, fn: () => Promise<T>, hold = false): Promise<T> {
  let live: { error: unknown } | undefined;
  const running = ctx.run<StepRecord>(name, async () => {
    try {
      return { value: await fn() };
    } catch (error) {
      live = { error };
      return { failed: { name: (error as Error)?.name ?? 'Error', message: messageOf(error) } };
    }
  });
  let record: StepRecord;
  try {
    record = await awaitInOrder(ctx, running);
  } catch (error) {
    if (hold) return new Promise<T>(() => {});
    throw error;
  }
  if (live) throw live.error;
  if ('failed' in record) throw Object.assign(new Error(record.failed.message), { name: record.failed.name });
  return record.value as T;
}
