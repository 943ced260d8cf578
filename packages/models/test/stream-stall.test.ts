/**
 * Rule: `timeoutMs` bounds every wait on the provider, not only the wait for the response headers.
 * A stream that sends a few chunks and then goes silent fails with an error that names the adapter,
 * the model and the timeout, and the request is aborted. A stream that ends without its end marker
 * is an error in every adapter.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { Model, ModelStreamPart } from '@skilltree/core/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { aiSdk } from '../src/ai-sdk.js';
import { anthropic, ModelError } from '../src/anthropic.js';
import { openai } from '../src/openai.js';
import { collect } from './helpers/collect.js';
import { outputItems, responseEvents, responseObject } from './helpers/openai-wire.js';
import { simpleRequest } from './helpers/request.js';
import {
  json,
  type SseEvent,
  type StallingHandler,
  serverPerTest,
  sse,
  stallAfter,
  stallMidBody,
  startServer,
} from './helpers/server.js';
import { anthropicEvents, anthropicMessage, openaiChunks, openaiCompletion, v3Parts } from './helpers/wire.js';

let server = serverPerTest();

// Generous enough for a loaded CI machine to deliver chunks that were sent at once.
const TIMEOUT = 300;
const HINT = 'so the request was aborted. Raise timeoutMs if the model needs longer, or check the server.';
const NOT_RETRIED = '(the stream broke after output had been sent, so it was not retried)';

/** Reads a stream to its end or its error; returns what arrived, the error and how long it took. */
async function drain(parts: AsyncIterable<ModelStreamPart>) {
  const seen: ModelStreamPart[] = [];
  const started = Date.now();
  const error = await (async () => {
    for await (const part of parts) seen.push(part);
  })().catch((e) => e);
  return { seen, error, ms: Date.now() - started };
}

interface WireAdapter {
  /** The error's prefix: `<provider>: ` and the model's id. */
  label: string;
  model: string;
  make(extra?: { timeoutMs?: number; maxRetries?: number }): Model;
  events(text: string): SseEvent[];
  /** How many leading events carry no text (so stalling after them yields nothing). */
  preamble: number;
  completion(text: string): unknown;
}

const wire: Record<string, WireAdapter> = {
  anthropic: {
    label: 'anthropic',
    model: 'claude-test',
    make: (extra = {}) =>
      anthropic({ model: 'claude-test', apiKey: 'k', baseURL: server.url, initialRetryDelayMs: 1, ...extra }),
    events: (text) => anthropicEvents({ text }),
    preamble: 3, // message_start, ping, content_block_start
    completion: (text) => anthropicMessage({ text }),
  },
  openai: {
    label: 'openai',
    model: 'gpt-test',
    make: (extra = {}) =>
      openai({
        model: 'gpt-test',
        api: 'chat',
        apiKey: 'k',
        baseURL: `${server.url}/v1`,
        initialRetryDelayMs: 1,
        ...extra,
      }),
    events: (text) => openaiChunks({ text }),
    preamble: 1, // the role chunk
    completion: (text) => openaiCompletion({ text }),
  },
  'openai (responses)': {
    label: 'openai',
    model: 'gpt-test',
    make: (extra = {}) =>
      openai({ model: 'gpt-test', apiKey: 'k', baseURL: `${server.url}/v1`, initialRetryDelayMs: 1, ...extra }),
    events: (text) => responseEvents(outputItems({ text })),
    preamble: 4, // response.created, response.in_progress, output_item.added, content_part.added
    completion: (text) => responseObject(outputItems({ text })),
  },
  // A real AI SDK provider talking HTTP to the same kind of server.
  'ai-sdk': {
    label: 'ai-sdk:openai.chat',
    model: 'gpt-test',
    make: (extra = {}) =>
      aiSdk(createOpenAI({ apiKey: 'k', baseURL: `${server.url}/v1` }).chat('gpt-test'), {
        initialRetryDelayMs: 1,
        ...extra,
      }),
    events: (text) => openaiChunks({ text }),
    preamble: 1,
    completion: (text) => openaiCompletion({ text }),
  },
};

describe('streams that stall: timeoutMs bounds the wait between chunks', () => {
  // The first request of a process loads and warms the SDKs; keep that out of the timed tests.
  beforeAll(async () => {
    const warm = await startServer();
    try {
      warm.queue(...Object.values(wire).flatMap((a) => [json(200, a.completion('warm')), sse(a.events('warm'))]));
      const saved = server;
      server = warm;
      for (const a of Object.values(wire)) {
        await a.make().generate(simpleRequest(), {});
        await collect(a.make().stream!(simpleRequest(), {}));
      }
      server = saved;
    } finally {
      await warm.close();
    }
  });

  for (const [name, a] of Object.entries(wire)) {
    it(`${name}: a stream that goes silent after some text fails, names model and timeout, and aborts the request`, async () => {
      const events = a.events('Hello there');
      const stalled: StallingHandler = stallAfter(events, a.preamble + 1);
      server.queue(stalled);
      const { seen, error, ms } = await drain(a.make({ timeoutMs: TIMEOUT }).stream!(simpleRequest(), {}));
      expect(seen).toEqual([{ type: 'text-delta', text: 'Hello' }]);
      expect(error).toBeInstanceOf(ModelError);
      expect(error.kind).toBe('network');
      expect(error.message).toBe(
        `${a.label}: the stream from ${a.model} stalled: no chunk for ${TIMEOUT} ms (timeoutMs: ${TIMEOUT}), ${HINT} ${NOT_RETRIED}`,
      );
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 20);
      expect(ms).toBeLessThan(TIMEOUT + 2000);
      // The server sees the client hang up: the request was aborted, not left open.
      await stalled.closed;
      expect(server.requests).toHaveLength(1);
    });

    it(`${name}: a stall before any output is retried, and the retry's answer arrives`, async () => {
      const stalled = stallAfter(a.events('lost'), a.preamble);
      server.queue(stalled, sse(a.events('ok')));
      const { seen, error } = await drain(a.make({ timeoutMs: TIMEOUT }).stream!(simpleRequest(), {}));
      expect(error).toBeUndefined();
      expect(seen.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')).toBe('ok');
      expect(seen.at(-1)?.type).toBe('finish');
      await stalled.closed;
      expect(server.requests).toHaveLength(2);
    });

    it(`${name}: a slow but steady stream is not cut (the timeout is per gap, not for the whole stream)`, async () => {
      const events = a.events('Hello there');
      // Every gap between events is a fifth of the timeout (the AI SDK's parts, which skip a few events,
      // wait at most three fifths); the whole stream takes longer than the timeout.
      const timeoutMs = 500;
      server.queue(sse(events, { delayMs: timeoutMs / 5 }));
      const { seen, error, ms } = await drain(a.make({ timeoutMs }).stream!(simpleRequest(), {}));
      expect(error).toBeUndefined();
      expect(seen.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')).toBe('Hello there');
      expect(ms).toBeGreaterThan(timeoutMs);
    });

    it(`${name}: generate fails when the body stalls after the headers, naming model and timeout`, async () => {
      const stalled = stallMidBody(a.completion('never whole'));
      server.queue(stalled);
      const error = await a
        .make({ timeoutMs: TIMEOUT, maxRetries: 0 })
        .generate(simpleRequest(), {})
        .catch((e) => e);
      expect(error).toBeInstanceOf(ModelError);
      expect(error.message).toBe(
        `${a.label}: ${a.model} did not answer within ${TIMEOUT} ms (timeoutMs: ${TIMEOUT}), ${HINT}`,
      );
      await stalled.closed;
    });
  }

  it('ai-sdk: a stalled doStream is cancelled and its abortSignal aborted (any provider)', async () => {
    let cancelled: unknown;
    let signal: AbortSignal | undefined;
    const mock = new MockLanguageModelV3({
      provider: 'mock-provider',
      modelId: 'mock-1',
      doStream: async (options: LanguageModelV3CallOptions) => {
        signal = options.abortSignal;
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              for (const part of v3Parts({ text: 'Hello there' }).slice(0, 3)) controller.enqueue(part);
              // …and then nothing more.
            },
            cancel(reason) {
              cancelled = reason;
            },
          }),
        };
      },
    });
    const { seen, error } = await drain(aiSdk(mock, { timeoutMs: TIMEOUT }).stream!(simpleRequest(), {}));
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hello' }]);
    expect(error.message).toMatch(/^ai-sdk:mock-provider: the stream from mock-1 stalled: no chunk for 300 ms/);
    expect(signal?.aborted).toBe(true);
    expect(cancelled).toBe(error);
  });

  it('timeoutMs must be a positive number; Infinity switches it off', () => {
    expect(() => openai({ model: 'm', apiKey: 'k', timeoutMs: 0 })).toThrow(
      'openai(): timeoutMs must be a positive number of milliseconds (or Infinity for none), got 0.',
    );
    expect(() => anthropic({ model: 'm', timeoutMs: -1 })).toThrow(/^anthropic\(\): timeoutMs must be/);
    expect(() => aiSdk(new MockLanguageModelV3(), { timeoutMs: Number.NaN })).toThrow(/^aiSdk\(\): timeoutMs must be/);
    expect(() => openai({ model: 'm', apiKey: 'k', timeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});

describe('streams that end early: every adapter treats a missing end marker as an error', () => {
  // Over HTTP the AI SDK's provider reads the wire, and @ai-sdk/openai reports a finish of its own
  // when the server closes early; the adapter's rule (no finish part, no success) is tested below.
  for (const [name, a] of Object.entries(wire).filter(([n]) => n !== 'ai-sdk')) {
    it(`${name}: a stream that closes cleanly without its end marker is a network error, retried while nothing was yielded`, async () => {
      const events = a.events('Hello there');
      // The first attempt closes before any text, the second after some: only the first is retried.
      server.queue(sse(events.slice(0, a.preamble)), sse(events.slice(0, a.preamble + 2)));
      const { seen, error } = await drain(a.make().stream!(simpleRequest(), {}));
      expect(server.requests).toHaveLength(2);
      expect(seen.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')).toBe('Hello there');
      expect(seen.some((p) => p.type === 'finish')).toBe(false);
      expect(error).toBeInstanceOf(ModelError);
      expect(error.kind).toBe('network');
      expect(error.message).toMatch(new RegExp(`^${a.label.replace('.', '\\.')}: network error: .*not retried\\)$`));
    });
  }

  it('ai-sdk: a doStream that ends without a finish part is an error', async () => {
    const noFinish = (text: string) => v3Parts({ text }).filter((p) => p.type !== 'finish');
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: convertArrayToReadableStream(noFinish(calls++ === 0 ? '' : 'Hello there')) }),
    });
    const { seen, error } = await drain(aiSdk(mock, { initialRetryDelayMs: 1 }).stream!(simpleRequest(), {}));
    // The first attempt ended before any text and was retried; the second had sent text.
    expect(calls).toBe(2);
    expect(seen).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' there' },
    ]);
    expect(error.message).toBe(
      'ai-sdk:mock-provider: network error: the stream ended without a finish part (connection dropped?) ' +
        NOT_RETRIED,
    );
  });

  it('ai-sdk: with the finish part the stream ends normally', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: convertArrayToReadableStream(v3Parts({ text: 'Hello' })) }),
    });
    const parts = await collect(aiSdk(mock).stream!(simpleRequest(), {}));
    expect(parts.at(-1)?.type).toBe('finish');
  });

  it('json helper sanity: a whole body still works with a short timeout', async () => {
    server.queue(json(200, anthropicMessage({ text: 'ok' })));
    expect((await wire.anthropic.make({ timeoutMs: TIMEOUT }).generate(simpleRequest(), {})).text).toBe('ok');
  });
});
