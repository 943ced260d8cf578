import { createServer } from 'node:http';
import { createHandler, toNodeListener } from '@skilltree/server';
import { sessions } from './serving-sessions.js';

// No authorize: loopback clients only, and the handler says so when it is created.
export const server = createServer(toNodeListener(createHandler({ sessions })));
