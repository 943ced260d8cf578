/**
 * The AI SDK bridge carries parts both ways: reasoning read with its provider metadata and sent back
 * with it (so `@ai-sdk/anthropic`'s signatures and `@ai-sdk/openai`'s item ids and encrypted content
 * round-trip, over HTTP to servers that check them), only to the provider and model that produced
 * it; files as the specification's file parts, in user messages and in tool results.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { Agent, createSession, type ModelRequest, Skill } from '@skilltree/core';
import type { ReasoningPart } from '@skilltree/core/provider';
import { anthropicMessageObject } from '@skilltree/test-kit';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdk, aiSdkCallOptions } from '../src/ai-sdk.js';
import { ev, thinkingEvents } from './helpers/anthropic-thinking.js';
import { collect } from './helpers/collect.js';
import { streamedOrNot } from './helpers/generate-only.js';
import { openaiScript } from './helpers/openai-rules.js';
import { simpleRequest, text } from './helpers/request.js';
import { json, type SseEvent, serverPerTest, sse } from './helpers/server.js';
import { AddToCart } from './helpers/shop.js';
import { anthropicEvents, anthropicMessage } from './helpers/wire.js';

const server = serverPerTest();

function Shop() {
  return (
    <Agent>
      <Skill name="shopping" description="Find and buy products">
        <AddToCart />
      </Skill>
    </Agent>
  );
}

describe('ai-sdk: @ai-sdk/anthropic thinking round-trips with its signature', () => {
  const usage = { input_tokens: 10, output_tokens: 5 };
  const message = (content: unknown[], stop: string) => anthropicMessageObject(content, stop, usage, 'claude-opus-5-5');
  const thinking = { type: 'thinking', thinking: 'They want the lamp.', signature: 'sig-Abc123==' };
  const call = { type: 'tool_use', id: 'toolu_1', name: 'read_skill', input: { name: 'shopping' } };

  function events(): SseEvent[] {
    return [
      ev({ type: 'message_start', message: { ...message([], 'tool_use'), stop_reason: null } }),
      ...thinkingEvents(0, ['They want ', 'the lamp.'], 'sig-Abc123=='),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'content_block_start', index: 1, content_block: { ...call, input: {} } }),
      ev({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"name":"shopping"}' },
      }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 5 },
      }),
      ev({ type: 'message_stop' }),
    ];
  }

  for (const streamed of [true, false]) {
    it(`the next request starts the assistant turn with the thinking block, signature byte-exact (${streamed ? 'stream' : 'generate'})`, async () => {
      server.queue(
        streamed ? sse(events()) : json(200, message([thinking, call], 'tool_use')),
        streamed ? sse(anthropicEvents({ text: 'Found it.' })) : json(200, anthropicMessage({ text: 'Found it.' })),
      );
      const model = aiSdk(createAnthropic({ apiKey: 'k', baseURL: `${server.url}/v1` })('claude-opus-5-5'));
      const seen: unknown[] = [];
      const session = createSession(<Shop />, { model: streamedOrNot(model, streamed) });
      session.on('event', (e) => {
        if (e.type === 'reasoning' || e.type === 'reasoning-delta') seen.push(e);
      });
      try {
        expect((await session.send('a lamp')).text).toBe('Found it.');
      } finally {
        session.dispose();
      }
      const part: ReasoningPart = {
        type: 'reasoning',
        provider: 'ai-sdk:anthropic.messages',
        model: 'claude-opus-5-5',
        text: 'They want the lamp.',
        providerData: { anthropic: { signature: 'sig-Abc123==' } },
      };
      expect(session.transcript[1]).toMatchObject({ role: 'assistant', content: [part] });
      const assistant = server.requests[1].body.messages[1];
      expect(assistant).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'They want the lamp.', signature: 'sig-Abc123==' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_skill', input: { name: 'shopping' } },
        ],
      });
      if (streamed) {
        expect(seen).toEqual([
          { type: 'reasoning-delta', text: 'They want ' },
          { type: 'reasoning-delta', text: 'the lamp.' },
          { type: 'reasoning', reasoning: part },
        ]);
      }
    });
  }
});

describe('ai-sdk: @ai-sdk/openai reasoning round-trips with its item id and encrypted content', () => {
  for (const streamed of [true, false]) {
    it(`against a server that refuses an item id alone under store: false (${streamed ? 'stream' : 'generate'})`, async () => {
      const gpt = openaiScript([
        { toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'shopping' } }] },
        { text: 'Found it.' },
      ]);
      server.queue(gpt.handler, gpt.handler);
      const model = aiSdk(createOpenAI({ apiKey: 'k', baseURL: `${server.url}/v1` }).responses('gpt-5.6'), {
        providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'] } },
      });
      const session = createSession(<Shop />, { model: streamedOrNot(model, streamed) });
      try {
        expect((await session.send('a lamp')).text).toBe('Found it.');
      } finally {
        session.dispose();
      }
      expect(gpt.refusals).toEqual([]);
      const second = server.requests[1];
      expect(gpt.reasoned).toEqual([0, 1]);
      const part = session.transcript[1].content[0] as ReasoningPart;
      expect(part).toMatchObject({
        type: 'reasoning',
        provider: 'ai-sdk:openai.responses',
        model: 'gpt-5.6',
        providerData: {
          openai: { itemId: expect.stringMatching(/^rs_/), reasoningEncryptedContent: expect.stringMatching(/^enc\./) },
        },
      });
      const sent = (part.providerData as { openai: { itemId: string; reasoningEncryptedContent: string } }).openai;
      const replayed = second.body.input.find((i: { type?: string }) => i.type === 'reasoning');
      expect(replayed).toMatchObject({
        type: 'reasoning',
        id: sent.itemId,
        encrypted_content: sent.reasoningEncryptedContent,
      });
    });
  }
});

describe('ai-sdk: reasoning goes back only to the provider and model that produced it', () => {
  const request = (parts: ReasoningPart[]): ModelRequest => {
    const req = simpleRequest();
    req.messages = [
      { role: 'user', content: text('go') },
      { role: 'assistant', content: [...parts, ...text('ok')] },
      { role: 'user', content: text('and?') },
    ];
    return req;
  };
  const mine: ReasoningPart = {
    type: 'reasoning',
    provider: 'ai-sdk:openai.responses',
    model: 'gpt-5.6',
    text: 'hm',
    providerData: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc' } },
  };

  it('with the provider options its provider reads; not to another model or provider', () => {
    const call = aiSdkCallOptions(
      request([
        mine,
        { ...mine, model: 'gpt-5.5', providerData: { openai: { itemId: 'rs_other' } } },
        {
          type: 'reasoning',
          provider: 'ai-sdk:anthropic.messages',
          model: 'gpt-5.6',
          text: 'x',
          providerData: { anthropic: { signature: 's' } },
        },
        // The native adapter's reasoning, of the same model id: another source.
        { ...mine, provider: 'openai', providerData: { itemId: 'rs_native', encryptedContent: 'enc' } },
      ]),
      {},
      false,
      {
        provider: 'openai',
        modelId: 'gpt-5.6',
        version: 'v3',
        source: { provider: 'ai-sdk:openai.responses', model: 'gpt-5.6' },
      },
    );
    expect(call.prompt[2]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'hm',
          providerOptions: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc' } },
        },
        { type: 'text', text: 'ok' },
      ],
    });
  });

  it('a stream of reasoning parts: deltas for display, then each finished block with its merged metadata, in order', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      {
        type: 'reasoning-start',
        id: 'r',
        providerMetadata: { openai: { itemId: 'rs_9', reasoningEncryptedContent: null } },
      },
      { type: 'reasoning-delta', id: 'r', delta: 'thinking' },
      {
        type: 'reasoning-end',
        id: 'r',
        providerMetadata: { openai: { itemId: 'rs_9', reasoningEncryptedContent: 'enc-9' } },
      },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi.' },
      { type: 'text-end', id: 't' },
      {
        type: 'finish',
        usage: {
          inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: undefined },
          outputTokens: { total: 9, text: 2, reasoning: 7 },
        },
        finishReason: { unified: 'stop', raw: undefined },
      },
    ];
    const mock = new MockLanguageModelV3({
      provider: 'openai.responses',
      modelId: 'gpt-5.6',
      doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
    });
    expect(await collect(aiSdk(mock).stream!(simpleRequest(), {}))).toEqual([
      { type: 'reasoning-delta', text: 'thinking' },
      {
        type: 'reasoning',
        reasoning: {
          type: 'reasoning',
          provider: 'ai-sdk:openai.responses',
          model: 'gpt-5.6',
          text: 'thinking',
          providerData: { openai: { itemId: 'rs_9', reasoningEncryptedContent: 'enc-9' } },
        },
      },
      { type: 'text-delta', text: 'Hi.' },
      { type: 'finish', usage: { inputTokens: 5, outputTokens: 9, cacheReadTokens: 0, reasoningTokens: 7 } },
    ]);
  });
});

describe('ai-sdk: files as the specification file parts', () => {
  const PNG = 'iVBORw0KGgo=';
  const request = (): ModelRequest => {
    const req = simpleRequest();
    req.context = '';
    req.contextPlacement = 'system';
    req.messages = [
      {
        role: 'user',
        content: [
          ...text('look'),
          { type: 'file', mediaType: 'image/png', data: PNG, filename: 'a.png' },
          { type: 'file', mediaType: 'application/pdf', url: 'https://cdn.example/t.pdf' },
        ],
      },
      { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'render', input: {} }] },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'render',
        content: [
          ...text('chart:'),
          { type: 'file', mediaType: 'image/png', data: PNG },
          { type: 'file', mediaType: 'application/pdf', data: 'JVBE', filename: 'r.pdf' },
        ],
      },
    ];
    return req;
  };

  /** The call options for `request()` to a model `m` of provider `x` that speaks this version of the specification. */
  const callFor = (version: 'v2' | 'v3') =>
    aiSdkCallOptions(request(), {}, false, {
      provider: 'x',
      modelId: 'm',
      version,
      source: { provider: 'ai-sdk:x', model: 'm' },
    });

  it('v3: file parts in user messages, image-data and file-data in tool results', () => {
    const call = callFor('v3');
    expect(call.prompt.slice(1)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'file', mediaType: 'image/png', data: PNG, filename: 'a.png' },
          { type: 'file', mediaType: 'application/pdf', data: new URL('https://cdn.example/t.pdf') },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'render', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'render',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'chart:' },
                { type: 'image-data', data: PNG, mediaType: 'image/png' },
                { type: 'file-data', data: 'JVBE', mediaType: 'application/pdf', filename: 'r.pdf' },
              ],
            },
          },
        ],
      },
    ]);
  });

  it('v2: media content in tool results', () => {
    const call = callFor('v2');
    const result = (call.prompt[3] as { content: { output: unknown }[] }).content[0].output;
    expect(result).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'chart:' },
        { type: 'media', data: PNG, mediaType: 'image/png' },
        { type: 'media', data: 'JVBE', mediaType: 'application/pdf' },
      ],
    });
  });
});
