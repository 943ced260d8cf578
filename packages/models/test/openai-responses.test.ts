/**
 * `openai({ model })` speaks the Responses API: the body it sends (stateless, instructions, function
 * tools, the transcript as items, parts, reasoning replayed to its own model only, append-only
 * requests), what it reads back (reasoning, text, function calls, usage), streamed and not, its
 * errors and retries, and what it does at a server without `/responses`.
 */
import type { Message, ModelRequest, ReasoningPart, SystemNote } from '@skilltree/core/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelError, openai } from '../src/openai.js';
import { collect, collectAll, inputStreamedBeforeCall, withEnv } from './helpers/collect.js';
import { openaiScript } from './helpers/openai-rules.js';
import {
  type OutputItem,
  outputItems,
  RESPONSES_USAGE,
  responseEvents,
  responseObject,
} from './helpers/openai-wire.js';
import { CONTEXT, generateError, SYSTEM, sampleRequest, simpleRequest, TOOLS, text } from './helpers/request.js';
import { drop, json, serverPerTest, sse } from './helpers/server.js';
import { openaiCompletion } from './helpers/wire.js';

const server = serverPerTest();
afterEach(() => {
  vi.restoreAllMocks();
});

function model(extra: Partial<Parameters<typeof openai>[0]> = {}) {
  return openai({
    model: 'gpt-test',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    initialRetryDelayMs: 1,
    ...extra,
  });
}

const ok = () => json(200, responseObject(outputItems({ text: 'ok' })));

const toolsOnWire = TOOLS.map((t) => ({
  type: 'function',
  name: t.name,
  description: t.description,
  parameters: t.inputSchema,
  strict: false,
}));

const transcriptOnWire = [
  { role: 'user', content: 'I need a lamp' },
  { type: 'function_call', call_id: 't1', name: 'read_skill', arguments: '{"name":"shopping"}' },
  { type: 'function_call_output', call_id: 't1', output: 'Loaded skill "shopping".' },
  { role: 'assistant', content: 'Adding.' },
  { type: 'function_call', call_id: 't2', name: 'add_to_cart', arguments: '{"sku":"lamp"}' },
  { type: 'function_call', call_id: 't3', name: 'nope', arguments: '{}' },
  { type: 'function_call_output', call_id: 't2', output: 'added lamp' },
  // A tool error is its text: the model reads what went wrong, as it always has.
  { type: 'function_call_output', call_id: 't3', output: 'Unknown tool "nope".' },
];

/** The reasoning item the request replays for `reasoning(id)`: its id, encrypted content and summary. */
const reasoningItem = (id: string) => ({
  type: 'reasoning',
  id,
  encrypted_content: `enc-${id}`,
  summary: [{ type: 'summary_text', text: `summary of ${id}` }],
});
/** Reasoning as this adapter records it for `model`. */
const reasoning = (id: string, model = 'gpt-5.6', extra: Partial<ReasoningPart> = {}): ReasoningPart => ({
  type: 'reasoning',
  provider: 'openai',
  endpoint: `${server.url}/v1`,
  model,
  text: `summary of ${id}`,
  providerData: { itemId: id, encryptedContent: `enc-${id}` },
  ...extra,
});

describe('openai responses: the request body', () => {
  it("posts to /responses: store false, instructions, function tools (strict: false), items, the context at the end ('end')", async () => {
    server.queue(ok());
    await model().generate(sampleRequest('end'), {});
    const [request] = server.requests;
    expect(request.url).toBe('/v1/responses');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toEqual({
      model: 'gpt-test',
      store: false,
      instructions: SYSTEM,
      input: [...transcriptOnWire, { role: 'user', content: `thanks\n\n${CONTEXT}` }],
      tools: toolsOnWire,
    });
  });

  it("appends the context to the instructions ('system'); maxTokens, temperature and extraBody as sent", async () => {
    server.queue(ok());
    await model({ maxTokens: 50, temperature: 0, extraBody: { metadata: { app: 'shop' } } }).generate(
      sampleRequest('system'),
      {},
    );
    expect(server.requests[0].body).toEqual({
      model: 'gpt-test',
      store: false,
      instructions: `${SYSTEM}\n\n${CONTEXT}`,
      input: [...transcriptOnWire, { role: 'user', content: 'thanks' }],
      tools: toolsOnWire,
      max_output_tokens: 50,
      temperature: 0,
      metadata: { app: 'shop' },
    });
  });

  it('a model that reasons asks for its reasoning encrypted; reasoningEffort and reasoningSummary go in reasoning', async () => {
    server.queue(ok(), ok(), ok());
    await model({ model: 'gpt-5.6' }).generate(simpleRequest(), {});
    await model({ model: 'gpt-5.4', reasoningEffort: 'high', reasoningSummary: 'auto' }).generate(simpleRequest(), {});
    await model({ model: 'gpt-4.1' }).generate(simpleRequest(), {});
    const [bound, asked, none] = server.requests.map((r) => r.body);
    expect(bound.include).toEqual(['reasoning.encrypted_content']);
    expect(bound.reasoning).toBeUndefined();
    expect(asked.include).toEqual(['reasoning.encrypted_content']);
    expect(asked.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    // The API refuses `include: ['reasoning.encrypted_content']` for a model that does not reason.
    expect(none.include).toBeUndefined();
    expect(none.store).toBe(false);
  });

  it('sends no instructions and no tools when there are none', async () => {
    server.queue(ok());
    const req = simpleRequest();
    req.system = '';
    await model().generate(req, {});
    expect(server.requests[0].body.instructions).toBeUndefined();
    expect(server.requests[0].body.tools).toBeUndefined();
  });
});

describe('openai responses: parts on the wire', () => {
  const PNG = 'iVBORw0KGgo=';
  const PDF = 'JVBERi0xLjQ=';

  it("contextChanged lines read as before: after the message's own text, each on its own line", async () => {
    server.queue(ok());
    const req = simpleRequest();
    req.messages = [
      {
        role: 'user',
        content: [...text('go'), { type: 'context-changed', changes: [{ kind: 'line', skill: 'notes', text: 'a' }] }],
      },
      { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'add_to_cart', input: { sku: 'x' } }] },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'add_to_cart',
        content: [
          ...text('added x'),
          {
            type: 'context-changed',
            changes: [
              { kind: 'line', skill: 'cart', text: 'Cart: 1 item' },
              { kind: 'loaded', skill: 'shopping' },
            ],
          },
        ],
      },
    ];
    await model().generate(req, {});
    expect(server.requests[0].body.input).toEqual([
      { role: 'user', content: 'go\ncontextChanged notes added: a' },
      { type: 'function_call', call_id: 'c1', name: 'add_to_cart', arguments: '{"sku":"x"}' },
      {
        type: 'function_call_output',
        call_id: 'c1',
        output: `added x\ncontextChanged cart added: Cart: 1 item\ncontextChanged shopping loaded\n\n${CONTEXT}`,
      },
    ]);
  });

  it('files: images as input_image, other files as input_file (bytes with a name, or a URL), in tool results too', async () => {
    server.queue(ok());
    const req = simpleRequest();
    req.messages = [
      {
        role: 'user',
        content: [
          ...text('what is in these?'),
          { type: 'file', mediaType: 'image/png', data: PNG, filename: 'a.png' },
          { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'terms.pdf' },
          { type: 'file', mediaType: 'image/jpeg', url: 'https://cdn.example/b.jpg' },
          { type: 'file', mediaType: 'application/pdf', url: 'https://cdn.example/c.pdf' },
          { type: 'file', mediaType: 'text/plain', data: 'aGk=' },
        ],
      },
      { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'render', input: {} }] },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'render',
        content: [...text('rendered:'), { type: 'file', mediaType: 'image/png', data: PNG }],
      },
    ];
    req.context = '';
    req.contextPlacement = 'system';
    await model().generate(req, {});
    expect(server.requests[0].body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'what is in these?' },
          { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PNG}` },
          { type: 'input_file', filename: 'terms.pdf', file_data: `data:application/pdf;base64,${PDF}` },
          { type: 'input_image', detail: 'auto', image_url: 'https://cdn.example/b.jpg' },
          { type: 'input_file', file_url: 'https://cdn.example/c.pdf' },
          { type: 'input_file', filename: 'file.txt', file_data: 'data:text/plain;base64,aGk=' },
        ],
      },
      { type: 'function_call', call_id: 'c1', name: 'render', arguments: '{}' },
      {
        type: 'function_call_output',
        call_id: 'c1',
        output: [
          { type: 'input_text', text: 'rendered:' },
          { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PNG}` },
        ],
      },
    ]);
  });

  it('Chat Completions: images as image_url, other files as file parts; a file in a tool result is named in its text', async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    const req = simpleRequest();
    req.messages = [
      {
        role: 'user',
        content: [
          ...text('look'),
          { type: 'file', mediaType: 'image/png', data: PNG },
          { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'terms.pdf' },
        ],
      },
      { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'render', input: {} }] },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'render',
        content: [...text('rendered: '), { type: 'file', mediaType: 'image/png', data: PNG, filename: 'chart.png' }],
      },
    ];
    req.context = '';
    req.contextPlacement = 'system';
    await model({ api: 'chat' }).generate(req, {});
    expect(server.requests[0].body.messages.slice(1)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'terms.pdf' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'render', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'rendered: [file: chart.png]' },
    ]);
  });
});

describe('openai responses: reasoning is replayed to the model that produced it, with its encrypted content', () => {
  const conversation = (parts: ReasoningPart[]): ModelRequest => {
    const req = simpleRequest();
    req.messages = [
      { role: 'user', content: text('go') },
      {
        role: 'assistant',
        content: [parts[0], ...text('Let me look.'), ...parts.slice(1)],
        toolCalls: [{ id: 'c1', name: 'add_to_cart', input: { sku: 'x' } }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'add_to_cart', content: text('added x') },
    ];
    req.context = '';
    req.contextPlacement = 'system';
    return req;
  };

  it('in order with the text, before the function calls: id, encrypted content and summary byte-exact', async () => {
    server.queue(ok());
    await model({ model: 'gpt-5.6' }).generate(conversation([reasoning('rs_1'), reasoning('rs_2')]), {});
    expect(server.requests[0].body.input).toEqual([
      { role: 'user', content: 'go' },
      reasoningItem('rs_1'),
      { role: 'assistant', content: 'Let me look.' },
      reasoningItem('rs_2'),
      { type: 'function_call', call_id: 'c1', name: 'add_to_cart', arguments: '{"sku":"x"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'added x' },
    ]);
  });

  it("not another model's, not another provider's, not one without encrypted content (store: false keeps nothing)", async () => {
    server.queue(ok());
    await model({ model: 'gpt-5.6' }).generate(
      conversation([
        reasoning('rs_other_model', 'gpt-5.5'),
        { type: 'reasoning', provider: 'anthropic', model: 'gpt-5.6', text: 'hmm', providerData: { signature: 'sig' } },
        reasoning('rs_no_content', 'gpt-5.6', { providerData: { itemId: 'rs_no_content' } }),
        reasoning('rs_no_model', 'gpt-5.6', { model: '' }),
      ]),
      {},
    );
    const types = server.requests[0].body.input.map((i: { type?: string; role?: string }) => i.type ?? i.role);
    expect(types).toEqual(['user', 'assistant', 'function_call', 'function_call_output']);
  });

  it('Chat Completions sends no reasoning back (it has no way to)', async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    await model({ api: 'chat', model: 'gpt-5.6', reasoningEffort: 'none' }).generate(
      conversation([reasoning('rs_1')]),
      {},
    );
    expect(server.requests[0].body.messages[2]).toEqual({
      role: 'assistant',
      content: 'Let me look.',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add_to_cart', arguments: '{"sku":"x"}' } }],
    });
  });
});

describe('openai responses: append-only requests', () => {
  const note = (over: Partial<SystemNote> = {}): SystemNote => ({
    role: 'system',
    text: '<current_context>\n<skill name="shopping" active>\nSearch first.\n</skill>\n</current_context>',
    addedTools: [TOOLS[1]],
    removedTools: [],
    ...over,
  });
  const appendOnly = (): ModelRequest => {
    const req = sampleRequest('end');
    const items: (Message | SystemNote)[] = [
      { role: 'user', content: text('I need a lamp') },
      {
        role: 'assistant',
        content: [reasoning('rs_1', 'gpt-5.6')],
        toolCalls: [{ id: 't1', name: 'read_skill', input: { name: 'shopping' } }],
      },
      { role: 'tool', toolCallId: 't1', name: 'read_skill', content: text('Loaded skill "shopping".') },
      note(),
      { role: 'assistant', content: text('Which one?') },
      { role: 'user', content: text('never mind') },
      note({
        text: '<current_context>\n<skill name="shopping" unloaded/>\n</current_context>',
        addedTools: [],
        removedTools: ['add_to_cart'],
      }),
      note({ text: '', addedTools: [{ ...TOOLS[1], description: 'Add an item (new)' }] }),
    ];
    req.appendOnly = { system: 'the first system prompt', tools: [TOOLS[0]], items };
    return req;
  };

  it("instructions and tools are the conversation's first; notes are developer messages, added tools additional_tools", async () => {
    server.queue(ok());
    const m = model({ model: 'gpt-5.6' });
    expect(m.appendOnly).toBe(true);
    await m.generate(appendOnly(), {});
    const body = server.requests[0].body;
    expect(body.instructions).toBe('the first system prompt');
    expect(body.tools).toEqual([toolsOnWire[0]]);
    expect(body.input).toEqual([
      { role: 'user', content: 'I need a lamp' },
      reasoningItem('rs_1'),
      { type: 'function_call', call_id: 't1', name: 'read_skill', arguments: '{"name":"shopping"}' },
      { type: 'function_call_output', call_id: 't1', output: 'Loaded skill "shopping".' },
      { role: 'developer', content: note().text },
      { type: 'additional_tools', role: 'developer', tools: [toolsOnWire[1]] },
      { role: 'assistant', content: 'Which one?' },
      { role: 'user', content: 'never mind' },
      // A removal has no item of its own: the tool stays declared, and core refuses a call of it.
      { role: 'developer', content: '<current_context>\n<skill name="shopping" unloaded/>\n</current_context>' },
      // A redefined tool is declared again.
      { type: 'additional_tools', role: 'developer', tools: [{ ...toolsOnWire[1], description: 'Add an item (new)' }] },
    ]);
    // The classic fields (the context, the window) are not sent.
    expect(JSON.stringify(body)).not.toContain('Cart: empty');
  });

  it('Chat Completions sends an append-only request as its classic fields', async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    await model({ api: 'chat' }).generate(appendOnly(), {});
    const body = server.requests[0].body;
    expect(body.messages[0]).toEqual({ role: 'system', content: SYSTEM });
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: `thanks\n\n${CONTEXT}` });
  });
});

describe('openai responses: reading a response', () => {
  const output: OutputItem[] = [
    {
      type: 'reasoning',
      id: 'rs_a',
      summary: [
        { type: 'summary_text', text: 'First, ' },
        { type: 'summary_text', text: 'then.' },
      ],
      encrypted_content: 'enc-a',
    },
    ...outputItems({
      text: 'Adding it.',
      toolCalls: [
        { id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } },
        { id: 'call_2', name: 'checkout', input: '' },
      ],
    }),
  ];
  const part = (text: string): ReasoningPart => ({
    type: 'reasoning',
    provider: 'openai',
    endpoint: `${server.url}/v1`,
    model: 'gpt-5.6',
    text,
    providerData: { encryptedContent: 'enc-a', itemId: 'rs_a' },
  });
  const usage = { inputTokens: 110, outputTokens: 12, cacheReadTokens: 100, reasoningTokens: 7 };

  it('generate: reasoning and text in order, function calls, usage with cached and reasoning tokens, the model', async () => {
    server.queue(json(200, responseObject(output, RESPONSES_USAGE, 'gpt-5.6-sol-2026-07-09')));
    const m = model({ model: 'gpt-5.6' });
    expect(m.name).toBe('openai:gpt-5.6');
    expect(await m.generate(simpleRequest(), {})).toEqual({
      text: 'Adding it.',
      content: [part('First, \n\nthen.'), { type: 'text', text: 'Adding it.' }],
      toolCalls: [
        { id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } },
        { id: 'call_2', name: 'checkout', input: {} },
      ],
      usage,
      model: 'gpt-5.6-sol-2026-07-09',
    });
  });

  it('stream: summary deltas as reasoning-delta, the finished reasoning in order, text deltas, calls, finish', async () => {
    server.queue(sse(responseEvents(output, RESPONSES_USAGE, 'gpt-5.6')));
    expect(await collect(model({ model: 'gpt-5.6' }).stream!(simpleRequest(), {}))).toEqual([
      { type: 'reasoning-delta', text: 'Fir' },
      { type: 'reasoning-delta', text: 'st, ' },
      { type: 'reasoning-delta', text: '\n\n' },
      { type: 'reasoning-delta', text: 'th' },
      { type: 'reasoning-delta', text: 'en.' },
      { type: 'reasoning', reasoning: part('First, \n\nthen.') },
      { type: 'text-delta', text: 'Addin' },
      { type: 'text-delta', text: 'g it.' },
      { type: 'tool-call', id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } },
      { type: 'tool-call', id: 'call_2', name: 'checkout', input: {} },
      { type: 'finish', usage, model: 'gpt-5.6' },
    ]);
  });

  it("stream: a call's arguments stream as tool-input-delta parts before the calls, so a call cut off mid-input is charged", async () => {
    server.queue(sse(responseEvents(output, RESPONSES_USAGE, 'gpt-5.6')));
    const parts = await collectAll(model({ model: 'gpt-5.6' }).stream!(simpleRequest(), {}));
    expect(inputStreamedBeforeCall(parts)).toMatch(/^\{"sku":"lamp"\}/);
  });

  it('stream: a message sent only whole (no deltas, as some compatible servers do) is still read', async () => {
    const events = responseEvents(outputItems({ text: 'Whole.' })).filter(
      (e) => !String((e.data as { type: string }).type).startsWith('response.output_text.'),
    );
    server.queue(sse(events));
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(parts.slice(0, -1)).toEqual([{ type: 'text-delta', text: 'Whole.' }]);
  });

  it('reasoning without summaries has empty text; cache writes are read where reported', async () => {
    const usage = { ...RESPONSES_USAGE, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 90 } };
    server.queue(
      json(
        200,
        responseObject(
          [{ type: 'reasoning', id: 'rs_b', summary: [], encrypted_content: 'enc-b' }, ...outputItems({ text: 'hi' })],
          usage,
        ),
      ),
    );
    const response = await model({ model: 'gpt-5.6' }).generate(simpleRequest(), {});
    expect(response.content?.[0]).toEqual({
      type: 'reasoning',
      provider: 'openai',
      endpoint: `${server.url}/v1`,
      model: 'gpt-5.6',
      text: '',
      providerData: { encryptedContent: 'enc-b', itemId: 'rs_b' },
    });
    expect(response.usage).toEqual({
      inputTokens: 110,
      outputTokens: 12,
      cacheReadTokens: 0,
      cacheWriteTokens: 90,
      reasoningTokens: 7,
    });
  });
});

describe('openai responses: errors, retries and timeouts', () => {
  it('retries a 429 and a dropped connection, for generate and for stream', async () => {
    const limited = json(
      429,
      { error: { message: 'Rate limit reached', type: 'requests' } },
      { 'retry-after-ms': '10' },
    );
    server.queue(limited, drop(), ok(), drop(), sse(responseEvents(outputItems({ text: 'ok' }))));
    expect((await model().generate(simpleRequest(), {})).text).toBe('ok');
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')).toBe('ok');
    expect(server.requests.map((r) => r.url)).toEqual(Array(5).fill('/v1/responses'));
  });

  it('a failed response is an error naming its code; server_error is retried', async () => {
    const failed = (code: string) => ({
      ...responseObject([], null),
      status: 'failed',
      error: { code, message: 'The model broke.' },
    });
    server.queue(json(200, failed('server_error')), ok(), json(200, failed('invalid_prompt')));
    expect((await model().generate(simpleRequest(), {})).text).toBe('ok');
    const error = await generateError(model());
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toBe('openai: the response failed: invalid_prompt: The model broke.');
    expect(server.requests).toHaveLength(3);
  });

  it('stream: response.failed and error events are errors; a stream without response.completed is retried', async () => {
    const events = responseEvents(outputItems({ text: 'Hello there' }));
    const failed = {
      event: 'response.failed',
      data: {
        type: 'response.failed',
        response: { ...responseObject([]), status: 'failed', error: { code: 'invalid_prompt', message: 'no' } },
      },
    };
    const errorEvent = {
      event: 'error',
      data: { type: 'error', code: 'invalid_request_error', message: 'bad input', param: null },
    };
    server.queue(sse([...events.slice(0, 2), failed]), sse([errorEvent]), sse(events.slice(0, 3)), sse(events));
    expect((await collect(model().stream!(simpleRequest(), {})).catch((e) => e)).message).toBe(
      'openai: the response failed: invalid_prompt: no',
    );
    expect((await collect(model().stream!(simpleRequest(), {})).catch((e) => e)).message).toBe(
      'openai: error event in the stream: invalid_request_error: bad input',
    );
    const parts = await collect(model().stream!(simpleRequest(), {}));
    expect(parts.at(-1)).toMatchObject({ type: 'finish' });
    expect(server.requests).toHaveLength(4);
  });

  it('a malformed response is a clear error, not retried', async () => {
    server.queue(json(200, { id: 'resp_1', status: 'completed' }));
    const error = await generateError(model());
    expect(error.message).toMatch(/^openai: malformed response: expected a response with an output array/);
    expect(server.requests).toHaveLength(1);
  });

  it('an attempt that times out is retried as a network error', async () => {
    server.queue(() => {}, ok());
    expect((await model({ timeoutMs: 100 }).generate(simpleRequest(), {})).text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('reads OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    server.queue(ok());
    await withEnv({ OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${server.url}/v1` }, async () => {
      expect((await openai({ model: 'gpt-test' }).generate(simpleRequest(), {})).text).toBe('ok');
    });
    expect(server.requests[0].url).toBe('/v1/responses');
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-env');
  });
});

describe('openai: a server without /responses', () => {
  const chatOnly = (steps: number) => {
    const script = openaiScript(
      Array.from({ length: steps }, () => ({ text: 'ok' })),
      { chatOnly: true },
    );
    server.queue(...Array.from({ length: steps + 2 }, () => script.handler));
    return script;
  };

  it('left to choose, the adapter switches to Chat Completions and says so once; later calls go there directly', async () => {
    chatOnly(4);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const m = model();
    expect((await m.generate(simpleRequest(), {})).text).toBe('ok');
    const parts = await collect(m.stream!(simpleRequest(), {}));
    expect(parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')).toBe('ok');
    // Another adapter at the same server: a 404 again, switched again, not said again.
    const streamed = await collect(model().stream!(simpleRequest(), {}));
    expect(streamed.at(-1)).toMatchObject({ type: 'finish' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/responses',
      '/v1/chat/completions',
      '/v1/chat/completions',
      '/v1/responses',
      '/v1/chat/completions',
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe(
      `openai: ${server.url}/v1 has no /responses (HTTP 404): using Chat Completions for gpt-test from now on. Pass { api: 'chat' } to openai() to choose it and skip the first request.`,
    );
    expect(m.appendOnly).toBe(false);
  });

  it("with api: 'responses' the 404 is an error that names api: 'chat', never a bare 404", async () => {
    chatOnly(1);
    const error = await generateError(model({ api: 'responses' }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.status).toBe(404);
    expect(error.message).toBe(
      `openai: HTTP 404 invalid_request_error: no route POST /v1/responses. ${server.url}/v1/responses was not found: if this server has only Chat Completions, pass { api: 'chat' } to openai().`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a 404 for the model is not a missing route: it stays what it is', async () => {
    server.queue(
      json(404, {
        error: {
          message: 'The model `gpt-nope` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      }),
    );
    const error = await generateError(model({ model: 'gpt-nope' }));
    expect(error.message).toBe(
      'openai: HTTP 404 invalid_request_error: The model `gpt-nope` does not exist or you do not have access to it.',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('OPENAI_BASE_URL at a chat-only server works with only openai({ model }) (what the CLI does)', async () => {
    chatOnly(1);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await withEnv({ OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${server.url}/v1/` }, async () => {
      expect((await openai({ model: 'gpt-test' }).generate(simpleRequest(), {})).text).toBe('ok');
    });
  });

  it('GPT-5.6 there, with tools: a clear error that names the fixes, not the provider 400', async () => {
    const script = chatOnly(1);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = await generateError(model({ model: 'gpt-5.6' }), sampleRequest());
    expect(error.message).toBe(
      `openai: Chat Completions refuses function tools for gpt-5.6 with reasoning, which is on by default, and every skilltree request with tools carries them. To use tools, point baseURL at a server with /responses (${server.url}/v1 has none), or pass reasoningEffort: 'none' to openai() to turn reasoning off.`,
    );
    expect(script.refusals).toEqual([]);
  });
});

describe('openai: options a model refuses fail when the adapter is created', () => {
  it("reasoningEffort 'none' on a model that always reasons, any effort on one that never does, an unknown api", () => {
    expect(() => openai({ model: 'o3', reasoningEffort: 'none' })).toThrow(
      "openai(): o3 always reasons and refuses reasoningEffort 'none': pass 'low' (or 'minimal' where it takes it), or leave reasoningEffort out.",
    );
    expect(() => openai({ model: 'gpt-4.1', reasoningEffort: 'low' })).toThrow(
      'openai(): gpt-4.1 does not reason: leave reasoningEffort out.',
    );
    expect(() => openai({ model: 'gpt-4.1', reasoningSummary: 'auto' })).toThrow(
      'openai(): gpt-4.1 does not reason: leave reasoningSummary out.',
    );
    expect(() => openai({ model: 'gpt-5.6', api: 'completions' as never })).toThrow(
      "openai(): api must be 'responses' or 'chat' (got \"completions\").",
    );
    expect(() => openai({ model: 'gpt-5.6', reasoningEffort: 'none' })).not.toThrow();
  });
});
