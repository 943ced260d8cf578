/**
 * Stopping a running turn from anywhere: `sessions.stop(id)` stops a turn of this process at once,
 * and asks the store to stop one that runs in another process (`SessionStore.requestStop`). Every
 * running turn reads the store's answer for its own lease a few times a second (`watchStop`), so a
 * stop reaches the turn wherever it runs, without sticky routing or a channel between processes.
 */
import type { SessionStore } from './session-store.js';

/**
 * How often a running turn asks the store whether a stop was asked of it, in ms: a stop reaches a
 * turn in another process within about this, plus one store round trip, well within a second.
 */
export const STOP_POLL_MS = 250;

/**
 * The reason a stopped turn ends with. It is an `AbortError`, as any abort of the turn; the text
 * starts with `Interrupted` because that is what the call in flight reads as its result: it may or
 * may not have taken effect.
 */
export function stoppedError(id: string): Error {
  const error = new Error(
    `Interrupted: the turn of chat "${id}" was stopped (sessions.stop(), e.g. POST /chat/:id/stop); what it did is saved.`,
  );
  error.name = 'AbortError';
  return error;
}

/**
 * Watches for a stop asked of `holder`'s lease on `key` (by `sessions.stop` in any process) and
 * calls `onStop` once when there is one. A store error is not a stop: the next read tells. The
 * reads never overlap (a slow store is not asked again before it answers). Returns the function
 * that stops watching.
 */
export function watchStop(store: SessionStore, key: string, holder: string, onStop: () => void): () => void {
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = () => {
    timer = setTimeout(() => {
      void Promise.resolve()
        .then(() => store.stopRequested(key, holder))
        .then(
          (asked) => asked,
          () => false,
        )
        .then((asked) => {
          if (done) return;
          if (!asked) return next();
          done = true;
          onStop();
        });
    }, STOP_POLL_MS);
  };
  next();
  return () => {
    done = true;
    clearTimeout(timer);
  };
}
