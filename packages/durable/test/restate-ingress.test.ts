/**
 * How `restateEngine` reads the ingress's refusal to resolve a wait: an id it cannot parse or an
 * awakeable it does not know (400, 404, 410) can never be resolved, so the signal is undeliverable
 * and the answer does not send it again; anything else (503, 429, a dropped connection) is tried
 * again. Against a local HTTP server that answers with each status.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WaitUndeliverableError } from '@skilltree/core/provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveAwakeable } from '../src/restate-ingress.js';

let server: Server;
let ingress = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const status = Number(new URL(request.url ?? '/', 'http://x').pathname.split('/')[3]?.split('-')[1]);
    response.writeHead(status || 500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: `status ${status}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ingress = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a wait the ingress says can never be resolved is undeliverable', () => {
  test.each([400, 404, 410])('%i', async (status) => {
    await expect(resolveAwakeable(ingress, `sign_1-${status}`, { text: 'x' })).rejects.toBeInstanceOf(
      WaitUndeliverableError,
    );
  });
});

describe('any other refusal is tried again (a plain error)', () => {
  test.each([429, 500, 503])('%i', async (status) => {
    const sent = resolveAwakeable(ingress, `sign_1-${status}`, { text: 'x' });
    await expect(sent).rejects.toThrow(`refused to resolve it: ${status}`);
    await expect(sent).rejects.not.toBeInstanceOf(WaitUndeliverableError);
  });
});

test('a resolved wait is no error', async () => {
  await expect(resolveAwakeable(ingress, 'sign_1-200', { text: 'x' })).resolves.toBeUndefined();
});
