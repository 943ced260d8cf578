import { APICallError, type LanguageModelV3CallOptions, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdk, aiSdkCallOptions, ModelError } from '../src/ai-sdk.js';
import { collect, collectAll, inputStreamedBeforeCall } from './helpers/collect.js';
import { CONTEXT, generateError, SYSTEM, sampleRequest, simpleRequest } from './helpers/request.js';
import { v3Parts, v3Result, type WireStep } from './helpers/wire.js';

const fast = { initialRetryDelayMs: 1 };

function streamOf(parts: LanguageModelV3StreamPart[]) {
  return { stream: convertArrayToReadableStream(parts) };
}

const promptHead = [
  { role: 'user', content: [{ type: 'text', text: 'I need a lamp' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'read_skill', input: { name: 'shopping' } }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 't1',
        toolName: 'read_skill',
        output: { type: 'text', value: 'Loaded skill "shopping".' },
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Adding.' },
      { type: 'tool-call', toolCallId: 't2', toolName: 'add_to_cart', input: { sku: 'lamp' } },
      { type: 'tool-call', toolCallId: 't3', toolName: 'nope', input: {} },
    ],
  },
  {
    // Consecutive tool results share one tool message; a refusal is an error-text output.
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 't2', toolName: 'add_to_cart', output: { type: 'text', value: 'added lamp' } },
      {
        type: 'tool-result',
        toolCallId: 't3',
        toolName: 'nope',
        output: { type: 'error-text', value: 'Unknown tool "nope".' },
      },
    ],
  },
];

const toolsInCall = [
  {
    type: 'function',
    name: 'read_skill',
    description: 'Read a skill',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  {
    type: 'function',
    name: 'add_to_cart',
    description: 'Add an item',
    inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  },
];

describe('aiSdk: call options', () => {
  it("builds the prompt, tools and context placement ('end') and passes the abort signal", async () => {
    const mock = new MockLanguageModelV3({ doGenerate: v3Result({ text: 'ok' }) });
    const controller = new AbortController();
    await aiSdk(mock, { maxOutputTokens: 300, temperature: 0.2 }).generate(sampleRequest('end'), {
      signal: controller.signal,
    });
    expect(mock.doGenerateCalls).toHaveLength(1);
    const call = mock.doGenerateCalls[0];
    // Each attempt has its own signal (for its timeout), linked to the caller's (tested below).
    expect(call.abortSignal).toBeInstanceOf(AbortSignal);
    const { abortSignal: _, ...rest } = call;
    expect(rest).toEqual({
      prompt: [
        { role: 'system', content: SYSTEM },
        ...promptHead,
        { role: 'user', content: [{ type: 'text', text: `thanks\n\n${CONTEXT}` }] },
      ],
      tools: toolsInCall,
      toolChoice: { type: 'auto' },
      maxOutputTokens: 300,
      temperature: 0.2,
    });
  });

  it("the caller's signal aborts the pending doGenerate", async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: (options: LanguageModelV3CallOptions) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason));
        }),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user stopped')), 20);
    const error = await generateError(aiSdk(mock), simpleRequest(), { signal: controller.signal });
    expect(error.message).toBe('user stopped');
    expect(mock.doGenerateCalls[0].abortSignal?.aborted).toBe(true);
  });

  it("appends the context to the system message ('system')", () => {
    const call = aiSdkCallOptions(sampleRequest('system'), {
      providerOptions: { anthropic: { sendReasoning: false } },
    });
    expect(call.prompt).toEqual([
      { role: 'system', content: `${SYSTEM}\n\n${CONTEXT}` },
      ...promptHead,
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
    expect(call.providerOptions).toEqual({ anthropic: { sendReasoning: false } });
  });

  it('omits tools when there are none', () => {
    const call = aiSdkCallOptions(simpleRequest());
    expect(call.tools).toBeUndefined();
    expect(call.toolChoice).toBeUndefined();
  });
});

describe('aiSdk: v3 models', () => {
  const step: WireStep = { text: 'Adding it.', toolCalls: [{ id: 'c1', name: 'add_to_cart', input: { sku: 'lamp' } }] };

  it('generate reads text, tool calls and usage', async () => {
    const mock = new MockLanguageModelV3({ provider: 'mock-provider', modelId: 'mock-1', doGenerate: v3Result(step) });
    const model = aiSdk(mock);
    expect(model.name).toBe('ai-sdk:mock-provider:mock-1');
    expect(await model.generate(simpleRequest(), {})).toEqual({
      text: 'Adding it.',
      toolCalls: [{ id: 'c1', name: 'add_to_cart', input: { sku: 'lamp' } }],
      content: [{ type: 'text', text: 'Adding it.' }],
      usage: { inputTokens: 110, outputTokens: 5, cacheReadTokens: 100 },
    });
  });

  it('stream yields text deltas, tool calls and finish', async () => {
    const mock = new MockLanguageModelV3({ doStream: streamOf(v3Parts(step)) });
    expect(await collect(aiSdk(mock).stream!(simpleRequest(), {}))).toEqual([
      { type: 'text-delta', text: 'Addin' },
      { type: 'text-delta', text: 'g it.' },
      { type: 'tool-call', id: 'c1', name: 'add_to_cart', input: { sku: 'lamp' } },
      { type: 'finish', usage: { inputTokens: 110, outputTokens: 5, cacheReadTokens: 100 } },
    ]);
    expect(mock.doStreamCalls).toHaveLength(1);
  });

  it("a tool call's input streams as tool-input-delta parts before the call, so a call cut off mid-input is charged", async () => {
    const mock = new MockLanguageModelV3({ doStream: streamOf(v3Parts(step)) });
    const parts = await collectAll(aiSdk(mock).stream!(simpleRequest(), {}));
    expect(inputStreamedBeforeCall(parts)).toBe(JSON.stringify({ sku: 'lamp' }));
  });

  it('tool input that is not valid JSON is passed as the raw string', async () => {
    const bad: WireStep = { toolCalls: [{ id: 'c1', name: 'add_to_cart', input: '{"sku":' }] };
    const mock = new MockLanguageModelV3({ doGenerate: v3Result(bad), doStream: streamOf(v3Parts(bad)) });
    expect((await aiSdk(mock).generate(simpleRequest(), {})).toolCalls).toEqual([
      { id: 'c1', name: 'add_to_cart', input: '{"sku":' },
    ]);
    expect((await collect(aiSdk(mock).stream!(simpleRequest(), {})))[0]).toEqual({
      type: 'tool-call',
      id: 'c1',
      name: 'add_to_cart',
      input: '{"sku":',
    });
  });

  it('skips provider-executed tool calls', async () => {
    const result = v3Result({ text: 'ok' });
    result.content.push({
      type: 'tool-call',
      toolCallId: 'p1',
      toolName: 'web_search',
      input: '{}',
      providerExecuted: true,
    });
    const mock = new MockLanguageModelV3({ doGenerate: result });
    expect((await aiSdk(mock).generate(simpleRequest(), {})).toolCalls).toEqual([]);
  });

  it('a malformed result is a clear error', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: async () => ({ text: 'hi' }) as never });
    const error = await generateError(aiSdk(mock));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toMatch(/^ai-sdk:mock-provider: malformed response: doGenerate returned \{"text":"hi"\}/);
  });
});

describe('aiSdk: retries and errors', () => {
  const apiError = (statusCode: number, headers: Record<string, string> = {}) =>
    new APICallError({
      message: statusCode === 429 ? 'Too many requests' : `Failed with ${statusCode}`,
      url: 'http://127.0.0.1/v1/x',
      requestBodyValues: {},
      statusCode,
      responseHeaders: headers,
    });

  it('retries a 429 APICallError after retry-after', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        calls++;
        if (calls === 1) throw apiError(429, { 'retry-after': '0.25' });
        return v3Result({ text: 'ok' });
      },
    });
    const started = Date.now();
    expect((await aiSdk(mock, fast).generate(simpleRequest(), {})).text).toBe('ok');
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(230);
  });

  it('does not retry a 400 and names provider and status', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        throw apiError(400);
      },
    });
    const error = await generateError(aiSdk(mock, fast));
    expect(error.message).toBe('ai-sdk:mock-provider: HTTP 400 Failed with 400');
    expect(mock.doGenerateCalls).toHaveLength(1);
  });

  it('gives up after maxRetries on 5xx', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        throw apiError(503);
      },
    });
    const error = await generateError(aiSdk(mock, { ...fast, maxRetries: 2 }));
    expect(error.message).toBe('ai-sdk:mock-provider: HTTP 503 Failed with 503 (gave up after 3 attempts)');
    expect(mock.doGenerateCalls).toHaveLength(3);
  });

  it('retries a stream whose first part is an error, but not one that already produced text', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doStream: async () => {
        calls++;
        if (calls === 1) return streamOf([{ type: 'error', error: apiError(529) }]);
        return streamOf([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Hi' },
          { type: 'error', error: apiError(500) },
        ]);
      },
    });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const part of aiSdk(mock, fast).stream!(simpleRequest(), {})) seen.push(part);
    })().catch((e) => e);
    expect(calls).toBe(2);
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hi' }]);
    expect(error.message).toMatch(/^ai-sdk:mock-provider: HTTP 500 .*not retried\)$/);
  });

  it('aborting stops a pending call and the wait between retries', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async (options: LanguageModelV3CallOptions) => {
        expect(options.abortSignal).toBeDefined();
        throw apiError(429, { 'retry-after': '30' });
      },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 30);
    const error = await generateError(aiSdk(mock, fast), simpleRequest(), { signal: controller.signal });
    expect(error.message).toBe('cancelled');
  });
});

describe('aiSdk: specification versions', () => {
  it('works with a v2 model (flat usage)', async () => {
    const calls: unknown[] = [];
    const v2 = {
      specificationVersion: 'v2' as const,
      provider: 'old',
      modelId: 'm2',
      supportedUrls: {},
      async doGenerate(options: unknown) {
        calls.push(options);
        return {
          content: [
            { type: 'text' as const, text: 'v2 says hi' },
            { type: 'tool-call' as const, toolCallId: 'x', toolName: 'add_to_cart', input: '{"sku":"lamp"}' },
          ],
          finishReason: 'tool-calls' as const,
          usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10, cachedInputTokens: 2 },
          warnings: [],
        };
      },
      async doStream() {
        return {
          stream: convertArrayToReadableStream([
            { type: 'text-delta' as const, id: 't', delta: 'v2 ' },
            { type: 'text-delta' as const, id: 't', delta: 'stream' },
            {
              type: 'finish' as const,
              finishReason: 'stop' as const,
              usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
            },
          ]),
        };
      },
    };
    const model = aiSdk(v2);
    expect(model.name).toBe('ai-sdk:old:m2');
    expect(await model.generate(simpleRequest(), {})).toEqual({
      text: 'v2 says hi',
      toolCalls: [{ id: 'x', name: 'add_to_cart', input: { sku: 'lamp' } }],
      content: [{ type: 'text', text: 'v2 says hi' }],
      usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 2 },
    });
    expect((calls[0] as { prompt: unknown[] }).prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(await collect(model.stream!(simpleRequest(), {}))).toEqual([
      { type: 'text-delta', text: 'v2 ' },
      { type: 'text-delta', text: 'stream' },
      { type: 'finish', usage: { inputTokens: 7, outputTokens: 3 } },
    ]);
  });

  it('accepts a v4 model and calls it like v3', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: v3Result({ text: 'from v4' }) });
    Object.defineProperty(mock, 'specificationVersion', { value: 'v4' });
    expect((await aiSdk(mock as never).generate(simpleRequest(), {})).text).toBe('from v4');
  });

  it('rejects a v1 model with a clear error', () => {
    expect(() => aiSdk({ specificationVersion: 'v1', provider: 'x', modelId: 'y' } as never)).toThrow(
      'aiSdk(): language model specification v1 is not supported (v2, v3 and v4 are). Upgrade the provider package to one built for AI SDK 5 or later.',
    );
  });
});

describe('aiSdk: what the model reads', () => {
  it('accepts passes through as Model.accepts (the specification does not say); left out, the session defaults hold', () => {
    const mock = new MockLanguageModelV3({ doGenerate: v3Result({ text: 'ok' }) });
    expect(aiSdk(mock, { accepts: { images: false, pdf: false } }).accepts).toEqual({ images: false, pdf: false });
    expect(aiSdk(mock).accepts).toBeUndefined();
  });
});
