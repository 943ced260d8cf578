/**
 * Whether a Restate deployment's endpoint is gone: `restateEngine`'s watch asks it of a dead-looking
 * process's endpoint before it counts a turn the chat does not show running as abandoned.
 */
import { connect } from 'node:net';

/**
 * Whether the endpoint at `uri` refuses connections (nothing listens there: its process is gone).
 * One that does not answer within two seconds counts as gone too; one that accepts is alive.
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
    socket.setTimeout(2_000, () => done(true));
    socket.once('connect', () => done(false));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });
}
