import { createHandler, toNodeListener } from '@skilltree/server';
import express from 'express';
import { authorize, sessions } from './serving-sessions.js';

export const app: express.Express = express();
// Before any body parser (or after express.json(), which it also understands).
app.use('/api', toNodeListener(createHandler({ sessions, authorize })));
