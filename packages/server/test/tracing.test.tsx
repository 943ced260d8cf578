/**
 * The server's traces, with the real SDK: a server span per request named after its route, the
 * caller's trace continued from `traceparent`, and the turn's spans under the request's span.
 */
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { memoryStore } from '@skilltree/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPath, client, DB_SECRET, startServer, type TestServer, userMessage } from './helpers.js';

let server: TestServer | null = null;
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
});
afterEach(async () => {
  await server?.close();
  server = null;
  trace.disable();
  await provider.shutdown();
});

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

/** The finished spans once `count` holds for them: waits for the spans, however long a busy machine takes. */
async function spansWhen(count: (spans: ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  for (;;) {
    const spans = exporter.getFinishedSpans();
    if (count(spans)) return spans;
    await new Promise((r) => setTimeout(r, 5));
  }
}

function post(url: string, text: string, headers: Record<string, string> = {}) {
  return fetch(`${url}${apiPath('chat')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': 'alice', ...headers },
    body: JSON.stringify({ id: 'c1', messages: [userMessage(text)], trigger: 'submit-message' }),
  });
}

describe('a span per request', () => {
  it('POST /api/chat continues the caller’s trace from traceparent, and the turn’s spans nest under it', async () => {
    server = await startServer();
    const response = await post(server.url, 'note milk', { traceparent: `00-${TRACE}-${PARENT}-01` });
    await response.text();
    const spans = await spansWhen((s) => s.some((x) => x.name === `POST ${apiPath('chat')}`));
    const request = spans.find((s) => s.name === `POST ${apiPath('chat')}`) as ReadableSpan;
    expect(request.kind).toBe(1); // SERVER
    expect(request.spanContext().traceId).toBe(TRACE);
    expect(request.parentSpanContext?.spanId).toBe(PARENT);
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/chat',
      'url.path': '/api/chat',
      'http.response.status_code': 200,
    });
    const turn = spans.find((s) => s.name === 'invoke_agent') as ReadableSpan;
    expect(turn.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(turn.attributes).toMatchObject({ 'skilltree.session.id': 'c1', 'skilltree.owner': 'alice' });
    const chats = spans.filter((s) => s.name === 'chat rules');
    expect(chats).toHaveLength(3);
    for (const chat of chats) expect(chat.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    // The request span lasts as long as the stream: it ends after the turn.
    expect(request.endTime[0] * 1e9 + request.endTime[1]).toBeGreaterThanOrEqual(
      turn.endTime[0] * 1e9 + turn.endTime[1],
    );
  });

  it('a malformed or all-zero traceparent starts a new trace instead', async () => {
    server = await startServer();
    for (const header of [
      `00-${'0'.repeat(32)}-${PARENT}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE}-${PARENT}`,
      `zz-${TRACE}-${PARENT}-01\n`,
      'x'.repeat(10_000),
    ]) {
      exporter.reset();
      await (await post(server.url, 'hello', { traceparent: header })).text();
      const spans = await spansWhen((s) => s.some((x) => x.name === `POST ${apiPath('chat')}`));
      const request = spans.find((s) => s.name === `POST ${apiPath('chat')}`) as ReadableSpan;
      expect(request.parentSpanContext).toBeUndefined();
      expect(request.spanContext().traceId).not.toBe(TRACE);
    }
  });

  it('other routes are named by their template; a 404 is the client’s mistake, not an error span', async () => {
    server = await startServer();
    await client(server.url).history('nope');
    const [span] = await spansWhen((s) => s.length > 0);
    expect(span.name).toBe('GET /api/chat/:id');
    expect(span.attributes).toMatchObject({ 'http.route': '/api/chat/:id', 'http.response.status_code': 404 });
    expect(span.status.code).toBe(0);
  });

  it('a tracer that throws never turns a request into an error: the chat is answered as without tracing', async () => {
    const broken = {
      startSpan: () => {
        throw new Error('exporter exploded');
      },
    };
    server = await startServer({ telemetry: { tracer: broken }, sessionsOptions: { telemetry: { tracer: broken } } });
    const response = await post(server.url, 'note milk');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"type":"finish"');
    expect((await client(server.url).history('c1')).status).toBe(200);
  });

  it('telemetry: false makes no request span', async () => {
    server = await startServer({ telemetry: false, sessionsOptions: { telemetry: false } });
    await (await post(server.url, 'hello')).text();
    await new Promise((r) => setTimeout(r, 20));
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('a request that fails with a secret in its error: the request span carries error.type and a generic status, never the text (recordContent shows it)', async () => {
    const failing = () => {
      const store = memoryStore();
      return {
        ...store,
        record: async () => {
          throw new Error(`connect ECONNREFUSED ${DB_SECRET}`);
        },
      };
    };
    for (const recordContent of [false, true]) {
      exporter.reset();
      server = await startServer({ telemetry: { recordContent }, sessionsOptions: { store: failing() } });
      expect((await post(server.url, 'hello')).status).toBe(500);
      const spans = await spansWhen((s) => s.some((x) => x.name === `POST ${apiPath('chat')}`));
      const request = spans.find((s) => s.name === `POST ${apiPath('chat')}`) as ReadableSpan;
      expect(request.status.code).toBe(2);
      expect(request.attributes['error.type']).toBe('Error');
      const shown = JSON.stringify([request.attributes, request.events, request.status]);
      if (recordContent) {
        expect(request.status.message).toBe(`connect ECONNREFUSED ${DB_SECRET}`);
      } else {
        expect(shown).not.toContain('hunter2');
        expect(request.status.message).toBe(
          'The request failed (Error); its message is recorded only with telemetry.recordContent.',
        );
        expect(request.events).toEqual([]);
      }
      await server.close();
      server = null;
    }
  });
});
