/**
 * What the server's chat tests share to serve sessions over HTTP (or hand requests straight to a
 * handler, or write raw bytes on a socket) and to hold a tool until the test lets it go, so each
 * test file keeps only what is its own.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { Sessions } from '@skilltree/core';
import { createHandler, type Handler, toNodeListener } from '../src/index.js';
import { resumeStream } from '../src/resume.js';
import { defaultToolErrorText } from '../src/tool-errors.js';

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
 * A tool's `run` that holds until the test says: `started` settles once it runs, `release(text)`
 * ends it with `text`.
 */
export function heldRun(): { run: () => Promise<string>; started: Promise<void>; release: (text: string) => void } {
  const gate = deferred<string>();
  const started = deferred();
  return {
    run: () => {
      started.resolve();
      return gate.promise;
    },
    started: started.promise,
    release: gate.resolve,
  };
}

/** A handler listening on 127.0.0.1, and what closes it. */
export interface Listening {
  url: string;
  server: Server;
  /** Closes the server (and its open connections), then the sessions behind it. */
  close(): Promise<void>;
}

/** Serves `handler` on a free port of 127.0.0.1 (a loopback client, as the handler sees it). */
export async function listen(handler: Parameters<typeof toNodeListener>[0], sessions: Sessions): Promise<Listening> {
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sessions.close();
    },
  };
}

/** A handler over `sessions`, users named by the `x-user` header, logging nothing. */
export function usersHandler(sessions: Sessions): Handler {
  return createHandler({ sessions, authorize: (r) => r.headers.get('x-user'), log: false });
}

/** `GET path` handed straight to `handler` (no server in between), as `user`. */
export function getAs(handler: Handler, path: string, user = 'alice'): Promise<Response> {
  return handler(new Request(`http://localhost${path}`, { headers: { 'x-user': user } }));
}

/** Serves `sessions` on 127.0.0.1, users named by the `x-user` header, logging nothing. */
export function serveUsers(sessions: Sessions): Promise<Listening> {
  return listen(usersHandler(sessions), sessions);
}

/**
 * Serves `sessions` on 127.0.0.1 (users named by the `x-user` header) and adds to `closers` what
 * closes the server and the sessions: the URL it listens on.
 */
export async function serveSessions(sessions: Sessions, closers: Closers): Promise<string> {
  const { url, close } = await serveUsers(sessions);
  closers.push(close);
  return url;
}

/**
 * Writes `bytes` on a socket to 127.0.0.1:`port` and resolves with all the server answered, once it
 * closed the socket: for requests `fetch` cannot send as written (header names, connection rules).
 */
export function rawExchange(port: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** The call a raw approval answers, as the page's assistant message `m1` shows it. */
export interface AnsweredCall {
  toolName: string;
  toolCallId: unknown;
  input: unknown;
  /** The approval id the page sends (tests send hostile ones, so any value). */
  approvalId: unknown;
}

/**
 * A POST to the chat route of chat `c1` from `user` that approves `call` by hand, as a page (or an
 * attacker) could send it: the request's init.
 */
export function approvalInit(user: string, call: AnsweredCall): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({
      id: 'c1',
      messages: [
        {
          id: 'm1',
          role: 'assistant',
          parts: [
            {
              type: 'dynamic-tool',
              toolName: call.toolName,
              toolCallId: call.toolCallId,
              state: 'approval-responded',
              input: call.input,
              approval: { id: call.approvalId, approved: true },
            },
          ],
        },
      ],
    }),
  };
}

/** The resumed stream of `local`'s chat `c` from its first message, reasoning included: what a reloaded page reads. */
export function resumeFromStart(sessions: Sessions): ReturnType<typeof resumeStream> {
  return resumeStream({
    sessions,
    id: 'c',
    owner: 'local',
    from: 0,
    toolErrorText: defaultToolErrorText,
    sendReasoning: true,
    signal: new AbortController().signal,
  });
}
