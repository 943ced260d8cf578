/**
 * Thinking on the wire: reasoning read from whole and streamed responses (byte-exact, in order with
 * the text), and sent back so that a model with preserved thinking takes it, against a test server
 * that signs each thinking block over the exact prefix before it and refuses what the API refuses.
 */
import type {
  AppendOnlyItem,
  AssistantMessage,
  AssistantPart,
  Message,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolSpec,
} from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { anthropic } from '../src/anthropic.js';
import {
  BOUND_ELSEWHERE,
  claudeScript,
  ev,
  type ThinkingStep,
  thinkingEvents,
  thinkingProblem,
} from './helpers/anthropic-thinking.js';
import { collect } from './helpers/collect.js';
import { generateError, text } from './helpers/request.js';
import { json, serverPerTest, sse } from './helpers/server.js';

const server = serverPerTest();

const MODEL = 'claude-opus-5-5';
const model = (id = MODEL, extra: Record<string, unknown> = {}) =>
  anthropic({ model: id, apiKey: 'sk-test', baseURL: server.url, maxRetries: 0, ...extra });

const signed = { type: 'thinking', thinking: 'Plan: search first.', signature: 'c2lnbmF0dXJl' };
const usage = { input_tokens: 10, output_tokens: 30, output_tokens_details: { thinking_tokens: 20 } };

/** The reasoning part the adapter reads from one of this server's thinking blocks. */
const reasoningPart = (text: string, providerData: Record<string, string>) => ({
  type: 'reasoning',
  provider: 'anthropic',
  endpoint: server.url,
  model: MODEL,
  text,
  providerData,
});

describe('reading reasoning', () => {
  it('a whole response: thinking and redacted blocks become reasoning parts in order with the text', async () => {
    server.queue(
      json(200, {
        type: 'message',
        role: 'assistant',
        model: MODEL,
        content: [
          signed,
          { type: 'text', text: 'Searching.' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
          { type: 'text', text: ' Done.' },
          { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'lamp' } },
        ],
        usage,
      }),
    );
    const response = await model().generate(simpleAppend(), {});
    expect(response.content).toEqual([
      reasoningPart('Plan: search first.', { signature: 'c2lnbmF0dXJl' }),
      { type: 'text', text: 'Searching.' },
      reasoningPart('', { redactedData: 'EmwKAhgBEgy3' }),
      { type: 'text', text: ' Done.' },
    ]);
    expect(response.text).toBe('Searching. Done.');
    expect(response.toolCalls).toEqual([{ id: 'toolu_1', name: 'search', input: { q: 'lamp' } }]);
    expect(response.usage).toEqual({ inputTokens: 10, outputTokens: 30, reasoningTokens: 20 });
  });

  it('a stream: reasoning-delta as it streams, the finished block (signature collected) before later text', async () => {
    server.queue(
      sse([
        ev({
          type: 'message_start',
          message: { model: MODEL, content: [], usage: { input_tokens: 10, output_tokens: 1 } },
        }),
        ...thinkingEvents(0, ['Plan: ', 'search first.'], 'c2lnbmF0dXJl'),
        ev({ type: 'content_block_stop', index: 0 }),
        ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
        ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Searching.' } }),
        ev({ type: 'content_block_stop', index: 1 }),
        ev({
          type: 'content_block_start',
          index: 2,
          content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
        }),
        ev({ type: 'content_block_stop', index: 2 }),
        ev({
          type: 'message_delta',
          delta: { stop_reason: 'end_turn' },
          usage: { output_tokens: 30, output_tokens_details: { thinking_tokens: 20 } },
        }),
        ev({ type: 'message_stop' }),
      ]),
    );
    const parts = await collect(model().stream!(simpleAppend(), {}));
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'Plan: ' },
      { type: 'reasoning-delta', text: 'search first.' },
      {
        type: 'reasoning',
        reasoning: reasoningPart('Plan: search first.', { signature: 'c2lnbmF0dXJl' }),
      },
      { type: 'text-delta', text: 'Searching.' },
      {
        type: 'reasoning',
        reasoning: reasoningPart('', { redactedData: 'EmwKAhgBEgy3' }),
      },
      { type: 'finish', usage: { inputTokens: 10, outputTokens: 30, reasoningTokens: 20 }, model: MODEL },
    ]);
  });
});

// ───────────── a tool loop against the signing server ─────────────

const SEARCH: ToolSpec = {
  name: 'search',
  description: 'Search products',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
};

/** A first request of a conversation, append-only. */
function simpleAppend(items: AppendOnlyItem[] = [{ role: 'user', content: text('lamp?') }]): ModelRequest {
  return {
    system: 'You sell lamps.',
    context: '',
    contextPlacement: 'end',
    tools: [SEARCH],
    messages: items.filter((i): i is Message => i.role !== 'system'),
    appendOnly: { system: 'You sell lamps.', tools: [SEARCH], items },
  };
}

/** The assistant message a session would record from a stream's parts. */
function recorded(parts: ModelStreamPart[]): AssistantMessage {
  const content: AssistantPart[] = [];
  const toolCalls: AssistantMessage['toolCalls'] = [];
  for (const part of parts) {
    if (part.type === 'reasoning') content.push(part.reasoning);
    else if (part.type === 'text-delta') {
      const last = content[content.length - 1];
      if (last?.type === 'text') last.text += part.text;
      else content.push({ type: 'text', text: part.text });
    } else if (part.type === 'tool-call') toolCalls.push({ id: part.id, name: part.name, input: part.input });
  }
  return { role: 'assistant', content, ...(toolCalls.length ? { toolCalls } : {}) };
}

const fromResponse = (r: ModelResponse): AssistantMessage => ({
  role: 'assistant',
  content: r.content ?? text(r.text),
  ...(r.toolCalls.length ? { toolCalls: r.toolCalls } : {}),
});

/** Runs `steps` as one conversation; every assistant message and tool result is appended. */
async function loop(steps: ThinkingStep[], streamed: boolean, id = MODEL) {
  const script = claudeScript(steps);
  server.queue(...steps.map(() => script.handler));
  const m = model(id);
  const items: AppendOnlyItem[] = [{ role: 'user', content: text('I need a lamp') }];
  for (const step of steps) {
    const req = simpleAppend([...items]);
    const message = streamed ? recorded(await collect(m.stream!(req, {}))) : fromResponse(await m.generate(req, {}));
    items.push(message);
    for (const call of message.toolCalls ?? []) {
      items.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: text(`results for ${step.text ?? 'it'}`),
      });
    }
    if (!message.toolCalls?.length) items.push({ role: 'user', content: text('and another?') });
  }
  return { script, items };
}

const STEPS: ThinkingStep[] = [
  { toolCalls: [{ id: 'toolu_1', name: 'search', input: { q: 'lamp' } }] },
  { text: 'Found three.', redacted: true, toolCalls: [{ id: 'toolu_2', name: 'search', input: { q: 'desk lamp' } }] },
  { text: 'The desk lamp, then.' },
  { thinking: '', toolCalls: [{ id: 'toolu_3', name: 'search', input: { q: 'bulb' } }] },
  { text: 'Bulbs too.' },
];

describe.each([
  ['not streamed', false],
  ['streamed', true],
])('a thinking tool loop on Opus 5.5 (%s)', (_name, streamed) => {
  it('every thinking block goes back under the prefix it was signed over: nothing refused', async () => {
    const { script } = await loop(STEPS, streamed);
    expect(script.refusals).toEqual([]);
    expect(server.requests).toHaveLength(STEPS.length);
    // Adaptive thinking with no options, and each request starts with the previous one.
    for (const r of server.requests) expect(r.body.thinking).toEqual({ type: 'adaptive' });
    const last = server.requests[STEPS.length - 1].body.messages;
    expect(last[1].content[0]).toMatchObject({ type: 'thinking', thinking: 'Thinking, step 1.' });
    expect(last[3].content[0]).toMatchObject({ type: 'redacted_thinking' });
    expect(last[7].content[0]).toEqual({ type: 'thinking', thinking: '', signature: expect.stringMatching(/^sig\./) });
  });

  it('an earlier message edited is refused with the API’s text', async () => {
    const { items } = await loop(STEPS.slice(0, 2), streamed);
    const edited = [...items];
    edited[0] = { role: 'user', content: text('I need a lamp!') };
    const script = claudeScript([{ text: 'x' }]);
    server.queue(script.handler);
    const error = await generateError(model(), simpleAppend(edited));
    expect(error.message).toBe(`anthropic: HTTP 400 invalid_request_error: messages.1.content.0: ${BOUND_ELSEWHERE}`);
  });

  it('a thinking block from another model is not sent back, and the API says the tool-use turn lacks it', async () => {
    const { items } = await loop(STEPS.slice(0, 1), streamed);
    const script = claudeScript([{ text: 'x' }]);
    server.queue(script.handler);
    const error = await generateError(model('claude-fable-5-1'), simpleAppend(items));
    expect(error.message).toBe(
      "anthropic: HTTP 400 invalid_request_error: messages.1.content.0.type: Expected 'thinking' or 'redacted_thinking', but found 'tool_use'",
    );
  });
});

describe('the test server refuses what the API refuses (thinking)', () => {
  /** A signed exchange: the server's answer to `first`, appended, with a tool result after it. */
  async function exchange(id = MODEL, tools = true) {
    const script = claudeScript([{ toolCalls: [{ id: 'toolu_1', name: 'search', input: {} }] }]);
    server.queue(script.handler);
    const first = {
      model: id,
      max_tokens: 100,
      system: 'S',
      tools: [{ name: 'search', input_schema: {} }],
      messages: [{ role: 'user', content: 'hi' }],
    };
    const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify(first) });
    const answer = (await res.json()) as { content: { type: string; [k: string]: unknown }[] };
    const next = {
      ...first,
      messages: [
        ...first.messages,
        { role: 'assistant', content: answer.content },
        ...(tools ? [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }] : []),
      ],
    };
    return { first, next, answer };
  }

  it('accepts the exchange sent back as it was, with cache marks moved', async () => {
    const { next } = await exchange();
    expect(thinkingProblem(next)).toBeNull();
    const moved = structuredClone(next);
    (moved.messages[1].content as { cache_control?: unknown }[])[1].cache_control = { type: 'ephemeral' };
    expect(thinkingProblem(moved)).toBeNull();
  });

  it('refuses a changed system prompt, tool list or earlier message (preserved thinking)', async () => {
    const { next } = await exchange();
    expect(thinkingProblem({ ...next, system: 'S2' })).toBe(`messages.1.content.0: ${BOUND_ELSEWHERE}`);
    expect(thinkingProblem({ ...next, tools: [] })).toBe(`messages.1.content.0: ${BOUND_ELSEWHERE}`);
    const edited = structuredClone(next);
    edited.messages[0] = { role: 'user', content: 'hello' };
    expect(thinkingProblem(edited)).toBe(`messages.1.content.0: ${BOUND_ELSEWHERE}`);
  });

  it('refuses an edited thinking block, or one sent to another model', async () => {
    const { next } = await exchange();
    const edited = structuredClone(next);
    (edited.messages[1].content as { thinking?: string }[])[0].thinking = 'Something else.';
    expect(thinkingProblem(edited)).toBe("messages.1.content.0: Invalid 'signature' in 'thinking' block");
    expect(thinkingProblem({ ...next, model: 'claude-fable-5-1' })).toMatch(/Invalid 'signature'/);
  });

  it('a model without preserved thinking takes a changed prefix', async () => {
    const { next } = await exchange('claude-fable-5');
    expect(thinkingProblem({ ...next, system: 'S2' })).toBeNull();
  });

  it('the last tool-use turn must start with its thinking block', async () => {
    const { next } = await exchange();
    const stripped = structuredClone(next);
    stripped.messages[1].content = (stripped.messages[1].content as { type: string }[]).slice(1);
    expect(thinkingProblem(stripped)).toBe(
      "messages.1.content.0.type: Expected 'thinking' or 'redacted_thinking', but found 'tool_use'",
    );
    // With thinking off (a model that allows it), the rule does not apply.
    expect(thinkingProblem({ ...stripped, model: 'claude-opus-4-6', thinking: { type: 'disabled' } })).toBeNull();
  });

  it('a streamed answer carries the same signed block', async () => {
    const script = claudeScript([{ text: 'hi', thinking: 'Hmm.' }]);
    server.queue(script.handler);
    const parts = await collect(model().stream!(simpleAppend(), {}));
    const reasoning = parts.find((p) => p.type === 'reasoning');
    expect(reasoning).toMatchObject({
      reasoning: { text: 'Hmm.', providerData: { signature: expect.stringMatching(/^sig\./) } },
    });
  });
});
