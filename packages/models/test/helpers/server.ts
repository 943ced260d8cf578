/**
 * A local HTTP server on 127.0.0.1 (random port) that answers each request with the next queued
 * handler and records every request it receives.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach } from 'vitest';

// The server itself lives in the test kit (the evals' wire server is built on it too).
export { type Handler, type Recorded, startServer, type TestServer } from '@skilltree/test-kit';

import { type Handler, startServer, type TestServer } from '@skilltree/test-kit';

/** Responds with JSON. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** One server-sent event: `event:` line (optional) and `data:` line. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

function frame(e: SseEvent): string {
  const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  return `${e.event ? `event: ${e.event}\n` : ''}data: ${data}\n\n`;
}

/**
 * Responds with a server-sent-event stream, optionally destroying the socket after `dropAfter`
 * events, optionally waiting `delayMs` before each event.
 */
export function sse(events: SseEvent[], options: { dropAfter?: number; delayMs?: number } = {}): Handler {
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [i, e] of events.entries()) {
      if (options.dropAfter !== undefined && i >= options.dropAfter) {
        await new Promise((r) => setTimeout(r, 10));
        res.socket?.destroy();
        return;
      }
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      res.write(frame(e));
      await new Promise((r) => setImmediate(r));
    }
    res.end();
  };
}

/** A handler that goes silent; `closed` resolves when the client hangs up (an aborted request). */
export type StallingHandler = Handler & { closed: Promise<void> };

function stalling(start: (res: ServerResponse) => void): StallingHandler {
  let hungUp!: () => void;
  const closed = new Promise<void>((resolve) => {
    hungUp = resolve;
  });
  const handler: Handler = (_req, res) => {
    res.on('close', () => hungUp());
    start(res);
    // …and then nothing more: the connection stays open until the client closes it.
  };
  return Object.assign(handler, { closed });
}

/** Sends the first `count` events of a stream, then goes silent without closing the connection. */
export function stallAfter(events: SseEvent[], count: number): StallingHandler {
  return stalling((res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const e of events.slice(0, count)) res.write(frame(e));
  });
}

/** Sends the headers and the first half of a JSON body, then goes silent. */
export function stallMidBody(body: unknown): StallingHandler {
  return stalling((res) => {
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.write(text.slice(0, Math.floor(text.length / 2)));
  });
}

/** Destroys the connection without answering. */
export function drop(): Handler {
  return (req) => {
    req.socket.destroy();
  };
}

/** Responds with a plain-text body. */
export function text(status: number, body: string, contentType = 'text/plain'): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  };
}

/**
 * A test server for each test of the calling file: started before each test, closed after it. The
 * object returned always speaks for the current test's server (outside a test there is none).
 */
export function serverPerTest(): TestServer {
  let current: TestServer | undefined;
  beforeEach(async () => {
    current = await startServer();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const now = (): TestServer => {
    if (!current) throw new Error('serverPerTest: there is no server outside a test; use it inside one.');
    return current;
  };
  return {
    get url() {
      return now().url;
    },
    get requests() {
      return now().requests;
    },
    queue: (...handlers) => now().queue(...handlers),
    pending: () => now().pending(),
    close: () => now().close(),
  };
}
