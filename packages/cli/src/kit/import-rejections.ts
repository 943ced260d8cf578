/**
 * A module's import, with the promises it leaves rejected noted rather than fatal. A module may
 * export a Promise that rejects (`export const engine = connect()`) or start one it never awaits:
 * Node would end the process with the bare rejection before the CLI could say which export it was.
 * While the module is imported, such rejections are collected; a rejected export is then handled
 * here and named by the export's check (see `module-options.ts`), and any other is the module's
 * load failing, with its reason.
 */
import { CliError } from './errors.js';

/** Whether `value` is a Promise (or another thenable). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Imports a module with `load`, and returns its exports and the promises that rejected unhandled
 * while it loaded (with why). Every exported Promise is given a handler before the import's watch
 * ends, so none of them ends the process later. A rejection that is not an export's throws a
 * {@link CliError} naming module `name` and the reason.
 */
export async function importNotingRejections(
  load: () => Promise<Record<string, unknown>>,
  name: string,
): Promise<{ exports: Record<string, unknown>; rejected: Map<unknown, unknown> }> {
  const rejected = new Map<unknown, unknown>();
  const note = (reason: unknown, promise: Promise<unknown>) => rejected.set(promise, reason);
  process.on('unhandledRejection', note);
  let exports: Record<string, unknown>;
  try {
    exports = await load();
    for (const value of Object.values(exports)) {
      try {
        if (isThenable(value)) value.then(undefined, (reason: unknown) => rejected.set(value, reason));
      } catch {
        // A `then` that throws when read or called is no Promise: the export's own check names it.
      }
    }
    // An export that has rejected already hands its reason to the handler above in this turn.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', note);
  }
  const exported = new Set<unknown>(Object.values(exports));
  for (const [promise, reason] of rejected) {
    if (exported.has(promise)) continue;
    const why = reason instanceof Error ? reason.message : String(reason);
    throw new CliError(
      `Could not load ${name}: a Promise it made while loading rejected, and nothing handled it: ${why}. Await it (or add .catch) in the module.`,
    );
  }
  return { exports, rejected };
}
