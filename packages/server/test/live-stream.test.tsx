/**
 * The UI stream tells the truth as it happens: a tool call's `tool-input-available` reaches the
 * browser before the tool finishes, and a long tool keeps the stream alive with SSE comments (so a
 * proxy's read timeout does not cut it). Read with the `ai` package's own client; the tool (`hold`)
 * waits until the test releases it, and the keep-alive interval is the test's own.
 */
import { DefaultChatTransport } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler, type SkilltreeUIMessage } from '../src/index.js';
import { apiPath, client, held, plain, sendThrough, startServer, type TestServer, userMessage } from './helpers.js';

let server: TestServer;
afterEach(async () => {
  held.release?.('released by cleanup');
  held.release = null;
  await server?.close();
});

/** A fetch that hands the response through and resolves `keptAlive` once a `: keep-alive` comment arrived. */
function watchingFetch() {
  let sawKeepAlive!: () => void;
  const keptAlive = new Promise<void>((resolve) => {
    sawKeepAlive = resolve;
  });
  let raw = '';
  const decoder = new TextDecoder();
  const watched: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = (response.body as ReadableStream<Uint8Array>).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          raw += decoder.decode(chunk, { stream: true });
          if (raw.includes('\n: keep-alive\n\n')) sawKeepAlive();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: watched, keptAlive, raw: () => raw };
}

describe('the UI stream tells the truth as it happens', () => {
  it('tool-input-available reaches the client before the tool finishes, not with its result', async () => {
    server = await startServer();
    const { transport } = client(server.url);
    let releasedAt = -1;
    const { chunks, errors, message } = await sendThrough(transport, 'c1', 'hold', {
      onChunk: (chunk, before) => {
        if (chunk.type === 'tool-input-available' && chunk.toolName === 'hold') {
          // The tool is still running: its output has not been sent.
          expect(before.some((c) => c.type === 'tool-output-available' && c.toolCallId === 'h')).toBe(false);
          releasedAt = before.length;
          held.release?.('the held answer');
        }
      },
    });
    expect(errors).toEqual([]);
    expect(releasedAt).toBeGreaterThan(0);
    const output = chunks.findIndex((c) => c.type === 'tool-output-available' && c.toolCallId === 'h');
    expect(output).toBeGreaterThanOrEqual(releasedAt);
    expect(plain(message.parts).find((p) => 'toolCallId' in p && p.toolCallId === 'h')).toMatchObject({
      type: 'dynamic-tool',
      toolName: 'hold',
      state: 'output-available',
      output: 'the held answer',
    });
  });

  it('a long tool call keeps the stream alive with SSE comments every keepAliveMs, and useChat’s client reads the turn as usual', async () => {
    server = await startServer({ keepAliveMs: 5 });
    const watch = watchingFetch();
    const transport = new DefaultChatTransport<SkilltreeUIMessage>({
      api: `${server.url}${apiPath('chat')}`,
      headers: { 'x-user': 'alice' },
      fetch: watch.fetch,
    });
    const { errors, message } = await sendThrough(transport, 'c1', 'hold', {
      onChunk: async (chunk) => {
        if (chunk.type === 'tool-input-available' && chunk.toolName === 'hold') {
          // Let the tool go only after the stream was kept alive while it ran.
          await watch.keptAlive;
          held.release?.('kept alive');
        }
      },
    });
    expect(errors).toEqual([]);
    expect(watch.raw().startsWith(': stream-open\n\n')).toBe(true);
    expect(watch.raw()).toContain('\n: keep-alive\n\n');
    expect(plain(message.parts).at(-1)).toEqual({ type: 'text', text: 'Held and released.', state: 'done' });
  });

  it('keepAliveMs: false sends no comments; a keepAliveMs that is not a positive number is refused when the handler is made', async () => {
    server = await startServer({ keepAliveMs: false });
    const response = await fetch(`${server.url}${apiPath('chat')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice' },
      body: JSON.stringify({ id: 'c1', messages: [userMessage('hello')], trigger: 'submit-message' }),
    });
    expect(await response.text()).not.toMatch(/^:/m);
    for (const keepAliveMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '15000' as unknown as number]) {
      expect(() => createHandler({ sessions: server.sessions, keepAliveMs, log: false })).toThrow(
        /keepAliveMs must be a number of milliseconds above 0/,
      );
    }
  });
});
