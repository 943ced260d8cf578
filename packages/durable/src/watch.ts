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
 * Looks every `interval` ms (0: never). A look starts only once the previous one ended, and a
 * failed look (the database or server restarting) is tried again at the next tick, not thrown.
 */
export function watchEvery(interval: number, look: () => Promise<void>): RecoveryWatch {
  let watching: Promise<void> = Promise.resolve();
  const timer =
    interval > 0
      ? setInterval(() => {
          watching = watching.then(look).catch(() => {});
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
