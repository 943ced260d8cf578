/**
 * `toNodeListener`: a Web-standard handler as a `node:http` request listener and Express middleware.
 * It passes the socket's address to the handler (the only client address it trusts), aborts the
 * request's signal when the client goes away, and streams the response with backpressure, batching
 * the chunks that are ready together into one write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientInfo } from './handler.js';
import { isUnmatched } from './http.js';

/** Any `(Request, ClientInfo?) => Promise<Response>`, e.g. what `createHandler` returns. */
export type WebHandler = (request: Request, client?: ClientInfo) => Response | Promise<Response>;

/** A `node:http` listener that is also Express middleware (`next` is called for paths the handler does not serve). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * Response headers about the connection, which Node manages: the AI SDK's stream response says
 * `connection: keep-alive`, which would keep a client's `Connection: close` socket open (and a
 * stopping server waiting for it).
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

/** Bodies up to this size with a `Content-Length` are read whole (bytes, not a stream, reach the handler). */
const SMALL_BODY = 64 * 1024;

type NodeRequest = IncomingMessage & { originalUrl?: string; body?: unknown };

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

/** A small body with a `Content-Length`, read whole; null for anything else (streamed instead). */
async function smallBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = req.headers['content-length'];
  const length = declared === undefined ? Number.NaN : Number(declared);
  if (!Number.isSafeInteger(length) || length > SMALL_BODY) return null;
  const bytes = new Uint8Array(length);
  let at = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    if (at + chunk.byteLength > length) throw new Error('The request body is longer than its Content-Length.');
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return at === length ? bytes : bytes.slice(0, at);
}

/**
 * The Web `Request` for a Node request. Express's `originalUrl` wins over the mount-relative `url`; a
 * body that `express.json()` already parsed is sent on as JSON.
 */
async function toRequest(req: NodeRequest, signal: AbortSignal): Promise<Request> {
  const path = req.originalUrl ?? req.url ?? '/';
  let url: URL;
  try {
    url = new URL(path, `http://${req.headers.host ?? 'localhost'}`);
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
    const parsed = req.body;
    if (parsed !== undefined && req.readableEnded) {
      init.body =
        typeof parsed === 'string'
          ? parsed
          : parsed instanceof Uint8Array
            ? (parsed as Uint8Array<ArrayBuffer>)
            : JSON.stringify(parsed);
      headers.delete('content-length');
    } else {
      const bytes = await smallBody(req);
      if (bytes) {
        init.body = bytes;
      } else {
        init.body = bodyStream(req);
        init.duplex = 'half';
      }
    }
  }
  return new Request(url, init);
}

/**
 * Writes `response` to `res` with backpressure, and stops reading it when the client goes away.
 * Chunks that arrive within one turn of the event loop go out in one write (cork until `setImmediate`).
 */
async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !HOP_BY_HOP.has(name)) headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  let closed = false;
  let wake: (() => void) | null = null;
  const onClose = () => {
    closed = true;
    wake?.();
  };
  res.once('close', onClose);
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  try {
    for (;;) {
      const next = await Promise.race([
        reader.read(),
        new Promise<null>((resolve) => {
          wake = () => resolve(null);
          if (closed) resolve(null);
        }),
      ]);
      wake = null;
      if (next === null || closed) {
        await reader.cancel(new Error('The client closed the connection.')).catch(() => {});
        return;
      }
      if (next.done) break;
      if (!corked) {
        corked = true;
        res.cork();
        setImmediate(uncork);
      }
      if (!res.write(next.value)) {
        if (corked) uncork();
        await new Promise<void>((resolve) => {
          wake = resolve;
          res.once('drain', resolve);
          if (closed) resolve();
        });
        wake = null;
      }
    }
    if (corked) uncork();
    res.end();
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    res.off('close', onClose);
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
      const request = await toRequest(req, controller.signal);
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
