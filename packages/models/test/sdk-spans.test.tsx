/**
 * The provider SDK's own spans never start traces of their own. `@anthropic-ai/sdk` 1.15 makes an
 * OpenTelemetry span per API call, a child of the active context: without a context manager, a
 * second root trace per model call, counting its tokens again. `anthropic()` turns them off by
 * default, and with `sdkSpans: true` nests each under skilltree's `chat` span of the call. Checked
 * with the real SDK, its in-memory exporter and the local Anthropic wire-format server.
 * (The `openai` SDK makes no spans.)
 */
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Agent, createSession, Instructions, type Model } from '@skilltree/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropic } from '../src/anthropic.js';
import { generateOnly } from './helpers/generate-only.js';
import { simpleRequest } from './helpers/request.js';
import { json, sse, startServer, type TestServer } from './helpers/server.js';
import { anthropicEvents, anthropicMessage } from './helpers/wire.js';

const SDK_SCOPE = 'com.anthropic.sdk.typescript';

let server: TestServer;
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
beforeEach(async () => {
  server = await startServer();
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // The SDK traces through the registered provider, as in an app: register one, so it would.
  trace.setGlobalTracerProvider(provider);
});
afterEach(async () => {
  trace.disable();
  await provider.shutdown();
  await server.close();
});

const Shop = () => (
  <Agent>
    <Instructions>You run a shop.</Instructions>
  </Agent>
);

function model(extra: Partial<Parameters<typeof anthropic>[0]> = {}): Model {
  return anthropic({ model: 'claude-test', apiKey: 'sk-test', baseURL: server.url, initialRetryDelayMs: 1, ...extra });
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('the Anthropic SDK’s own spans never start a trace of their own', () => {
  it('by default the SDK makes no span: a traced turn is one trace, with one chat span per call (stream and generate)', async () => {
    server.queue(sse(anthropicEvents({ text: 'Hello!' })), json(200, anthropicMessage({ text: 'Hello again!' })));
    await createSession(<Shop />, { model: model() }).send('hi');
    await createSession(<Shop />, { model: generateOnly(model()) }).send('hi');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat claude-test',
      'chat claude-test',
      'invoke_agent',
      'invoke_agent',
    ]);
    expect(spans.filter((s) => s.instrumentationScope.name === SDK_SCOPE)).toEqual([]);
    // Each chat span is under its turn, and the usage is counted once per call, there.
    for (const chat of spans.filter((s) => s.name === 'chat claude-test')) {
      const turn = spans.find((s) => s.spanContext().spanId === parentOf(chat)) as ReadableSpan;
      expect(turn.name).toBe('invoke_agent');
      expect(chat.attributes['gen_ai.usage.output_tokens']).toBe(5);
    }
  });

  it('with sdkSpans: true each SDK span is a child of skilltree’s chat span of its call, in the turn’s trace', async () => {
    server.queue(sse(anthropicEvents({ text: 'Hello!' })), json(200, anthropicMessage({ text: 'Hello again!' })));
    await createSession(<Shop />, { model: model({ sdkSpans: true }) }).send('hi');
    await createSession(<Shop />, { model: generateOnly(model({ sdkSpans: true })) }).send('hi');
    const spans = exporter.getFinishedSpans();
    const sdk = spans.filter((s) => s.instrumentationScope.name === SDK_SCOPE);
    expect(sdk.map((s) => s.name)).toEqual(['anthropic.messages.create', 'anthropic.messages.create']);
    const roots = spans.filter((s) => s.parentSpanContext === undefined);
    expect(roots.map((s) => s.name)).toEqual(['invoke_agent', 'invoke_agent']);
    for (const span of sdk) {
      const chat = spans.find((s) => s.spanContext().spanId === parentOf(span)) as ReadableSpan;
      expect(chat.name).toBe('chat claude-test');
      expect(span.spanContext().traceId).toBe(chat.spanContext().traceId);
    }
  });

  it('with sdkSpans: true a call outside any traced turn still works, and its SDK span is the caller’s to place', async () => {
    server.queue(json(200, anthropicMessage({ text: 'direct' })));
    const response = await model({ sdkSpans: true }).generate(simpleRequest(), {});
    expect(response.text).toBe('direct');
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('anthropic.messages.create');
    expect(span.parentSpanContext).toBeUndefined();
  });
});
