/**
 * toNodeListener: node:http and Express-style middleware around a Web-standard handler.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeListener } from '../src/index.js';
import { rawExchange } from './served.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('toNodeListener', () => {
  it("passes the request (method, URL, headers, body) and the socket's address, never X-Forwarded-For", async () => {
    let seen: { method: string; url: string; header: string | null; body: string; address?: string } | undefined;
    const url = await listen(
      toNodeListener(async (request, client) => {
        seen = {
          method: request.method,
          url: request.url,
          header: request.headers.get('x-test'),
          body: await request.text(),
          address: client?.remoteAddress,
        };
        return new Response('ok');
      }),
    );
    const response = await fetch(`${url}/a/b?c=1`, {
      method: 'POST',
      headers: { 'x-test': 'yes', 'x-forwarded-for': '10.1.2.3' },
      body: 'hello',
    });
    expect(await response.text()).toBe('ok');
    expect(seen).toEqual({
      method: 'POST',
      url: `${url}/a/b?c=1`,
      header: 'yes',
      body: 'hello',
      address: '127.0.0.1',
    });
  });

  it('writes status, headers and every Set-Cookie header, and streams the body', async () => {
    const url = await listen(
      toNodeListener(async () => {
        const headers = new Headers({ 'x-a': '1' });
        headers.append('set-cookie', 'a=1; Path=/');
        headers.append('set-cookie', 'b=2; Path=/');
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('part 1, '));
            controller.enqueue(new TextEncoder().encode('part 2'));
            controller.close();
          },
        });
        return new Response(body, { status: 201, headers });
      }),
    );
    const response = await fetch(url);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-a')).toBe('1');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(await response.text()).toBe('part 1, part 2');
  });

  it('aborts the request signal and cancels the response body when the client goes away', async () => {
    let aborted!: () => void;
    const abortedOnServer = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    let cancelled!: () => void;
    const cancelledOnServer = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const url = await listen(
      toNodeListener(async (request) => {
        request.signal.addEventListener('abort', () => aborted());
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('first'));
          },
          cancel() {
            cancelled();
          },
        });
        return new Response(body);
      }),
    );
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await Promise.all([abortedOnServer, cancelledOnServer]);
  });

  it('works as Express middleware: the mount path is kept (originalUrl), a parsed JSON body is sent on, unknown paths go to next()', async () => {
    let seen: { url: string; body: string } | undefined;
    let passed = 0;
    const middleware = toNodeListener(async (request) => {
      if (!new URL(request.url).pathname.startsWith('/api/')) {
        const { notOurs } = await import('../src/http.js');
        return notOurs();
      }
      seen = { url: new URL(request.url).pathname, body: await request.text() };
      return new Response('handled');
    });
    const url = await listen((req, res) => {
      // What Express does for app.use('/api', middleware) after express.json().
      let raw = '';
      req.setEncoding('utf8').on('data', (d) => {
        raw += d;
      });
      req.on('end', () => {
        const expressReq = Object.assign(req, {
          originalUrl: req.url,
          url: req.url!.replace(/^\/api/, '') || '/',
          body: raw ? JSON.parse(raw) : undefined,
        });
        middleware(expressReq, res, () => {
          passed++;
          res.end('next');
        });
      });
    });
    const handled = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c1' }),
    });
    expect(await handled.text()).toBe('handled');
    expect(seen).toEqual({ url: '/api/chat', body: '{"id":"c1"}' });
    expect(await (await fetch(`${url}/other`)).text()).toBe('next');
    expect(passed).toBe(1);
  });

  it("leaves the connection to Node: a response's Connection header does not keep a client's Connection: close socket open", async () => {
    const url = await listen(
      toNodeListener(
        async () => new Response('data: 1\n\n', { headers: { connection: 'keep-alive', 'keep-alive': 'timeout=60' } }),
      ),
    );
    const { port } = new URL(url);
    // The answer is all there once the server closed the socket (a kept-alive one would wait for its timeout).
    const answer = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer.toLowerCase()).not.toContain('keep-alive');
  });

  it('answers 500 when the handler throws, without its details', async () => {
    const url = await listen(
      toNodeListener(async () => {
        throw new Error('secret detail');
      }),
    );
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret');
  });
});

describe('runtimes', () => {
  it('the package loads no Node built-in at run time (the handler runs on edge runtimes, Deno and Bun)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../src/', import.meta.url);
    const offenders = readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        readFileSync(new URL(file, dir), 'utf8')
          .split('\n')
          .filter((line) => /^import (?!type ).*from '(node:|fs|http|net|stream|crypto)/.test(line))
          .map((line) => `${file}: ${line}`),
      );
    expect(offenders).toEqual([]);
  });
});
