/**
 * Whether a Restate deployment's endpoint is gone: `restateEngine`'s watch asks it of a dead-looking
 * process's endpoint before it counts a turn the chat does not show running as abandoned.
 */
import { connect } from 'node:net';

/**
 * Whether the endpoint at `uri` refuses connections (nothing listens there: its process is gone).
 * Only a refusal counts. A connection that does not answer within five seconds says nothing: on an
 * overloaded machine the watch's own event loop may be what is late, and taking a live process's
 * turns is worse than leaving a dead one's for its lease to show.
 */
export function refused(uri: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
    const done = (value: boolean) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(5_000, () => done(false));
    socket.once('connect', () => done(false));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });
}

/** The prefix of every process's turn service. */
export const TURN_SERVICE_PREFIX = 'skilltree-turn-';

/** The turn service of executor `executorId` (Restate service names: letters, digits, `_` and `-`). */
export function serviceName(executorId: string): string {
  return `${TURN_SERVICE_PREFIX}${executorId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
