import { describe, expect, it } from 'vitest';
import { ModelError, openai } from '../src/openai.js';
import { collect, collectAll, inputStreamedBeforeCall, withEnv } from './helpers/collect.js';
import { CONTEXT, generateError, rawInputRequest, SYSTEM, sampleRequest, simpleRequest } from './helpers/request.js';
import { drop, json, serverPerTest, sse, text } from './helpers/server.js';
import { openaiChunks, openaiCompletion } from './helpers/wire.js';

const server = serverPerTest();

// Chat Completions: `api: 'chat'` (the Responses API, the default, is tested in openai-responses.test.ts).
function model(extra: Partial<Parameters<typeof openai>[0]> = {}) {
  return openai({
    model: 'gpt-test',
    api: 'chat',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    initialRetryDelayMs: 1,
    ...extra,
  });
}

const toolsOnWire = [
  {
    type: 'function',
    function: {
      name: 'read_skill',
      description: 'Read a skill',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'add_to_cart',
      description: 'Add an item',
      parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
    },
  },
];

const transcriptOnWire = [
  { role: 'user', content: 'I need a lamp' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 't1', type: 'function', function: { name: 'read_skill', arguments: '{"name":"shopping"}' } }],
  },
  { role: 'tool', tool_call_id: 't1', content: 'Loaded skill "shopping".' },
  {
    role: 'assistant',
    content: 'Adding.',
    tool_calls: [
      { id: 't2', type: 'function', function: { name: 'add_to_cart', arguments: '{"sku":"lamp"}' } },
      { id: 't3', type: 'function', function: { name: 'nope', arguments: '{}' } },
    ],
  },
  { role: 'tool', tool_call_id: 't2', content: 'added lamp' },
  { role: 'tool', tool_call_id: 't3', content: 'Unknown tool "nope".' },
];

describe('openai chat: request body', () => {
  it("sends system, tools, tool_calls, tool messages and the context at the end ('end')", async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    await model().generate(sampleRequest('end'), {});
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: SYSTEM },
        ...transcriptOnWire,
        { role: 'user', content: `thanks\n\n${CONTEXT}` },
      ],
      tools: toolsOnWire,
    });
  });

  it("appends the context to the system message ('system')", async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    await model({ maxTokens: 50, temperature: 0, extraBody: { top_k: 20 } }).generate(sampleRequest('system'), {});
    expect(server.requests[0].body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: `${SYSTEM}\n\n${CONTEXT}` },
        ...transcriptOnWire,
        { role: 'user', content: 'thanks' },
      ],
      tools: toolsOnWire,
      max_tokens: 50,
      temperature: 0,
      top_k: 20,
    });
  });

  it('appends the context to a trailing tool message, omits empty tools, sends raw arguments back unchanged', async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    await model().generate(rawInputRequest(), {});
    const body = server.requests[0].body;
    expect(body.tools).toBeUndefined();
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'add_to_cart', arguments: '{"sku": ' } }],
      },
      { role: 'tool', tool_call_id: 'x', content: `Invalid input\n\n${CONTEXT}` },
    ]);
  });

  it('asks for usage in streams unless streamUsage is false', async () => {
    server.queue(sse(openaiChunks({ text: 'ok' })), sse(openaiChunks({ text: 'ok' }, null)));
    await collect(model().stream!(simpleRequest(), {}));
    await collect(model({ streamUsage: false }).stream!(simpleRequest(), {}));
    expect(server.requests[0].body.stream).toBe(true);
    expect(server.requests[0].body.stream_options).toEqual({ include_usage: true });
    expect(server.requests[1].body.stream).toBe(true);
    expect(server.requests[1].body.stream_options).toBeUndefined();
  });
});

describe('openai chat: responses', () => {
  it('reads text, tool calls with JSON-string arguments, and usage', async () => {
    server.queue(
      json(
        200,
        openaiCompletion({
          text: 'Adding.',
          toolCalls: [
            { id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } },
            { id: 'call_2', name: 'checkout', input: '' },
          ],
        }),
      ),
    );
    const m = model();
    expect(m.name).toBe('openai:gpt-test');
    expect(await m.generate(simpleRequest(), {})).toEqual({
      text: 'Adding.',
      toolCalls: [
        { id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } },
        { id: 'call_2', name: 'checkout', input: {} },
      ],
      usage: { inputTokens: 110, outputTokens: 5, cacheReadTokens: 100 },
      // The model that answered, as the response names it (traces report it as gen_ai.response.model).
      model: 'gpt-test',
    });
  });

  it('passes arguments that are not valid JSON as the raw string (generate and stream)', async () => {
    const bad = { toolCalls: [{ id: 'call_1', name: 'add_to_cart', input: '{"sku": "lamp"' }] };
    server.queue(json(200, openaiCompletion(bad)), sse(openaiChunks(bad)));
    const response = await model().generate(simpleRequest(), {});
    expect(response.toolCalls).toEqual([{ id: 'call_1', name: 'add_to_cart', input: '{"sku": "lamp"' }]);
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(parts[0]).toEqual({ type: 'tool-call', id: 'call_1', name: 'add_to_cart', input: '{"sku": "lamp"' });
  });

  it('streams text deltas, assembles tool-call argument fragments, and finishes with usage', async () => {
    server.queue(
      sse(
        openaiChunks({
          text: 'Adding it.',
          toolCalls: [
            { id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } },
            { id: 'call_2', name: 'add_to_cart', input: { sku: 'desk' } },
          ],
        }),
      ),
    );
    expect(await collect(model().stream!(simpleRequest(), {}))).toEqual([
      { type: 'text-delta', text: 'Addin' },
      { type: 'text-delta', text: 'g it.' },
      { type: 'tool-call', id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } },
      { type: 'tool-call', id: 'call_2', name: 'add_to_cart', input: { sku: 'desk' } },
      { type: 'finish', usage: { inputTokens: 110, outputTokens: 5, cacheReadTokens: 100 }, model: 'gpt-test' },
    ]);
  });

  it("a tool call's arguments stream as tool-input-delta parts before the call, so a call cut off mid-input is charged", async () => {
    server.queue(sse(openaiChunks({ toolCalls: [{ id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } }] })));
    const parts = await collectAll(model().stream!(simpleRequest(), {}));
    expect(inputStreamedBeforeCall(parts)).toBe(JSON.stringify({ sku: 'lamp' }));
  });

  it('accepts whole tool calls without index, or all with index 0 (some local servers send those)', async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({
      data: {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta, finish_reason: finish }],
      },
    });
    server.queue(
      sse([
        chunk({
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'add_to_cart', arguments: '{"sku":"x"}' } }],
        }),
        chunk({ tool_calls: [{ id: 'b', type: 'function', function: { name: 'checkout', arguments: '{}' } }] }),
        chunk({
          tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'add_to_cart', arguments: '' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"sku":"y"}' } }] }),
        chunk({
          tool_calls: [{ index: 0, id: 'd', type: 'function', function: { name: 'checkout', arguments: '{}' } }],
        }),
        chunk({}, 'tool_calls'),
        { data: '[DONE]' },
      ]),
    );
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(parts).toEqual([
      { type: 'tool-call', id: 'a', name: 'add_to_cart', input: { sku: 'x' } },
      { type: 'tool-call', id: 'b', name: 'checkout', input: {} },
      { type: 'tool-call', id: 'c', name: 'add_to_cart', input: { sku: 'y' } },
      { type: 'tool-call', id: 'd', name: 'checkout', input: {} },
      { type: 'finish', usage: undefined, model: 'm' },
    ]);
  });

  it('fails clearly on a malformed response, without retrying', async () => {
    server.queue(json(200, { object: 'chat.completion', choices: [] }));
    const error = await generateError(model());
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toMatch(/^openai: malformed response: expected \{ choices: \[\{ message \}\] \}/);
    expect(server.requests).toHaveLength(1);
  });

  it('fails clearly on a body that is not JSON', async () => {
    server.queue(text(200, '<html>proxy error</html>', 'text/html'));
    const error = await generateError(model());
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toMatch(/^openai: malformed response/);
  });

  it('fails clearly on a stream chunk that is not JSON', async () => {
    server.queue(sse([{ data: 'not json' }]));
    const error = await collect(model().stream!(simpleRequest(), {})).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toMatch(/^openai: malformed response: the body is not valid JSON/);
  });
});

describe('openai chat: errors and retries', () => {
  it('retries a 429 after the retry-after delay', async () => {
    server.queue(
      json(
        429,
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '0.3' },
      ),
      json(200, openaiCompletion({ text: 'ok' })),
    );
    const started = Date.now();
    expect((await model().generate(simpleRequest(), {})).text).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(server.requests).toHaveLength(2);
  });

  it('honours retry-after-ms', async () => {
    server.queue(
      json(503, { error: { message: 'busy' } }, { 'retry-after-ms': '250' }),
      json(200, openaiCompletion({ text: 'ok' })),
    );
    const started = Date.now();
    await model().generate(simpleRequest(), {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(230);
  });

  it('gives up after maxRetries with provider, status and message', async () => {
    const down = json(500, { error: { message: 'The server had an error', type: 'server_error' } });
    server.queue(down, down);
    const error = await generateError(model({ maxRetries: 1 }));
    expect(error.message).toBe('openai: HTTP 500 server_error: The server had an error (gave up after 2 attempts)');
    expect(error.status).toBe(500);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 401 and says to set OPENAI_API_KEY', async () => {
    server.queue(
      json(401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      }),
    );
    const error = await generateError(model());
    expect(error.message).toBe(
      'openai: HTTP 401 invalid_request_error: Incorrect API key provided. Check the API key: set OPENAI_API_KEY or pass { apiKey } to openai().',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('retries a dropped connection, for generate and for stream', async () => {
    server.queue(drop(), json(200, openaiCompletion({ text: 'ok' })), drop(), sse(openaiChunks({ text: 'ok' })));
    expect((await model().generate(simpleRequest(), {})).text).toBe('ok');
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')).toBe('ok');
    expect(server.requests).toHaveLength(4);
  });

  it('a stream that ends without finish_reason is an error, retried while nothing was yielded', async () => {
    const events = openaiChunks({ text: 'Hello there' });
    server.queue(sse(events.slice(0, 1)), sse(events.slice(0, 3)));
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const part of model().stream!(simpleRequest(), {})) seen.push(part);
    })().catch((e) => e);
    expect(server.requests).toHaveLength(2);
    expect(seen).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' there' },
    ]);
    expect(error.message).toMatch(/^openai: network error: .*finish_reason.*not retried\)$/);
  });

  it('an attempt that times out is retried as a network error', async () => {
    server.queue(() => {}, json(200, openaiCompletion({ text: 'ok' })));
    expect((await model({ timeoutMs: 100 }).generate(simpleRequest(), {})).text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('uses a client you pass, with its own retries switched off', async () => {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'sk-own', baseURL: `${server.url}/v1`, maxRetries: 5 });
    server.queue(json(500, { error: { message: 'boom' } }));
    const error = await generateError(openai({ model: 'gpt-test', api: 'chat', client, maxRetries: 0 }));
    expect(error.message).toBe('openai: HTTP 500 boom');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-own');
  });

  it('passes the AbortSignal through', async () => {
    server.queue(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const error = await generateError(model(), simpleRequest(), { signal: controller.signal });
    expect(error.message).toBe('stop');
  });
});

describe('openai chat: environment', () => {
  it('reads OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    await withEnv({ OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${server.url}/v1` }, async () => {
      expect((await openai({ model: 'gpt-test', api: 'chat' }).generate(simpleRequest(), {})).text).toBe('ok');
    });
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-env');
  });

  it('a missing key is a clear error at call time that names OPENAI_API_KEY', async () => {
    await withEnv({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: `${server.url}/v1` }, async () => {
      const m = openai({ model: 'gpt-test', api: 'chat' });
      const error = await m.generate(simpleRequest(), {}).catch((e) => e);
      expect(error).toBeInstanceOf(ModelError);
      expect(error.kind).toBe('auth');
      expect(error.message).toBe(
        'openai: no API key. Set the OPENAI_API_KEY environment variable or pass { apiKey } to openai().',
      );
      const streamError = await collect(m.stream!(simpleRequest(), {})).catch((e) => e);
      expect(streamError.message).toMatch(/OPENAI_API_KEY/);
    });
    expect(server.requests).toHaveLength(0);
  });
});
