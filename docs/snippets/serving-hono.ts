import { createHandler } from '@skilltree/server';
import { Hono } from 'hono';
import { authorize, sessions } from './serving-sessions.js';

const handler = createHandler({ sessions, authorize });

export const app = new Hono();
app.all('/api/*', (c) => handler(c.req.raw));
