/**
 * `toNodeListener`: a Web-standard handler as a `node:http` request listener and Express middleware.
 * It passes the socket's address to the handler (the only client address it trusts), aborts the
 * request's signal when the client goes away, and streams the response with backpressure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientInfo } from './handler.js';
import { isUnmatched } from './http.js';

/** Any `(Request, ClientInfo?) => Promise<Response>`, e.g. what `createHandler` returns. */
export type WebHandler = (request: Request, client?: ClientInfo) => Response | Promise<Response>;

/** A `node:http` listener that is also Express middleware (`next` is called for paths the handler does not serve). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

const BODYLESS = new Set(['GET', 'HEAD']);

/** The Web `Request` for a Node request. Express's `originalUrl` wins over the mount-relative `url`. */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const path = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const host = req.headers.host;
  let url: URL;
  try {
    url = new URL(path, `http://${host ?? 'localhost'}`);
  } catch {
    url = new URL(path.startsWith('/') ? path : '/', 'http://localhost');
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (!BODYLESS.has(method)) {
    // A body parser (express.json()) that ran first has consumed the stream: send what it parsed.
    const parsed = (req as IncomingMessage & { body?: unknown }).body;
    if (parsed !== undefined && req.readableEnded) {
      init.body =
        typeof parsed === 'string'
          ? parsed
          : parsed instanceof Uint8Array
            ? Buffer.from(parsed)
            : JSON.stringify(parsed);
      headers.delete('content-length');
    } else {
      init.body = bodyStream(req);
      init.duplex = 'half';
    }
  }
  return new Request(url, init);
}

/** The request body as a Web stream, read only as the handler pulls (so a refused body is never read). */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = req[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/** Writes `response` to `res`, chunk by chunk, waiting for `drain`; stops when the client goes away. */
async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const gone = new Promise<'gone'>((resolve) => res.once('close', () => resolve('gone')));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), gone]);
      if (next === 'gone') {
        await reader.cancel(new Error('The client closed the connection.')).catch(() => {});
        return;
      }
      if (next.done) break;
      if (!res.write(next.value)) {
        const drained = await Promise.race([new Promise<'drain'>((r) => res.once('drain', () => r('drain'))), gone]);
        if (drained === 'gone') {
          await reader.cancel(new Error('The client closed the connection.')).catch(() => {});
          return;
        }
      }
    }
    res.end();
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Wraps a Web-standard handler for Node: `http.createServer(toNodeListener(handler))`, or
 * `app.use(toNodeListener(handler))` in Express (mount it before any body parser, or after
 * `express.json()`, which it also understands). The client's address comes from the socket, never
 * from `X-Forwarded-For`.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(toNodeListener(createHandler({ sessions }))).listen(3000, '127.0.0.1');
 */
export function toNodeListener(handler: WebHandler): NodeListener {
  return (req, res, next) => {
    const controller = new AbortController();
    const abort = () => {
      if (!res.writableFinished) controller.abort(new Error('The client closed the connection.'));
    };
    res.once('close', abort);
    req.once('error', abort);
    void (async () => {
      const request = toRequest(req, controller.signal);
      const response = await handler(request, { remoteAddress: req.socket.remoteAddress });
      if (next && isUnmatched(response)) {
        await response.body?.cancel().catch(() => {});
        next();
        return;
      }
      await send(response, res);
    })().catch((error: unknown) => {
      if (next) {
        next(error);
        return;
      }
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Internal server error');
      } else {
        res.destroy();
      }
    });
  };
}
