/**
 * A bound on how many runs one state runs at once (`subagentConcurrency`): a slot per run, taken in
 * call order, given back when the run ends. Per spawning state, so a run that spawns runs of its
 * own never waits for a slot its parent holds.
 */
import type { SessionState } from '../state/state.js';

/** The default of `subagentConcurrency`. */
export const DEFAULT_CONCURRENCY = 4;

interface Limiter {
  running: number;
  queue: (() => void)[];
}

const limiters = new WeakMap<SessionState, Limiter>();

/** The bound in effect: the option when it is a whole number of at least 1, else the default. */
export function boundOf(state: SessionState): number {
  const given = state.options.subagentConcurrency;
  return typeof given === 'number' && Number.isFinite(given) && given >= 1 ? Math.floor(given) : DEFAULT_CONCURRENCY;
}

/** Waits for a slot of `state` (or `signal`'s abort); returns what gives it back. */
export async function takeSlot(state: SessionState, signal: AbortSignal): Promise<() => void> {
  let limiter = limiters.get(state);
  if (!limiter) {
    limiter = { running: 0, queue: [] };
    limiters.set(state, limiter);
  }
  const l = limiter;
  if (l.running >= boundOf(state)) {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', stop);
        resolve();
      };
      const stop = () => {
        l.queue = l.queue.filter((w) => w !== go);
        reject(signal.reason ?? new Error('aborted'));
      };
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      l.queue.push(go);
    });
  }
  l.running++;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    l.running--;
    l.queue.shift()?.();
  };
}
