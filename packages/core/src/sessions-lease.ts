/**
 * A turn's lease on its chat: taken before the turn (waiting or refusing while another turn runs,
 * as `onBusy` says) and kept alive while it runs. Keeping it alive only ever extends the turn's own
 * running lease (`SessionStore.renew`); when that fails, the chat was deleted or another process
 * took it over, and the turn is told to stop.
 */
import { SessionBusyError, type SessionStore } from './session-store.js';

/** How a turn waits for its lease. */
export interface LeasePolicy {
  onBusy: 'wait' | 'reject';
  busyTimeout: number;
  leaseTtl: number;
}

/**
 * Takes the lease on `key` for `holder`, waiting with backoff while another turn holds it (up to
 * `busyTimeout`), or failing at once with `onBusy: 'reject'`. Errors name the caller's `id`.
 * Returns how many times it asked the store (1 when the lease was free).
 */
export async function takeLease(
  store: SessionStore,
  key: string,
  id: string,
  holder: string,
  policy: LeasePolicy,
  signal: AbortSignal,
): Promise<number> {
  const deadline = Date.now() + policy.busyTimeout;
  for (let wait = 5, attempts = 1; ; wait = Math.min(wait * 2, 200), attempts++) {
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    if (await store.acquire(key, holder, policy.leaseTtl)) return attempts;
    if (policy.onBusy === 'reject') throw new SessionBusyError(id);
    if (Date.now() + wait > deadline) {
      throw new SessionBusyError(
        id,
        `Session "${id}" stayed busy for ${policy.busyTimeout} ms (busyTimeout): another turn is still running.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Renews the lease every third of its time to live. `onLost` runs once, when the store says the
 * lease is no longer the holder's (a store error is not a loss: the next commit tells). Returns
 * the function that stops renewing.
 */
export function keepLease(
  store: SessionStore,
  key: string,
  holder: string,
  ttl: number,
  onLost: () => void,
): () => void {
  let stopped = false;
  const timer = setInterval(
    () => {
      void Promise.resolve()
        .then(() => store.renew(key, holder, ttl))
        .then(
          (held) => {
            if (!held && !stopped) {
              stopped = true;
              clearInterval(timer);
              onLost();
            }
          },
          () => {},
        );
    },
    Math.max(50, ttl / 3),
  );
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
