// app/api/[...skilltree]/route.ts
import { createHandler } from '@skilltree/server';
import { authorize, sessions } from './serving-sessions.js';

const handler = createHandler({ sessions, authorize });

export const GET = (request: Request) => handler(request);
export const POST = (request: Request) => handler(request);
export const DELETE = (request: Request) => handler(request);
