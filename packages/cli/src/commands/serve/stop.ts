/**
 * How a `skilltree serve` process stops without losing anything: it stops accepting connections,
 * aborts the running turns and waits until each has committed what it did (the call in flight
 * answered as interrupted) and given its lease back, lets their responses end, ends the connections
 * left, and closes the sessions' store. All of it within {@link STOP_TIMEOUT}; then the process exits anyway, and what
 * was not committed is answered as interrupted by the chat's next turn, as after a crash.
 */
import type { Server } from 'node:http';
import type { SessionEvent, Sessions } from '@skilltree/core';

/** Longest a serving process takes to stop, in ms. An idle one stops at once. */
export const STOP_TIMEOUT = 10_000;

/** The sessions the handler serves, and the turns they are running. */
export interface TrackedSessions {
  /** `sessions`, with each streamed turn tracked. */
  sessions: Sessions;
  /**
   * Aborts every running turn, and every turn that starts from now on, and resolves once none is
   * running: each has committed and released its lease.
   */
  abortAll(reason: unknown): Promise<void>;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Tracks the turns the handler streams, so that a stop can abort them and wait for their commits
 * before the store closes. A turn's iterator settles only after the turn has committed and released
 * its lease, so "settled" is "written".
 */
export function trackTurns(sessions: Sessions): TrackedSessions {
  const running = new Set<Running>();
  let stopped: { reason: unknown } | null = null;
  const stream: Sessions['stream'] = (id, text, options = {}) => ({
    [Symbol.asyncIterator]() {
      const controller = new AbortController();
      const outer = options.signal;
      if (outer?.aborted) controller.abort(outer.reason);
      else outer?.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
      const events = sessions.stream(id, text, { ...options, signal: controller.signal })[Symbol.asyncIterator]();
      let turn: Running | null = null;
      let settle = () => {};
      const start = () => {
        if (turn) return;
        turn = { controller, done: new Promise<void>((resolve) => (settle = resolve)) };
        running.add(turn);
        // A message that arrives while the server stops (on a connection still open) is stopped too.
        if (stopped) controller.abort(stopped.reason);
      };
      const end = () => {
        if (turn) running.delete(turn);
        settle();
      };
      const iterator: AsyncIterator<SessionEvent> = {
        async next() {
          start();
          try {
            const next = await events.next();
            if (next.done) end();
            return next;
          } catch (error) {
            end();
            throw error;
          }
        },
        async return(value?: unknown) {
          try {
            return (await events.return?.(value)) ?? { done: true, value };
          } finally {
            end();
          }
        },
      };
      return iterator;
    },
  });
  return {
    sessions: { ...sessions, stream },
    async abortAll(reason) {
      stopped = { reason };
      while (running.size > 0) {
        const turns = [...running];
        for (const turn of turns) turn.controller.abort(reason);
        await Promise.all(turns.map((turn) => turn.done));
      }
    },
  };
}

/** `promise`, or undefined once `ms` have passed (the timer does not keep the process alive). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), undefined);
    timer.unref?.();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Why a stopping server aborts a turn: an `AbortError`, so the client reads "The turn was stopped." */
function stopping(): Error {
  return new DOMException('The server is stopping.', 'AbortError');
}

/** How long the responses of aborted turns get to send their last chunks before their connections are cut. */
const FLUSH_TIMEOUT = 1_000;

/**
 * Stops one serving process: no new connections, idle ones closed, running turns aborted and their
 * commits and lease releases awaited, the responses left given a moment to end, every connection
 * ended, then the store closed. Resolves within `timeout` ms (what is still running then is left to
 * the chat's next turn).
 */
export async function stopServing(server: Server, turns: TrackedSessions, timeout = STOP_TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeout;
  const left = () => deadline - Date.now();
  // Stop listening, and close each keep-alive connection as soon as it has no request in flight
  // (they would hold close() open, and could bring new requests).
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  await within(
    turns.abortAll(stopping()).catch(() => {}),
    left(),
  );
  // The aborted turns' streams end with their last chunks: let them go out, then cut what is left.
  // Requests still answering need the store: it closes last.
  await within(closed, Math.min(FLUSH_TIMEOUT, left()));
  clearInterval(sweep);
  server.closeAllConnections();
  await within(
    turns.sessions.close().catch(() => {}),
    left(),
  );
}
