/**
 * The example's server: a Hono app with a placeholder login, `@skilltree/server`'s handler under
 * `/api` (what `useChat` talks to), and the built front end.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { createSessions, type Model, type SessionStore, type Sessions } from '@skilltree/core';
import { createHandler } from '@skilltree/server';
import { Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { createElement } from 'react';
import { ChatAgent } from './agent.js';
import { COOKIE, randomSecret, sign, USER_NAME, userFrom } from './auth.js';
import { demoModel } from './demo-model.js';
import { createRefunds, type Refunds } from './refunds.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Where the chats live. */
  store: SessionStore;
  /** The model. Default: the offline demo model. */
  model?: Model;
  /** Signs the login cookie. Default: random per process. */
  secret?: string;
  /** The built front end (`vite build` output) to serve at `/`. Default: none. */
  staticDir?: string;
  /** Where the `refund` tool issues refunds. Default: a ledger in memory. */
  refunds?: Refunds;
}

/** The app, the sessions it serves and the refunds it issued. */
export interface App {
  app: Hono;
  sessions: Sessions;
  refunds: Refunds;
}

/** Builds the app. */
export function createApp(options: AppOptions): App {
  const secret = options.secret ?? randomSecret();
  const refunds = options.refunds ?? createRefunds();
  const sessions = createSessions(createElement(ChatAgent, { refunds }), {
    store: options.store,
    model: options.model ?? demoModel(),
  });
  const handler = createHandler({
    sessions,
    // Who is asking: the signed cookie's user. Swap this for your auth provider.
    authorize: (request) => userFrom(request, secret),
    limits: { turnsPerMinute: 20, maxMessageLength: 4_000 },
  });

  const app = new Hono();
  app.post('/login', async (c) => {
    if (!(c.req.header('content-type') ?? '').startsWith('application/json')) {
      return c.json({ error: 'Send JSON: { "name": "…" }' }, 415);
    }
    const body = (await c.req.json().catch(() => null)) as { name?: unknown } | null;
    const name = typeof body?.name === 'string' ? body.name.trim() : '';
    if (!USER_NAME.test(name)) return c.json({ error: 'Pick a name of 1 to 40 letters, digits, _ or -.' }, 400);
    setCookie(c, COOKIE, sign(name, secret), { httpOnly: true, sameSite: 'Lax', path: '/' });
    return c.json({ name });
  });
  app.post('/logout', (c) => {
    deleteCookie(c, COOKIE, { path: '/' });
    return c.body(null, 204);
  });
  app.get('/me', (c) => {
    const name = userFrom(c.req.raw, secret);
    return name ? c.json({ name }) : c.json({ error: 'Not signed in.' }, 401);
  });
  app.all('/api/*', (c) => handler(c.req.raw));

  const dir = options.staticDir;
  if (dir && existsSync(join(dir, 'index.html'))) {
    app.use('/*', serveStatic({ root: dir }));
    // The page handles its own routes (?chat=…): every other GET gets index.html.
    app.get('*', serveStatic({ root: dir, path: 'index.html' }));
  }
  return { app, sessions, refunds };
}
