/**
 * Starts the example: `pnpm start` builds the front end and runs this file with tsx.
 *   PORT (default 3001), SESSIONS_DB (default ./sessions.db), COOKIE_SECRET (default: random).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { openStore } from './store.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const store = await openStore(process.env.SESSIONS_DB ?? join(root, 'sessions.db'));
const { app, sessions } = createApp({ store, secret: process.env.COOKIE_SECRET, staticDir: join(root, 'dist') });
const port = Number(process.env.PORT ?? 3001);
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`web-chat: http://127.0.0.1:${info.port} (store: ${store.name})`);
});

const stop = () => {
  server.close();
  void sessions.close().finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
