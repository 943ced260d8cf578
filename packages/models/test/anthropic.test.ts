import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropic, ModelError } from '../src/anthropic.js';
import { collect, collectAll, inputStreamedBeforeCall, withEnv } from './helpers/collect.js';
import {
  CONTEXT,
  generateError,
  rawInputRequest,
  SYSTEM,
  sampleRequest,
  simpleRequest,
  TOOLS,
} from './helpers/request.js';
import { drop, json, type SseEvent, serverPerTest, sse } from './helpers/server.js';
import { anthropicEvents, anthropicMessage } from './helpers/wire.js';

const CACHE = { type: 'ephemeral' };
const server = serverPerTest();

function model(extra: Partial<Parameters<typeof anthropic>[0]> = {}) {
  return anthropic({ model: 'claude-test', apiKey: 'sk-test', baseURL: server.url, initialRetryDelayMs: 1, ...extra });
}

/** TOOLS as the Messages API takes them: the last carries the breakpoint that caches every tool. */
const toolsOnWire = TOOLS.map((t, i) => ({
  name: t.name,
  description: t.description,
  input_schema: t.inputSchema,
  ...(i === TOOLS.length - 1 ? { cache_control: CACHE } : {}),
}));

describe('anthropic: request body', () => {
  it("sends system, tools, merged turns, cache breakpoints and the context at the end ('end')", async () => {
    server.queue(json(200, anthropicMessage({ text: 'You are welcome.' })));
    await model().generate(sampleRequest('end'), {});
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token.
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      system: [{ type: 'text', text: SYSTEM, cache_control: CACHE }],
      tools: toolsOnWire,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'I need a lamp' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'read_skill', input: { name: 'shopping' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Loaded skill "shopping".' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Adding.' },
            { type: 'tool_use', id: 't2', name: 'add_to_cart', input: { sku: 'lamp' } },
            // Breakpoint 3: the end of the turn before the newest stable one.
            { type: 'tool_use', id: 't3', name: 'nope', input: {}, cache_control: CACHE },
          ],
        },
        {
          // Two tool results and the following user message: one user turn.
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't2', content: 'added lamp' },
            { type: 'tool_result', tool_use_id: 't3', content: 'Unknown tool "nope".', is_error: true },
            // Breakpoint 4: the last block before the context, which has a block of its own.
            { type: 'text', text: 'thanks', cache_control: CACHE },
            { type: 'text', text: `\n\n${CONTEXT}` },
          ],
        },
      ],
    });
  });

  it("puts the context in its own system block after the cached prompt ('system')", async () => {
    server.queue(json(200, anthropicMessage({ text: 'ok' })));
    await model().generate(sampleRequest('system'), {});
    const body = server.requests[0].body;
    expect(body.system).toEqual([
      { type: 'text', text: SYSTEM, cache_control: CACHE },
      { type: 'text', text: `\n\n${CONTEXT}` },
    ]);
    // Every message is stable: breakpoint 4 goes on the last block of the last turn, 3 on the turn before.
    const last = body.messages[body.messages.length - 1];
    expect(last).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't2', content: 'added lamp' },
        { type: 'tool_result', tool_use_id: 't3', content: 'Unknown tool "nope".', is_error: true },
        { type: 'text', text: 'thanks', cache_control: CACHE },
      ],
    });
    expect(JSON.stringify(body.messages)).not.toContain('current_context');
    expect(body.messages[3].content[2]).toEqual({
      type: 'tool_use',
      id: 't3',
      name: 'nope',
      input: {},
      cache_control: CACHE,
    });
  });

  it('sends no cache_control with cache: false, and passes maxTokens and extraBody', async () => {
    server.queue(json(200, anthropicMessage({ text: 'ok' })));
    await model({ cache: false, maxTokens: 100, extraBody: { stop_sequences: ['END'] } }).generate(sampleRequest(), {});
    const body = server.requests[0].body;
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.max_tokens).toBe(100);
    expect(body.stop_sequences).toEqual(['END']);
    expect(body.system).toEqual([{ type: 'text', text: SYSTEM }]);
  });

  it('sends a raw (invalid JSON) tool input back as an object', async () => {
    server.queue(json(200, anthropicMessage({ text: 'ok' })));
    await model().generate(rawInputRequest(), {});
    expect(server.requests[0].body.messages[1].content).toEqual([
      { type: 'tool_use', id: 'x', name: 'add_to_cart', input: {}, cache_control: CACHE },
    ]);
  });
});

describe('anthropic: responses', () => {
  it('reads text, tool calls and usage with cache reads/writes', async () => {
    server.queue(
      json(
        200,
        anthropicMessage({ text: 'Adding.', toolCalls: [{ id: 'tu_1', name: 'add_to_cart', input: { sku: 'lamp' } }] }),
      ),
    );
    const m = model();
    expect(m.name).toBe('anthropic:claude-test');
    const response = await m.generate(simpleRequest(), {});
    expect(response).toEqual({
      text: 'Adding.',
      toolCalls: [{ id: 'tu_1', name: 'add_to_cart', input: { sku: 'lamp' } }],
      usage: { inputTokens: 130, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 20 },
      // The model that answered, as the response names it (traces report it as gen_ai.response.model).
      model: 'claude-test',
    });
  });

  it('streams text deltas, whole tool calls and a finish with usage', async () => {
    server.queue(
      sse(
        anthropicEvents({
          text: 'Adding it.',
          toolCalls: [{ id: 'tu_1', name: 'add_to_cart', input: { sku: 'lamp' } }],
        }),
      ),
    );
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(server.requests[0].body.stream).toBe(true);
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Addin' },
      { type: 'text-delta', text: 'g it.' },
      { type: 'tool-call', id: 'tu_1', name: 'add_to_cart', input: { sku: 'lamp' } },
      {
        type: 'finish',
        usage: { inputTokens: 130, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 20 },
        model: 'claude-test',
      },
    ]);
  });

  it("a tool call's input streams as tool-input-delta parts before the call, so a call cut off mid-input is charged", async () => {
    server.queue(sse(anthropicEvents({ toolCalls: [{ id: 'tu_1', name: 'add_to_cart', input: { sku: 'lamp' } }] })));
    const parts = await collectAll(model().stream!(simpleRequest(), {}));
    expect(inputStreamedBeforeCall(parts)).toBe(JSON.stringify({ sku: 'lamp' }));
  });

  it('passes tool input that is not valid JSON as the raw string', async () => {
    server.queue(sse(anthropicEvents({ toolCalls: [{ id: 'tu_1', name: 'add_to_cart', input: '{"sku": "la' }] })));
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(parts[0]).toEqual({ type: 'tool-call', id: 'tu_1', name: 'add_to_cart', input: '{"sku": "la' });
  });

  it('fails clearly on a malformed response, without retrying', async () => {
    server.queue(json(200, { hello: 'world' }));
    const error = await generateError(model());
    expect(error).toBeInstanceOf(ModelError);
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/^anthropic: malformed response: expected a message with a content array/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('anthropic: errors and retries', () => {
  const rateLimited = (retryAfter: string) =>
    json(
      429,
      { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
      { 'retry-after': retryAfter },
    );

  it('retries a 429 after the retry-after delay', async () => {
    server.queue(rateLimited('0.3'), json(200, anthropicMessage({ text: 'ok' })));
    const started = Date.now();
    const response = await model().generate(simpleRequest(), {});
    expect(response.text).toBe('ok');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(server.requests[1].body).toEqual(server.requests[0].body);
  });

  it('gives up after maxRetries with an error naming provider, status and message', async () => {
    const overloaded = json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    server.queue(overloaded, overloaded, overloaded);
    const error = await generateError(model({ maxRetries: 2 }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.status).toBe(529);
    expect(error.message).toBe('anthropic: HTTP 529 overloaded_error: Overloaded (gave up after 3 attempts)');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 401 and says which variable to set', async () => {
    server.queue(json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    const error = await generateError(model());
    expect(error.message).toBe(
      'anthropic: HTTP 401 authentication_error: invalid x-api-key. Check the API key: set ANTHROPIC_API_KEY or pass { apiKey } to anthropic().',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    server.queue(json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: bad' } }));
    const error = await generateError(model());
    expect(error.message).toBe('anthropic: HTTP 400 invalid_request_error: messages: bad');
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a dropped connection', async () => {
    server.queue(drop(), json(200, anthropicMessage({ text: 'ok' })));
    expect((await model().generate(simpleRequest(), {})).text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('reports a network error when every attempt is dropped', async () => {
    server.queue(drop(), drop());
    const error = await generateError(model({ maxRetries: 1 }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^anthropic: network error: .*\(gave up after 2 attempts\)$/);
  });

  it('retries a stream that fails before any output (error event, dropped socket)', async () => {
    const overloaded: SseEvent = {
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    };
    server.queue(
      sse([overloaded]),
      sse(anthropicEvents({ text: 'hi' }), { dropAfter: 1 }),
      sse(anthropicEvents({ text: 'ok' })),
    );
    const parts = await collect(model().stream!(simpleRequest(), {}));
    const text = parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');
    expect(text).toBe('ok');
    expect(parts[parts.length - 1].type).toBe('finish');
    expect(server.requests).toHaveLength(3);
  });

  it('does not replay a stream that broke after text was yielded', async () => {
    server.queue(sse(anthropicEvents({ text: 'Hello there' }), { dropAfter: 5 }), sse(anthropicEvents({ text: 'x' })));
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const part of model().stream!(simpleRequest(), {})) seen.push(part);
    })().catch((e) => e);
    expect(seen).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' there' },
    ]);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toMatch(/^anthropic: network error: .*not retried\)$/);
    expect(server.requests).toHaveLength(1);
  });

  it('passes the AbortSignal through: an abort ends a pending request', async () => {
    server.queue(() => {}); // never answers
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user stopped')), 50);
    const error = await generateError(model(), simpleRequest(), { signal: controller.signal });
    expect(error.message).toBe('user stopped');
  });

  it('an abort ends a stream that is in progress', async () => {
    server.queue(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of anthropicEvents({ text: 'Hello there' }).slice(0, 4)) {
        res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
      }
      // …and then nothing more: the stream stays open.
    });
    const controller = new AbortController();
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const part of model().stream!(simpleRequest(), { signal: controller.signal })) {
        seen.push(part);
        controller.abort(new Error('user stopped'));
      }
    })().catch((e) => e);
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hello' }]);
    expect(error.message).toBe('user stopped');
    expect(server.requests).toHaveLength(1);
  });

  it('an abort also ends the wait between retries', async () => {
    server.queue(json(503, { type: 'error', error: { type: 'api_error', message: 'down' } }, { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await generateError(model(), simpleRequest(), { signal: controller.signal });
    expect(error.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('anthropic: environment', () => {
  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL', async () => {
    server.queue(json(200, anthropicMessage({ text: 'ok' })));
    await withEnv({ ANTHROPIC_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: server.url }, async () => {
      const response = await anthropic({ model: 'claude-test' }).generate(simpleRequest(), {});
      expect(response.text).toBe('ok');
    });
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-env');
  });

  it('a missing key is a clear error at call time that names ANTHROPIC_API_KEY', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'skilltree-anthropic-'));
    await withEnv(
      {
        ANTHROPIC_API_KEY: undefined,
        ANTHROPIC_AUTH_TOKEN: undefined,
        ANTHROPIC_PROFILE: undefined,
        ANTHROPIC_CONFIG_DIR: empty,
        ANTHROPIC_BASE_URL: server.url,
      },
      async () => {
        const m = anthropic({ model: 'claude-test' }); // creating it does not throw
        const error = await m.generate(simpleRequest(), {}).catch((e) => e);
        expect(error).toBeInstanceOf(ModelError);
        expect(error.kind).toBe('auth');
        expect(error.message).toBe(
          'anthropic: no API key. Set the ANTHROPIC_API_KEY environment variable or pass { apiKey } to anthropic().',
        );
      },
    );
    expect(server.requests).toHaveLength(0);
  });

  it('requires a model id', () => {
    expect(() => anthropic({} as never)).toThrow(/anthropic\(\): pass \{ model \}/);
  });
});
