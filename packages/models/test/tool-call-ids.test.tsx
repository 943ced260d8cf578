/**
 * Rule: tool-call ids that an adapter makes up (the server left them out, or repeated one within a
 * response) are unique across steps, across adapter instances and across processes: never `call_0`
 * at every step.
 */
import { createSession, type Model, textOf } from '@skilltree/core';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdk } from '../src/ai-sdk.js';
import { anthropic } from '../src/anthropic.js';
import { openai } from '../src/openai.js';
import { freshToolCallId } from '../src/tool-call-id.js';
import { collect } from './helpers/collect.js';
import { simpleRequest } from './helpers/request.js';
import { json, serverPerTest, sse } from './helpers/server.js';
import { Shop } from './helpers/shop.js';
import {
  anthropicEvents,
  anthropicMessage,
  openaiChunks,
  openaiCompletion,
  v3Parts,
  v3Result,
  type WireStep,
} from './helpers/wire.js';

const server = serverPerTest();

const CALL_ID = /^call_[0-9a-f]{24}$/;

/** Two tool calls without ids in one response. */
const NO_IDS: WireStep = {
  toolCalls: [
    { id: '', name: 'add_to_cart', input: { sku: 'lamp' } },
    { id: '', name: 'add_to_cart', input: { sku: 'desk' } },
  ],
};

const openaiModel = () => openai({ model: 'gpt-test', api: 'chat', apiKey: 'k', baseURL: `${server.url}/v1` });

function idsOf(parts: { type: string; id?: string }[]): string[] {
  return parts.filter((p) => p.type === 'tool-call').map((p) => p.id as string);
}

describe('unique tool call ids: ids the adapters make up', () => {
  it('openai: ids missing from responses are unique across steps and adapter instances (generate and stream)', async () => {
    server.queue(
      ...[1, 2, 3].map(() => json(200, openaiCompletion(NO_IDS))),
      ...[1, 2, 3].map(() => sse(openaiChunks(NO_IDS))),
    );
    const ids: string[] = [];
    for (const model of [openaiModel(), openaiModel(), openaiModel()]) {
      ids.push(...(await model.generate(simpleRequest(), {})).toolCalls.map((c) => c.id));
    }
    const one = openaiModel();
    for (let step = 0; step < 3; step++) ids.push(...idsOf(await collect(one.stream!(simpleRequest(), {}))));
    expect(ids).toHaveLength(12);
    for (const id of ids) expect(id).toMatch(CALL_ID);
    expect(new Set(ids).size).toBe(12);
  });

  it('openai: an id repeated within one response is replaced; distinct provider ids are kept', async () => {
    const step: WireStep = {
      toolCalls: [
        { id: 'call_0', name: 'add_to_cart', input: { sku: 'a' } },
        { id: 'call_0', name: 'add_to_cart', input: { sku: 'b' } },
        { id: 'call_9', name: 'add_to_cart', input: { sku: 'c' } },
      ],
    };
    server.queue(json(200, openaiCompletion(step)));
    const [first, second, third] = (await openaiModel().generate(simpleRequest(), {})).toolCalls.map((c) => c.id);
    expect(first).toBe('call_0');
    expect(second).toMatch(CALL_ID);
    expect(third).toBe('call_9');
  });

  it('anthropic: a tool_use without an id gets a fresh toolu_ id (generate and stream)', async () => {
    server.queue(json(200, anthropicMessage(NO_IDS)), sse(anthropicEvents(NO_IDS)));
    const model = anthropic({ model: 'claude-test', apiKey: 'k', baseURL: server.url });
    const ids = [
      ...(await model.generate(simpleRequest(), {})).toolCalls.map((c) => c.id),
      ...idsOf(await collect(model.stream!(simpleRequest(), {}))),
    ];
    for (const id of ids) expect(id).toMatch(/^toolu_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(4);
  });

  it('ai-sdk: a tool-call part without a toolCallId gets a fresh id (generate and stream)', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => v3Result(NO_IDS),
      doStream: async () => ({ stream: convertArrayToReadableStream(v3Parts(NO_IDS)) }),
    });
    const model = aiSdk(mock);
    const ids = [
      ...(await model.generate(simpleRequest(), {})).toolCalls.map((c) => c.id),
      ...idsOf(await collect(model.stream!(simpleRequest(), {}))),
    ];
    for (const id of ids) expect(id).toMatch(CALL_ID);
    expect(new Set(ids).size).toBe(4);
  });

  it('a session whose server never sends ids gets a transcript with unique ids, results matched to calls', async () => {
    server.queue(
      sse(openaiChunks(NO_IDS)),
      sse(openaiChunks({ toolCalls: [{ id: '', name: 'add_to_cart', input: { sku: 'rug' } }] })),
      sse(openaiChunks({ text: 'Done.' })),
    );
    const session = createSession(<Shop />, { model: openaiModel() as Model });
    try {
      expect((await session.send('buy things')).text).toBe('Done.');
      const calls = session.transcript.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
      const results = session.transcript.flatMap((m) => (m.role === 'tool' ? [m] : []));
      expect(calls.map((c) => c.id)).toHaveLength(3);
      expect(new Set(calls.map((c) => c.id)).size).toBe(3);
      expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
      expect(results.map((r) => textOf(r))).toEqual(['added lamp', 'added desk', 'added rug']);
      // The next request sends the made-up ids back exactly as recorded.
      const sent = server.requests[2].body.messages.flatMap((m: { tool_calls?: { id: string }[] }) =>
        (m.tool_calls ?? []).map((c) => c.id),
      );
      expect(sent).toEqual(calls.map((c) => c.id));
    } finally {
      session.dispose();
    }
  });

  it("an id no provider accepts (not 1–64 letters, digits, _ or -) is replaced; a safe one is kept (core's rule)", async () => {
    const unsafe: WireStep = {
      toolCalls: [
        { id: 'call.1:2', name: 'add_to_cart', input: { sku: 'lamp' } },
        { id: 'x'.repeat(65), name: 'add_to_cart', input: { sku: 'desk' } },
        { id: 'call_kept-1', name: 'add_to_cart', input: { sku: 'rug' } },
      ],
    };
    server.queue(json(200, openaiCompletion(unsafe)), sse(openaiChunks(unsafe)));
    const model = openaiModel();
    for (const ids of [
      (await model.generate(simpleRequest(), {})).toolCalls.map((c) => c.id),
      idsOf(await collect(model.stream!(simpleRequest(), {}))),
    ]) {
      expect(ids[0]).toMatch(CALL_ID);
      expect(ids[1]).toMatch(CALL_ID);
      expect(ids[2]).toBe('call_kept-1');
    }
  });

  it('freshToolCallId: 10 000 ids, no repeats', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => freshToolCallId()));
    expect(ids.size).toBe(10_000);
  });
});
