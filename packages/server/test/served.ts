/**
 * What the server's chat tests share to serve sessions over HTTP and to hold a tool until the test
 * lets it go, so each test file keeps only what is its own.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sessions } from '@skilltree/core';
import { createHandler, toNodeListener } from '../src/index.js';

/** What a test file closes after each test: servers and sessions it started. */
export type Closers = (() => Promise<void>)[];

/** A promise and the function that settles it: a tool waits on it until the test says so. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * Serves `sessions` on 127.0.0.1 (users named by the `x-user` header) and adds to `closers` what
 * closes the server and the sessions: the URL it listens on.
 */
export async function serveSessions(sessions: Sessions, closers: Closers): Promise<string> {
  const handler = createHandler({ sessions, authorize: (r) => r.headers.get('x-user'), log: false });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await sessions.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
