/**
 * Rule: every adapter maps provider usage into core's `Usage`, cache reads and writes included, for
 * `generate` and `stream` alike, and `inputTokens` always means every input token the request
 * carried. Checked end to end: wire-format server → adapter (or an AI SDK provider over HTTP) →
 * session → `turn.usage`.
 */

import { createAnthropic } from '@ai-sdk/anthropic';
import { createAnthropic as createAnthropicV2 } from '@ai-sdk/anthropic-v2';
import { createOpenAI } from '@ai-sdk/openai';
import { createSession, type Model, type Usage } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { aiSdk, aiSdkUsage } from '../src/ai-sdk.js';
import { anthropic, anthropicUsage } from '../src/anthropic.js';
import { openai, openaiUsage } from '../src/openai.js';
import { streamedOrNot } from './helpers/generate-only.js';
import { outputItems, responseEvents, responseObject } from './helpers/openai-wire.js';
import { type Handler, json, type SseEvent, serverPerTest, sse } from './helpers/server.js';
import { Shop } from './helpers/shop.js';
import { anthropicEvents, anthropicMessage, openaiChunks, openaiCompletion, type WireStep } from './helpers/wire.js';

const server = serverPerTest();

/** Anthropic's wire usage: `input_tokens` leaves out the 100 cached and 20 newly cached tokens. */
const ANTHROPIC_WIRE = {
  input_tokens: 10,
  output_tokens: 5,
  cache_read_input_tokens: 100,
  cache_creation_input_tokens: 20,
};
const ANTHROPIC_STEP: Usage = { inputTokens: 130, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 20 };

/** OpenAI's wire usage: `prompt_tokens` already includes the 100 cached tokens; writes are not reported. */
const OPENAI_WIRE = {
  prompt_tokens: 110,
  completion_tokens: 5,
  total_tokens: 115,
  prompt_tokens_details: { cached_tokens: 100 },
};
const OPENAI_STEP: Usage = { inputTokens: 110, outputTokens: 5, cacheReadTokens: 100 };

/** Responses usage: input with its cached and written parts, output with its reasoning part. */
const RESPONSES_WIRE = {
  input_tokens: 110,
  input_tokens_details: { cached_tokens: 100, cache_write_tokens: 4 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 7 },
  total_tokens: 122,
};
const RESPONSES_STEP: Usage = {
  inputTokens: 110,
  outputTokens: 12,
  cacheReadTokens: 100,
  cacheWriteTokens: 4,
  reasoningTokens: 7,
};

const twice = (u: Usage): Usage =>
  Object.fromEntries(Object.entries(u).map(([k, v]) => [k, (v as number) * 2])) as Usage;

/** A tool loop of two steps: the model calls a tool, then answers. */
const LOOP: WireStep[] = [
  { toolCalls: [{ id: 'toolu_1', name: 'add_to_cart', input: { sku: 'lamp' } }] },
  { text: 'Added.' },
];

/**
 * Anthropic stream events as the API sends them today: `message_delta.usage` repeats the input and
 * cache counts (cumulative), or sends them as null.
 */
function anthropicStream(step: WireStep, deltaInputs: 'repeated' | 'null'): SseEvent[] {
  const events = anthropicEvents(step, ANTHROPIC_WIRE);
  const delta = events.find((e) => (e.data as { type: string }).type === 'message_delta');
  if (!delta) throw new Error('anthropicEvents() made no message_delta');
  const usage = (delta.data as { usage: Record<string, unknown> }).usage;
  for (const key of ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    usage[key] = deltaInputs === 'repeated' ? ANTHROPIC_WIRE[key] : null;
  }
  return events;
}

interface Case {
  model: () => Model;
  handler: (step: WireStep, stream: boolean) => Handler;
  step: Usage;
}

const anthropicHandler = (step: WireStep, stream: boolean) =>
  stream ? sse(anthropicStream(step, 'repeated')) : json(200, anthropicMessage(step, ANTHROPIC_WIRE));
const openaiHandler = (step: WireStep, stream: boolean) =>
  stream ? sse(openaiChunks(step, OPENAI_WIRE)) : json(200, openaiCompletion(step, OPENAI_WIRE));

const cases: Record<string, Case> = {
  anthropic: {
    model: () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: server.url }),
    handler: anthropicHandler,
    step: ANTHROPIC_STEP,
  },
  openai: {
    model: () => openai({ model: 'gpt-test', api: 'chat', apiKey: 'k', baseURL: `${server.url}/v1` }),
    handler: openaiHandler,
    step: OPENAI_STEP,
  },
  'openai (responses)': {
    model: () => openai({ model: 'gpt-test', apiKey: 'k', baseURL: `${server.url}/v1` }),
    handler: (step, stream) =>
      stream
        ? sse(responseEvents(outputItems(step), RESPONSES_WIRE))
        : json(200, responseObject(outputItems(step), RESPONSES_WIRE)),
    step: RESPONSES_STEP,
  },
  'ai-sdk (@ai-sdk/anthropic, spec v3)': {
    model: () => aiSdk(createAnthropic({ apiKey: 'k', baseURL: `${server.url}/v1` })('claude-test')),
    handler: anthropicHandler,
    step: ANTHROPIC_STEP,
  },
  'ai-sdk (@ai-sdk/anthropic 2.x, spec v2)': {
    model: () => aiSdk(createAnthropicV2({ apiKey: 'k', baseURL: `${server.url}/v1` })('claude-test') as never),
    handler: anthropicHandler,
    step: ANTHROPIC_STEP,
  },
  'ai-sdk (@ai-sdk/openai chat, spec v3)': {
    model: () => aiSdk(createOpenAI({ apiKey: 'k', baseURL: `${server.url}/v1` }).chat('gpt-test')),
    handler: openaiHandler,
    step: OPENAI_STEP,
  },
};

describe('usage everywhere, cache included: wire → adapter → turn.usage', () => {
  for (const [name, c] of Object.entries(cases)) {
    for (const stream of [true, false]) {
      it(`${name} (${stream ? 'stream' : 'generate'}): every field, summed over the steps of a turn`, async () => {
        server.queue(...LOOP.map((step) => c.handler(step, stream)));
        const model = c.model();
        const session = createSession(<Shop />, { model: streamedOrNot(model, stream) });
        try {
          const turn = await session.send('a lamp, please');
          expect(turn.steps).toBe(2);
          expect(turn.usage).toEqual(twice(c.step));
        } finally {
          session.dispose();
        }
        if (stream && c.handler === openaiHandler) {
          // Streams carry usage only when asked for it.
          expect(server.requests[0].body.stream_options).toEqual({ include_usage: true });
        }
      });
    }
  }

  it('anthropic: message_delta usage with null input counts keeps the counts from message_start', async () => {
    server.queue(sse(anthropicStream({ text: 'ok' }, 'null')));
    const session = createSession(<Shop />, { model: cases.anthropic.model() });
    try {
      expect((await session.send('hi')).usage).toEqual(ANTHROPIC_STEP);
    } finally {
      session.dispose();
    }
  });
});

describe('usage everywhere, cache included: the mapping functions', () => {
  it('anthropicUsage adds cached input back into inputTokens', () => {
    expect(anthropicUsage(ANTHROPIC_WIRE)).toEqual(ANTHROPIC_STEP);
    expect(anthropicUsage({ input_tokens: 7, output_tokens: 1 })).toEqual({ inputTokens: 7, outputTokens: 1 });
    expect(anthropicUsage(undefined)).toBeUndefined();
  });

  it('openaiUsage: prompt_tokens as they are, cached_tokens (or DeepSeek prompt_cache_hit_tokens) as reads', () => {
    expect(openaiUsage(OPENAI_WIRE)).toEqual(OPENAI_STEP);
    expect(openaiUsage({ prompt_tokens: 50, completion_tokens: 2, prompt_cache_hit_tokens: 40 })).toEqual({
      inputTokens: 50,
      outputTokens: 2,
      cacheReadTokens: 40,
    });
    expect(openaiUsage({ prompt_tokens: 50, completion_tokens: 2, prompt_tokens_details: null })).toEqual({
      inputTokens: 50,
      outputTokens: 2,
    });
  });

  it('aiSdkUsage: v3 nested (total, or the parts when total is missing), v2 flat, v2 Anthropic metadata', () => {
    const nested = {
      inputTokens: { total: 130, noCache: 10, cacheRead: 100, cacheWrite: 20 },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    };
    expect(aiSdkUsage(nested)).toEqual(ANTHROPIC_STEP);
    expect(aiSdkUsage({ ...nested, inputTokens: { ...nested.inputTokens, total: undefined } })).toEqual(ANTHROPIC_STEP);
    expect(aiSdkUsage({ inputTokens: 110, outputTokens: 5, totalTokens: 115, cachedInputTokens: 100 })).toEqual(
      OPENAI_STEP,
    );
    // @ai-sdk/anthropic 2.x: inputTokens without the cache, writes in providerMetadata only.
    const v2Anthropic = { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 100 };
    expect(aiSdkUsage(v2Anthropic, { anthropic: { cacheCreationInputTokens: 20 } })).toEqual(ANTHROPIC_STEP);
    expect(aiSdkUsage(v2Anthropic, { anthropic: { cacheCreationInputTokens: null } })).toEqual({
      inputTokens: 110,
      outputTokens: 5,
      cacheReadTokens: 100,
    });
  });
});
