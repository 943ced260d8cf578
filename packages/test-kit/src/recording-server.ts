/**
 * A local HTTP server on 127.0.0.1 (random port) that answers each request with the next queued
 * handler and records every request it receives: the stand-in for a model provider's API in the
 * adapter tests (no model API is reachable from the tests).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The body exactly as it arrived. */
  raw: string;
}

/** Answers one request. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: any) => void | Promise<void>;

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: Recorded[];
  /** Queues handlers, used one per request in order. */
  queue(...handlers: Handler[]): void;
  /** Handlers not used yet. */
  pending(): number;
  close(): Promise<void>;
}

/**
 * Starts the server. A request with no handler queued goes to `fallback` when given, else gets a
 * 418 whose error says no handler was queued.
 */
export async function startServer(options: { fallback?: Handler } = {}): Promise<TestServer> {
  const handlers: Handler[] = [];
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {}
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, raw: text });
      const handler = handlers.shift() ?? options.fallback;
      if (!handler) {
        res.writeHead(418, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'test_error', message: 'no handler queued for this request' } }));
        return;
      }
      await handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue: (...h) => handlers.push(...h),
    pending: () => handlers.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
