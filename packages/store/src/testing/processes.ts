/**
 * Stand-ins for processes over one store: a handle that can die or stall, one that reports its
 * acquires, and the timing helpers the lease tests use.
 */
import type { SessionStore } from '@skilltree/core';
import type { Commit } from '@skilltree/core/provider';

/** Waits `ms` milliseconds (none for a negative `ms`). */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The methods of a `SessionStore`, for the wrappers below. */
const METHODS = [
  'record',
  'load',
  'messages',
  'acquire',
  'renew',
  'release',
  'requestStop',
  'stopRequested',
  'commit',
  'delete',
  'spent',
  'addSpend',
  'reserveSpend',
  'settleSpend',
  'close',
] as const;

/** How long a lease of {@link simulatedProcess} lasts in the store, whatever the turn asks: far past any test. */
const HELD = 600_000;

/**
 * A handle that can die (every call fails from then on) or stall (calls wait until it resumes),
 * like a process. Its leases last {@link HELD} in the store whatever TTL its turns ask for (they
 * still renew on their own schedule), so a machine too busy to renew in time never lets one lapse
 * by accident: a test lets a lease lapse with `expire`, as the passing of its TTL would. It
 * remembers each chat's holder, and reports every renewal's answer to `onRenew`.
 */
export function simulatedProcess(store: SessionStore) {
  let dead = false;
  let stalled: Promise<void> | null = null;
  let resume = () => {};
  const holders = new Map<string, string>();
  const events: { onRenew?: (id: string, held: boolean) => void } = {};
  const direct = (key: (typeof METHODS)[number], args: unknown[]) =>
    (store[key] as (...a: unknown[]) => Promise<unknown>).apply(store, args);
  const wrapped = {} as SessionStore;
  for (const key of METHODS) {
    (wrapped as unknown as Record<string, unknown>)[key] = async (...args: unknown[]) => {
      if (stalled) await stalled;
      if (dead) throw new Error('this process died');
      if (key === 'acquire') {
        const [id, holder] = args as [string, string];
        const held = (await store.acquire(id, holder, HELD)) as boolean;
        if (held) holders.set(id, holder);
        return held;
      }
      if (key === 'renew') {
        const [id, holder] = args as [string, string];
        const held = await store.renew(id, holder, HELD);
        events.onRenew?.(id, held);
        return held;
      }
      if (key === 'commit') return store.commit(args[0] as string, { ...(args[1] as Commit), leaseTtl: HELD });
      return direct(key, args);
    };
  }
  Object.defineProperty(wrapped, 'name', { value: store.name });
  return {
    store: wrapped,
    events,
    kill: () => {
      dead = true;
    },
    stall: () => {
      stalled = new Promise((r) => (resume = r));
    },
    resume: () => {
      stalled = null;
      resume();
    },
    /** Lets this process's lease on `id` lapse now, as its TTL running out would (a free lease stays free). */
    async expire(id: string) {
      const holder = holders.get(id);
      if (holder !== undefined) await store.renew(id, holder, 1);
      await sleep(5);
    },
  };
}

/** `store` with `acquire` reporting each answer to `onAcquire`. */
export function watchAcquires(store: SessionStore, onAcquire: (held: boolean) => void): SessionStore {
  const wrapped = {} as SessionStore;
  for (const key of METHODS) {
    (wrapped as unknown as Record<string, unknown>)[key] = (...args: unknown[]) =>
      (store[key] as (...a: unknown[]) => Promise<unknown>).apply(store, args);
  }
  wrapped.acquire = async (...args) => {
    const held = await store.acquire(...args);
    onAcquire(held);
    return held;
  };
  Object.defineProperty(wrapped, 'name', { value: store.name });
  return wrapped;
}

/**
 * Runs `attempt` with a lease TTL of `ttl` ms, doubled each time `attempt` says the machine was
 * slower than the TTL (it returns `'late'`: a step that had to come before the lease expired came
 * after). A busy machine gets a longer TTL instead of a failed test; an idle one runs once.
 */
export async function withTtl(ttl: number, attempt: (ttl: number) => Promise<'late' | undefined>): Promise<void> {
  for (let tries = 0; tries < 8; tries++, ttl *= 2) if ((await attempt(ttl)) !== 'late') return;
  throw new Error(`the machine stayed slower than a lease of ${ttl / 2} ms in 8 tries`);
}

/** A deferred: a promise and the function that settles it. */
export function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
