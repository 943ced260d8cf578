/**
 * The tracing set-up of docs/observability.md, run against an OTLP/HTTP receiver on 127.0.0.1: the
 * spans of a turn arrive under the service name it sets, never as `unknown_service`.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { Agent, createSession, Instructions, scriptedModel } from '@skilltree/core';
import { afterEach, expect, test } from 'vitest';
import { startTracing } from './observability-setup.js';

afterEach(() => {
  trace.disable();
});

test('the tracing set-up names the service: every span arrives with service.name', async () => {
  const services: unknown[] = [];
  const names: string[] = [];
  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    for (const { resource, scopeSpans } of body.resourceSpans ?? []) {
      const service = resource?.attributes?.find((a: { key: string }) => a.key === 'service.name');
      for (const { spans } of scopeSpans ?? []) {
        for (const span of spans ?? []) {
          services.push(service?.value?.stringValue);
          names.push(span.name);
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const { port } = receiver.address() as AddressInfo;
  try {
    const stop = startTracing({ service: 'shop-agent', url: `http://127.0.0.1:${port}/v1/traces` });
    const session = createSession(
      <Agent>
        <Instructions>You run a shop.</Instructions>
      </Agent>,
      { model: scriptedModel([{ text: 'Hello!' }]) },
    );
    await session.send('hi');
    await stop();
    expect(names.sort()).toEqual(['chat scripted', 'invoke_agent']);
    expect(services).toEqual(['shop-agent', 'shop-agent']);
  } finally {
    receiver.close();
  }
});
