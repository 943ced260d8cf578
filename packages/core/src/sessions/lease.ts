/**
 * A turn's lease on its chat: taken before the turn (waiting or refusing while another turn runs,
 * as `onBusy` says) and kept alive while it runs. Keeping it alive only ever extends the turn's own
 * running lease (`SessionStore.renew`); when that fails, the chat was deleted or another process
 * took it over, and the turn is told to stop. A lease the store failed to take back at the end of
 * a turn (an outage) is given back once the store answers again (`UnreleasedLeases`).
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
 * Whether nobody holds the lease on `key`: a probe holder named `probe-<uuid>` takes it for a
 * second and gives it back. Used by the durable recovery checks (is a turn's process gone? did
 * another process take the chat?), which must not keep a chat they only looked at.
 */
export async function leaseIsFree(store: SessionStore, key: string, probe: string): Promise<boolean> {
  const holder = `${probe}:${crypto.randomUUID()}`;
  if (!(await store.acquire(key, holder, 1_000))) return false;
  await store.release(key, holder);
  return true;
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

/** The first wait before a failed release is tried again, and the longest between tries, in ms. */
const RETRY_FIRST = 50;
const RETRY_MAX = 1_000;

interface Unreleased {
  key: string;
  holder: string;
  /** When the lease expires by itself at the latest (epoch ms): no need to release it after. */
  until: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The leases of turns that ended while the store failed (an outage), which could not be given back
 * then. Such a turn is known to have failed, so its lease must not hold the chat's next message
 * until it expires (30 s by default, and a store that keeps its data across a restart, Redis with
 * AOF or Postgres, keeps the lease too). Each is released as soon as the store answers again: by a
 * retry in the background (for turns in any process), and first thing by the next turn on that chat
 * here. One is forgotten once it would have expired anyway.
 */
export class UnreleasedLeases {
  readonly #leases = new Map<string, Unreleased>();
  readonly #store: SessionStore;

  constructor(store: SessionStore) {
    this.#store = store;
  }

  /**
   * Gives up `holder`'s lease on `key`; when the store fails, keeps trying in the background. `ttl`
   * is the lease's time to live: it expires by itself that long after its last extension, which was
   * before now.
   */
  async release(key: string, holder: string, ttl: number): Promise<void> {
    try {
      await this.#store.release(key, holder);
    } catch {
      const lease: Unreleased = { key, holder, until: Date.now() + ttl };
      this.#leases.set(`${key}\u0000${holder}`, lease);
      this.#retry(lease, RETRY_FIRST);
    }
  }

  /**
   * Before a turn here takes the lease on `key`: gives back the leases this process's failed turns
   * left on it, so it does not wait for them. A store that still fails leaves them for the retry.
   */
  async settle(key: string): Promise<void> {
    for (const lease of [...this.#leases.values()]) if (lease.key === key) await this.#try(lease);
  }

  /** Tries each once more (the store may be back) and stops retrying: the store is about to close. */
  async close(): Promise<void> {
    const leases = [...this.#leases.values()];
    for (const lease of leases) clearTimeout(lease.timer);
    await Promise.all(leases.map((lease) => this.#try(lease)));
    this.#leases.clear();
  }

  /** Releases `lease` now; true when it is settled (released, or expired by itself). */
  async #try(lease: Unreleased): Promise<boolean> {
    const id = `${lease.key}\u0000${lease.holder}`;
    if (this.#leases.get(id) !== lease) return true;
    if (Date.now() >= lease.until) {
      this.#forget(id, lease);
      return true;
    }
    try {
      // Only this holder's own lease: one that expired and went to another turn is left alone.
      await this.#store.release(lease.key, lease.holder);
      this.#forget(id, lease);
      return true;
    } catch {
      return false;
    }
  }

  #forget(id: string, lease: Unreleased): void {
    clearTimeout(lease.timer);
    if (this.#leases.get(id) === lease) this.#leases.delete(id);
  }

  #retry(lease: Unreleased, wait: number): void {
    lease.timer = setTimeout(() => {
      void this.#try(lease).then((settled) => {
        if (!settled) this.#retry(lease, Math.min(wait * 2, RETRY_MAX));
      });
    }, wait);
    // A process that has nothing else to do may exit: the lease then expires by itself.
    lease.timer.unref?.();
  }
}
