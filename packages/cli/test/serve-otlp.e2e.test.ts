/**
 * `skilltree serve --otlp <url>` / `$OTEL_EXPORTER_OTLP_ENDPOINT`: the real binary exports the spans
 * of each request and turn over OTLP/HTTP to a receiver on 127.0.0.1, and flushes them on Ctrl+C.
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { otlpEndpoint, serveTelemetry } from '../src/commands/serve/otlp.js';
import { runCli } from './helpers/run-cli.js';
import { type ServeProcess, startServe } from './serve-helpers.js';

interface Span {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** Collects the spans of every OTLP/HTTP JSON request it receives. */
async function receiver() {
  const spans: (Span & { service?: string; path: string })[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    for (const resource of JSON.parse(body).resourceSpans ?? []) {
      const service = resource.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value
        ?.stringValue;
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) spans.push({ ...span, service, path: req.url ?? '' });
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, spans, close: () => server.close() };
}

async function chat(url: string) {
  const response = await fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'c1',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'I want a lamp' }] }],
      trigger: 'submit-message',
    }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

let serve: ServeProcess | undefined;
let rx: Awaited<ReturnType<typeof receiver>> | undefined;
afterEach(async () => {
  await serve?.stop();
  rx?.close();
  serve = undefined;
  rx = undefined;
});

describe('skilltree serve --otlp', () => {
  it('exports each request span with the turn, model calls, tool calls and skill load under it', async () => {
    rx = await receiver();
    serve = await startServe([
      'test/fixtures/shop-agent.tsx',
      '--port',
      '0',
      '--model',
      'demo',
      '--otlp',
      `${rx.base}/v1/traces`,
    ]);
    await chat(serve.url);
    const stdout = serve.stdout;
    expect(await serve.stop()).toBe(0);
    serve = undefined;
    expect(stdout()).toContain(`traces: OTLP/HTTP to ${rx.base}/v1/traces`);
    const byId = new Map(rx.spans.map((s) => [s.spanId, s]));
    const parent = (s: Span) => (s.parentSpanId ? byId.get(s.parentSpanId)?.name : undefined);
    expect(rx.spans.map((s) => s.name)).toContain('POST /api/chat');
    const turn = rx.spans.find((s) => s.name === 'invoke_agent');
    expect(turn && parent(turn)).toBe('POST /api/chat');
    const names = rx.spans.map((s) => s.name);
    expect(names).toContain('execute_tool read_skill');
    expect(names).toContain('load_skill shopping');
    expect(names.filter((n) => n.startsWith('chat '))).not.toHaveLength(0);
    for (const span of rx.spans) expect(span.path).toBe('/v1/traces');
  });

  it('uses $OTEL_EXPORTER_OTLP_ENDPOINT (with /v1/traces) when --otlp is not given', async () => {
    rx = await receiver();
    serve = await startServe(['test/fixtures/shop-agent.tsx', '--port', '0', '--model', 'demo'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: rx.base,
      OTEL_SERVICE_NAME: 'shop',
    });
    await chat(serve.url);
    expect(await serve.stop()).toBe(0);
    serve = undefined;
    expect(rx.spans.map((s) => s.name)).toContain('POST /api/chat');
    expect(new Set(rx.spans.map((s) => s.path))).toEqual(new Set(['/v1/traces']));
  });

  it("--otlp wins over the module's telemetry tracer, and keeps its agentName and attributes", async () => {
    rx = await receiver();
    const spans = join(mkdtempSync(join(tmpdir(), 'skilltree-spans-')), 'spans.txt');
    serve = await startServe(
      ['test/fixtures/serve-options-agent.tsx', '--port', '0', '--otlp', `${rx.base}/v1/traces`],
      { SKILLTREE_TEST_SPANS: spans },
    );
    const response = await fetch(`${serve.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice' },
      body: JSON.stringify({ id: 'c1', message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] } }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const stderr = serve.stderr;
    expect(await serve.stop()).toBe(0);
    serve = undefined;
    expect(stderr()).toContain("--otlp sends the spans to its exporter; the module's telemetry tracer is not used.");
    const turn = rx.spans.find((s) => s.name === 'invoke_agent fixture-shop');
    expect(turn?.attributes).toContainEqual({ key: 'app.tenant', value: { stringValue: 'acme' } });
    expect(rx.spans.map((s) => s.name)).toContain('POST /api/chat');
    expect(existsSync(spans)).toBe(false); // the module's own tracer got nothing
  });

  it('reads the endpoint from the flag, then the traces variable, then the base variable', () => {
    expect(otlpEndpoint(' http://a:4318/x ', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b' })).toBe('http://a:4318/x');
    expect(otlpEndpoint(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/v1/traces' })).toBe(
      'http://t/v1/traces',
    );
    expect(otlpEndpoint(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:4318/' })).toBe('http://b:4318/v1/traces');
    expect(otlpEndpoint(undefined, {})).toBeNull();
  });

  it("the module's telemetry applies to the sessions and the requests; --otlp overrides only its tracer and enabled", () => {
    const tracer = { startSpan: () => ({}) };
    expect(serveTelemetry(undefined, true)).toEqual({});
    expect(serveTelemetry(false, false)).toEqual({ sessions: false, handler: false });
    expect(serveTelemetry(false, true).notice).toMatch(
      /--otlp turns tracing on although the module exports telemetry = false/,
    );
    expect(serveTelemetry({ tracer, agentName: 'a' }, false)).toEqual({
      sessions: { tracer, agentName: 'a' },
      handler: { tracer },
    });
    expect(serveTelemetry({ enabled: false, recordContent: true }, false).handler).toBe(false);
    const flagged = serveTelemetry({ tracer, enabled: false, recordContent: true }, true);
    expect(flagged.sessions).toEqual({ recordContent: true });
    expect(flagged.handler).toBe(true);
    expect(flagged.notice).toMatch(/the module's telemetry tracer and enabled: false are not used/);
  });

  it('refuses an --otlp that is not an http(s) URL, with exit code 2', async () => {
    const { code, stderr } = await runCli(['serve', 'test/fixtures/shop-agent.tsx', '--otlp', 'localhost:4318']);
    expect(code).toBe(2);
    expect(stderr).toContain('--otlp needs an http(s) URL');
  });
});
