/** A store as a process that stops sees it, for tests of a process that died mid-turn. */
import type { SessionStore } from '@skilltree/core';

/** A store as a process that stops sees it: once `stop()` is called, every call fails (nothing it does lands). */
export function stoppable(store: SessionStore): SessionStore & { stop(): void } {
  let stopped = false;
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'stop') return () => (stopped = true);
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || key === 'close')
        return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) =>
        stopped ? Promise.reject(new Error('this process stopped')) : value.apply(target, args);
    },
  });
  return wrapped as SessionStore & { stop(): void };
}
