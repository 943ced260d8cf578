/**
 * End to end over the wire: spans of a real conversation exported by the OpenTelemetry SDK's
 * OTLP/HTTP exporter (JSON) arrive at a receiver listening on 127.0.0.1, with the tree and the
 * attributes intact.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, test } from 'vitest';
import { z } from 'zod';
import { Agent, createSession, Skill, scriptedModel, Tool } from '../src/index.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number; message?: string };
  events?: { name: string }[];
}

function plain(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

/** A tiny OTLP/HTTP receiver: it keeps the content type of each request and the spans, decoded. */
async function receiver() {
  const requests: { path: string; type: string }[] = [];
  const spans: (OtlpSpan & { scope: string; service: unknown })[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    requests.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '' });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    for (const resource of body.resourceSpans ?? []) {
      const service = plain(
        resource.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value ?? {},
      );
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) spans.push({ ...span, scope: scope.scope?.name, service });
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, requests, spans, close: () => server.close() };
}

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

test('spans exported over OTLP/HTTP arrive with their tree, GenAI attributes and error status', async () => {
  const rx = await receiver();
  cleanup.push(rx.close);
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: rx.url }))],
  });
  cleanup.push(() => provider.shutdown());
  const session = createSession(
    <Agent>
      <Skill name="orders" description="Orders">
        <Tool
          name="cancel"
          description="Cancel an order"
          input={z.object({ id: z.string() })}
          run={() => {
            throw new Error('already shipped');
          }}
        />
      </Skill>
    </Agent>,
    {
      model: scriptedModel([
        { toolCalls: [{ id: 'r', name: 'read_skill', input: { name: 'orders' } }] },
        { toolCalls: [{ id: 'k', name: 'cancel', input: { id: 'A-1' } }] },
        { text: 'It already shipped.' },
      ]),
      telemetry: { tracer: provider.getTracer('@skilltree/core'), conversationId: 'otlp-1' },
    },
  );
  await session.send('cancel A-1');
  await provider.forceFlush();

  expect(rx.requests.length).toBeGreaterThan(0);
  expect(rx.requests.every((r) => r.path === '/v1/traces' && r.type.startsWith('application/json'))).toBe(true);
  const byId = new Map(rx.spans.map((s) => [s.spanId, s]));
  const path = (s: OtlpSpan): string =>
    s.parentSpanId && byId.has(s.parentSpanId) ? `${path(byId.get(s.parentSpanId) as OtlpSpan)} > ${s.name}` : s.name;
  expect(rx.spans.map(path).sort()).toEqual(
    [
      'invoke_agent',
      'invoke_agent > chat scripted',
      'invoke_agent > chat scripted',
      'invoke_agent > chat scripted',
      'invoke_agent > execute_tool read_skill',
      'invoke_agent > execute_tool read_skill > load_skill orders',
      'invoke_agent > execute_tool cancel',
    ].sort(),
  );
  expect(new Set(rx.spans.map((s) => s.traceId)).size).toBe(1);
  expect(new Set(rx.spans.map((s) => s.scope))).toEqual(new Set(['@skilltree/core']));
  const attrs = (s: OtlpSpan) => Object.fromEntries(s.attributes.map((a) => [a.key, plain(a.value)]));
  const chat = rx.spans.find((s) => s.name === 'chat scripted') as OtlpSpan;
  expect(chat.kind).toBe(3); // OTLP's SPAN_KIND_CLIENT
  expect(attrs(chat)).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'scripted',
    'gen_ai.request.model': 'scripted',
    'gen_ai.conversation.id': 'otlp-1',
    'skilltree.tools.offered': ['read_skill'],
  });
  expect(attrs(chat)['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
  const cancel = rx.spans.find((s) => s.name === 'execute_tool cancel') as OtlpSpan;
  expect(attrs(cancel)).toMatchObject({
    'gen_ai.tool.name': 'cancel',
    'gen_ai.tool.call.id': 'k',
    'skilltree.skill': 'orders',
  });
  // Without recordContent the tool's error text stays off the span: its type and a generic status.
  expect(cancel.status).toMatchObject({
    code: 2,
    message: 'The tool call failed (Error); its message is recorded only with telemetry.recordContent.',
  });
  expect(attrs(cancel)['error.type']).toBe('Error');
  expect(cancel.events?.map((e) => e.name)).toEqual(['exception']);
  expect(JSON.stringify(rx.spans)).not.toContain('already shipped');
});
