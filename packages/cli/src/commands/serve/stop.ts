/**
 * How a `skilltree serve` process stops without losing anything: it stops accepting connections,
 * closes its sessions at once (`sessions.close({ timeout: 0 })` stops the running turns, waits until
 * each has committed what it did, the call in flight answered as interrupted, and given its lease
 * back, then closes the store), lets the stopped turns' responses end, and ends the connections
 * left. All of it within {@link STOP_TIMEOUT}; then the process exits anyway, and what was not
 * committed is answered as interrupted by the chat's next turn, as after a crash.
 */
import type { Server } from 'node:http';
import type { Sessions } from '@skilltree/core';

/** Longest a serving process takes to stop, in ms. An idle one stops at once. */
export const STOP_TIMEOUT = 10_000;

/** How long the responses of stopped turns get to send their last chunks before their connections are cut. */
const FLUSH_TIMEOUT = 1_000;

/** `promise`, or undefined once `ms` have passed (the timer does not keep the process alive). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), undefined);
    timer.unref?.();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Stops one serving process: no new connections, each keep-alive one closed as soon as it is idle,
 * the sessions closed (running turns stopped, their commits and lease releases awaited, the store
 * closed), the stopped turns' responses given a moment to end, then every connection ended.
 * Resolves within `timeout` ms.
 */
export async function stopServing(server: Server, sessions: Sessions, timeout = STOP_TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeout;
  const left = () => deadline - Date.now();
  // Stop listening, and close each keep-alive connection as soon as it has no request in flight
  // (they would hold close() open, and could bring new requests).
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  try {
    await within(
      sessions.close({ timeout: 0 }).catch(() => {}),
      left(),
    );
    // The stopped turns' streams end with their last chunks: let them go out, then cut what is left.
    await within(closed, Math.min(FLUSH_TIMEOUT, left()));
  } finally {
    clearInterval(sweep);
    server.closeAllConnections();
  }
}
