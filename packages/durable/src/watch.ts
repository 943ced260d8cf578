/**
 * What both engines' adapters share around the runner core registers: one registration per
 * engine, and the recovery watch that looks for abandoned turns every `interval` ms.
 */
import type { DurableRegistration } from '@skilltree/core/provider';

/** The recovery watch of one engine: looks run one at a time, and `stop` waits for the one running. */
export interface RecoveryWatch {
  stop(): Promise<void>;
}

/**
 * Looks every `interval` ms (0: never). A tick while a look still runs (a busy store, a slow admin
 * API) is skipped, not queued: looks never pile up, nor run back to back once a slow one ends (a
 * turn is taken after two looks in a row find it abandoned; they must stay `interval` apart). A
 * failed look (the database or server restarting) is tried again at the next tick, not thrown.
 */
export function watchEvery(interval: number, look: () => Promise<void>): RecoveryWatch {
  let watching: Promise<void> | null = null;
  const timer =
    interval > 0
      ? setInterval(() => {
          if (watching) return;
          watching = look()
            .catch(() => {})
            .finally(() => {
              watching = null;
            });
        }, interval)
      : undefined;
  timer?.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await watching;
    },
  };
}

/** Takes the registration of `createSessions(…, { engine })`; an engine serves one, and says so. */
export function registerOnce(
  engine: string,
  current: DurableRegistration | null,
  given: DurableRegistration,
): DurableRegistration {
  if (current) {
    throw new Error(`${engine}: this engine serves one createSessions already; make one engine per createSessions.`);
  }
  return given;
}
