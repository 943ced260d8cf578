/**
 * Limits per user (body size, message length, turn rate) with clear 413/429 answers, and bad input:
 * ids that try path traversal, malformed and oversized bodies, wrong methods and content types.
 */
import { request as httpRequest } from 'node:http';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { bodyLimitFor, memoryRateLimiter } from '../src/index.js';
import { apiPath, startServer, type TestServer } from './helpers.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const message = (text: string) => ({ id: 'u', role: 'user', parts: [{ type: 'text', text }] });

async function post(body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${apiPath('chat')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': 'alice', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** A raw request through node:http (paths exactly as written, chunked bodies). */
function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; chunks?: string[] } = {},
): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { 'x-user': 'alice', ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** A PNG of `size` bytes: its header, then zeros (enough for the session's sniffer). */
function png(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return bytes;
}

/**
 * The body of a message with `text` and one file of each size, as useChat sends it, each with a
 * filename of 255 characters that JSON escapes at its longest: the largest body such a message makes.
 */
function withFiles(text: string, sizes: number[], extra: Record<string, unknown> = {}): string {
  const files = sizes.map((size) => ({
    type: 'file',
    mediaType: 'image/png',
    filename: '\u0001'.repeat(255),
    url: `data:image/png;base64,${png(size).toString('base64')}`,
  }));
  return JSON.stringify({
    id: 'c1',
    ...extra,
    messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text }, ...files] }],
    trigger: 'submit-message',
  });
}

/** Sessions' file limits small enough to reach in a test: 2 files, 2 000 bytes each, 3 000 together. */
const files = { maxFilesPerMessage: 2, maxFileBytes: 2_000, maxMessageBytes: 3_000 };

describe('limits', () => {
  it('the body limit follows the file limits: a message at the file limit is accepted, one byte more of files is refused by the session with its reason, not by a 413', async () => {
    server = await startServer({ sessionsOptions: { files }, limits: { maxMessageLength: 100 } });
    // The longest text, every character escaped at its longest in JSON, and files at the limit.
    const atLimit = withFiles('\u0001'.repeat(100), [1_500, 1_500]);
    expect(Buffer.byteLength(atLimit)).toBeLessThanOrEqual(bodyLimitFor(server.sessions.fileLimits, 100));
    const accepted = await post(atLimit);
    expect(accepted.status, accepted.text).toBe(200);
    const over = await post(withFiles('\u0001'.repeat(100), [1_500, 1_501]).replace('"c1"', '"c2"'));
    expect(over.json().error).toEqual({
      code: 'file_message_too_large',
      message: 'The files of one message are 3001 bytes; at most 3000 (files.maxMessageBytes).',
    });
    expect(await server.sessions.get('c2', { owner: 'alice' })).toBeNull();
  });

  it('an explicit maxBodyBytes wins', async () => {
    // Below the derived limit: a message the session would accept is refused by its size.
    server = await startServer({ sessionsOptions: { files }, limits: { maxBodyBytes: 1_000 } });
    const small = await post(withFiles('look', [1_500]));
    expect(small.json().error.code).toBe('body_too_large');
    await server.close();
    // Above it: a body the derived limit refuses (padded past it) is read.
    server = await startServer({ sessionsOptions: { files } });
    const padded = withFiles('look', [1_500], { pad: ' '.repeat(bodyLimitFor(server.sessions.fileLimits, 32_000)) });
    expect((await post(padded)).json().error.code).toBe('body_too_large');
    await server.close();
    server = await startServer({ sessionsOptions: { files }, limits: { maxBodyBytes: padded.length } });
    expect((await post(padded)).status).toBe(200);
  });

  it('a body larger than maxBodyBytes answers 413 (by Content-Length)', async () => {
    server = await startServer({ limits: { maxBodyBytes: 1_000 } });
    const response = await post(JSON.stringify({ id: 'c1', messages: [message('x'.repeat(2_000))] }));
    expect(response.status).toBe(413);
    expect(response.json()).toEqual({
      error: { code: 'body_too_large', message: 'The request body is larger than 1000 bytes.' },
    });
  });

  it('a chunked body without Content-Length answers 413 as soon as it passes maxBodyBytes', async () => {
    server = await startServer({ limits: { maxBodyBytes: 1_000 } });
    const chunk = 'x'.repeat(600);
    const response = await raw('POST', apiPath('chat'), {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: [`{"id":"c1","pad":"${chunk}`, chunk, chunk, '"}'],
    });
    expect(response.status).toBe(413);
    expect(await server.sessions.get('c1', { owner: 'alice' })).toBeNull();
  });

  it('a message longer than maxMessageLength answers 413 and starts no turn', async () => {
    server = await startServer({ limits: { maxMessageLength: 100 } });
    const response = await post(JSON.stringify({ id: 'c1', messages: [message('y'.repeat(101))] }));
    expect(response.status).toBe(413);
    expect(response.json()).toMatchObject({ error: { code: 'message_too_long' } });
    expect(await server.sessions.get('c1', { owner: 'alice' })).toBeNull();
    expect((await post(JSON.stringify({ id: 'c1', messages: [message('y'.repeat(100))] }))).status).toBe(200);
  });

  it('more turns than turnsPerMinute answer 429 with Retry-After, per user', async () => {
    server = await startServer({ limits: { turnsPerMinute: 2 } });
    const body = (id: string) => JSON.stringify({ id, messages: [message('hi')] });
    expect((await post(body('a1'))).status).toBe(200);
    expect((await post(body('a2'))).status).toBe(200);
    const limited = await post(body('a3'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(await server.sessions.get('a3', { owner: 'alice' })).toBeNull();
    // Another user has their own budget.
    expect((await post(body('b1'), { 'x-user': 'bob' })).status).toBe(200);
  });

  it('turnsPerMinute: false turns rate limiting off', async () => {
    server = await startServer({ limits: { turnsPerMinute: false } });
    for (let i = 0; i < 40; i++)
      expect((await post(JSON.stringify({ id: 'c1', messages: [message('hi')] }))).status).toBe(200);
  });

  it('memoryRateLimiter refills one turn every 60 000 / perMinute ms', () => {
    let now = 0;
    const limiter = memoryRateLimiter({ perMinute: 6, now: () => now });
    for (let i = 0; i < 6; i++) expect(limiter.take('u')).toEqual({ ok: true });
    expect(limiter.take('u')).toEqual({ ok: false, retryAfterMs: 10_000 });
    now = 9_999;
    expect(limiter.take('u').ok).toBe(false);
    now = 10_000;
    expect(limiter.take('u')).toEqual({ ok: true });
  });

  it('memoryRateLimiter keeps at most maxKeys buckets', () => {
    let now = 0;
    const limiter = memoryRateLimiter({ perMinute: 1, now: () => now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) expect(limiter.take(key)).toEqual({ ok: true });
    now = 1;
    // 'e' was kept (newest); the oldest keys were dropped and start again full.
    expect(limiter.take('e').ok).toBe(false);
    expect(limiter.take('a').ok).toBe(true);
  });
});

describe('bad input', () => {
  it('ids that try path traversal answer 400 (in the body) or match no route (in the path)', async () => {
    server = await startServer();
    for (const id of ['../../etc/passwd', '..', '.', 'a/b', 'a\\b', '.hidden', 'a\u0000b', '', 'x'.repeat(129), 'é']) {
      const response = await post(JSON.stringify({ id, messages: [message('hi')] }));
      expect(response.status, JSON.stringify(id)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'invalid_id' } });
    }
    for (const path of [
      '/api/chat/..%2F..%2Fetc%2Fpasswd',
      '/api/chat/%2e%2e%2fsessions',
      '/api/sessions/..%5C..%5Cwindows',
      '/api/chat/a%00b',
      '/api/chat/%E0%A4%A',
    ]) {
      const response = await raw('GET', path);
      expect(response.status, path).toBe(400);
    }
    for (const path of ['/api/chat/../sessions/c1', '/api/chat/%2e%2e/%2e%2e/etc/passwd', '/api/../etc/passwd']) {
      const response = await raw('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body).not.toContain('root:');
    }
  });

  it('malformed bodies answer 400 with what is wrong', async () => {
    server = await startServer();
    const cases: [string, string][] = [
      ['{"id":', 'not valid JSON'],
      ['[]', 'must be a JSON object'],
      ['null', 'must be a JSON object'],
      ['"text"', 'must be a JSON object'],
      [JSON.stringify({ messages: [message('hi')] }), 'Invalid chat id'],
      [JSON.stringify({ id: 42, messages: [message('hi')] }), 'Invalid chat id'],
      [JSON.stringify({ id: 'c1' }), 'needs "messages"'],
      [JSON.stringify({ id: 'c1', messages: 'hi' }), 'needs "messages"'],
      [JSON.stringify({ id: 'c1', messages: [] }), 'not an object'],
      [JSON.stringify({ id: 'c1', messages: [null] }), 'not an object'],
      [JSON.stringify({ id: 'c1', messages: [{ role: 'system', parts: [] }] }), 'must be a user message'],
      [
        JSON.stringify({ id: 'c1', messages: [{ role: 'user', parts: [{ type: 'file', url: 'x' }] }] }),
        'URL that is not one',
      ],
      [JSON.stringify({ id: 'c1', messages: [{ role: 'user', parts: 'hi' }] }), 'no text'],
      [JSON.stringify({ id: 'c1', messages: [message('   ')] }), 'no text'],
      [JSON.stringify({ id: 'c1', messages: [message('hi')], trigger: 'regenerate-message' }), 'not supported'],
    ];
    for (const [body, expected] of cases) {
      const response = await post(body);
      expect(response.status, body).toBe(400);
      expect(response.json().error.message, body).toContain(expected);
    }
    expect(await server.sessions.get('c1', { owner: 'alice' })).toBeNull();
  });

  it('invalid UTF-8 answers 400', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}${apiPath('chat')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: 'The request body is not valid UTF-8.' } });
  });

  it('a body that is not JSON by its content type answers 415 (a cross-site form cannot post)', async () => {
    server = await startServer();
    const body = JSON.stringify({ id: 'c1', messages: [message('hi')] });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expect((await post(body, { 'content-type': type })).status, type).toBe(415);
    }
    expect((await post(body, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('a compressed body (a gzip bomb) answers 415 and is never inflated: no turn, no chat', async () => {
    server = await startServer();
    // 50 MB of JSON whitespace in about 50 KB of gzip.
    const bomb = gzipSync(
      Buffer.concat([Buffer.from('{"id":"c1","messages":['), Buffer.alloc(50_000_000, 0x20), Buffer.from(']}')]),
    );
    expect(bomb.byteLength).toBeLessThan(100_000);
    for (const encoding of ['gzip', 'deflate, gzip', 'br', ' GZIP ', 'identity, gzip']) {
      const response = await post(bomb as unknown as string, { 'content-encoding': encoding });
      expect(response.status, encoding).toBe(415);
      expect(response.json().error, encoding).toMatchObject({ code: 'unsupported_encoding' });
    }
    expect(await server.sessions.get('c1', { owner: 'alice' })).toBeNull();
    // Uncompressed (identity) is read as always.
    const plain = JSON.stringify({ id: 'c1', messages: [message('hi')] });
    expect((await post(plain, { 'content-encoding': 'identity' })).status).toBe(200);
  });

  it('a zip bomb sent as a file answers 415 (an archive is not a file type the session takes); nothing is unpacked or stored', async () => {
    server = await startServer();
    // A zip's local file header, then deflated zeros: unpacked it would be huge; it is never unpacked.
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), deflateRawSync(Buffer.alloc(20_000_000))]);
    for (const mediaType of ['application/zip', 'image/png']) {
      const response = await post(
        JSON.stringify({
          id: 'c1',
          messages: [
            {
              id: 'u',
              role: 'user',
              parts: [
                { type: 'text', text: 'look' },
                {
                  type: 'file',
                  mediaType,
                  filename: 'bomb.zip',
                  url: `data:${mediaType};base64,${zip.toString('base64')}`,
                },
              ],
            },
          ],
        }),
      );
      expect(response.status, mediaType).toBe(415);
      expect(response.json().error.code, mediaType).toMatch(/^file_(unsupported_type|type_mismatch)$/);
    }
    expect(await server.sessions.get('c1', { owner: 'alice' })).toBeNull();
  });

  it('a wrong method answers 405 with Allow; an unknown route answers 404', async () => {
    server = await startServer();
    const get = await raw('GET', apiPath('chat'));
    expect(get.status).toBe(405);
    const put = await raw('PUT', apiPath('chat-id', 'c1'));
    expect(put.status).toBe(405);
    expect((await raw('POST', apiPath('session', 'c1'))).status).toBe(405);
    expect((await raw('GET', '/api/nothing')).status).toBe(404);
    expect((await raw('GET', '/elsewhere')).status).toBe(404);
    expect((await raw('GET', `${apiPath('chat-stream', 'c1')}/more`)).status).toBe(404);
  });
});
