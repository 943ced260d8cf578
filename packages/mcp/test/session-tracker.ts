/** Disposing the sessions a test made, and waiting for their MCP connections to close before the next test. */
import type { Session } from '@skilltree/core';
import { afterEach } from 'vitest';
import { openConnections } from '../src/connection.js';
import { until } from './fixtures/server.js';

/**
 * A `track(session)` for a test file: each test's tracked sessions are disposed after it, and the
 * next test starts only once every MCP connection has closed (waited for up to `timeout` ms).
 */
export function sessionTracker(timeout?: number): (session: Session) => Session {
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const session of sessions.splice(0)) if (!session.disposed) session.dispose();
    await until(() => openConnections() === 0, 'every connection to close', timeout);
  });
  return (session) => {
    sessions.push(session);
    return session;
  };
}
