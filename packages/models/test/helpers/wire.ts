/**
 * Provider wire formats for the test servers: one scripted step (text and/or tool calls) rendered as
 * an Anthropic message / SSE stream, an OpenAI chat completion / chunk stream, or AI SDK v3 results.
 */
import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import {
  anthropicMessageObject,
  openaiArguments as args,
  type OpenAIStep,
  openaiChunkObject,
  openaiCompletionObject,
  openaiUsageObject,
} from '@skilltree/test-kit';
import type { SseEvent } from './server.js';

/** One scripted answer; an empty tool call `id` is left out of the wire format (as some compatible servers do). */
export type WireStep = OpenAIStep;

const idField = (id: string) => (id ? { id } : {});

/** `s` in two pieces (one when shorter than two characters), as a stream splits a value. */
export function halves(s: string): string[] {
  if (s.length < 2) return [s];
  const mid = Math.floor(s.length / 2);
  return [s.slice(0, mid), s.slice(mid)];
}

const anthropicUsage = {
  input_tokens: 10,
  output_tokens: 5,
  cache_read_input_tokens: 100,
  cache_creation_input_tokens: 20,
};

/** A non-streaming Messages API response. */
export function anthropicMessage(step: WireStep, usage: Record<string, number> = anthropicUsage): unknown {
  const content: unknown[] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  for (const c of step.toolCalls ?? [])
    content.push({ type: 'tool_use', ...idField(c.id), name: c.name, input: c.input });
  return anthropicMessageObject(content, step.toolCalls?.length ? 'tool_use' : 'end_turn', usage);
}

/** The `message_start` event of a streamed Messages API response by `model`, with `usage` (one output token so far). */
export function messageStart(model: string, usage: Record<string, unknown>): SseEvent {
  const message = anthropicMessageObject([], null, { ...usage, output_tokens: 1 }, model);
  return { event: 'message_start', data: { type: 'message_start', message } };
}

/** The SSE events of a streamed Messages API response. */
export function anthropicEvents(step: WireStep, usage: Record<string, number> = anthropicUsage): SseEvent[] {
  const ev = (data: { type: string; [k: string]: unknown }): SseEvent => ({ event: data.type, data });
  const events: SseEvent[] = [messageStart('claude-test', usage), { event: 'ping', data: { type: 'ping' } }];
  let index = 0;
  if (step.text) {
    events.push(ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    for (const part of halves(step.text)) {
      events.push(ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } }));
    }
    events.push(ev({ type: 'content_block_stop', index }));
    index++;
  }
  for (const c of step.toolCalls ?? []) {
    events.push(
      ev({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', ...idField(c.id), name: c.name, input: {} },
      }),
    );
    const json = typeof c.input === 'string' ? c.input : JSON.stringify(c.input);
    for (const part of halves(json)) {
      events.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }));
    }
    events.push(ev({ type: 'content_block_stop', index }));
    index++;
  }
  events.push(
    ev({
      type: 'message_delta',
      delta: { stop_reason: step.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  events.push(ev({ type: 'message_stop' }));
  return events;
}

const openaiUsage = openaiUsageObject(110, 5, 100);

/** A non-streaming chat completion. */
export function openaiCompletion(step: WireStep, usage: unknown = openaiUsage): unknown {
  return openaiCompletionObject(step, usage);
}

/** The SSE events of a streamed chat completion, `[DONE]` last. */
export function openaiChunks(step: WireStep, usage: unknown = openaiUsage): SseEvent[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
    data: openaiChunkObject(choices, extra),
  });
  const events: SseEvent[] = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])];
  for (const part of step.text ? halves(step.text) : []) {
    events.push(chunk([{ index: 0, delta: { content: part }, finish_reason: null }]));
  }
  for (const [i, c] of (step.toolCalls ?? []).entries()) {
    events.push(
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [{ index: i, ...idField(c.id), type: 'function', function: { name: c.name, arguments: '' } }],
          },
          finish_reason: null,
        },
      ]),
    );
    for (const part of halves(args(c.input))) {
      events.push(
        chunk([
          { index: 0, delta: { tool_calls: [{ index: i, function: { arguments: part } }] }, finish_reason: null },
        ]),
      );
    }
  }
  events.push(chunk([{ index: 0, delta: {}, finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop' }]));
  if (usage) events.push(chunk([], { usage }));
  events.push({ data: '[DONE]' });
  return events;
}

const v3Usage = {
  inputTokens: { total: 110, noCache: 10, cacheRead: 100, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A `doGenerate` result of a v3 language model. */
export function v3Result(step: WireStep): LanguageModelV3GenerateResult {
  const content: LanguageModelV3GenerateResult['content'] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  for (const c of step.toolCalls ?? []) {
    content.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: args(c.input) });
  }
  return {
    content,
    finishReason: { unified: step.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
    usage: v3Usage,
    warnings: [],
  };
}

/** The stream parts of a v3 language model's `doStream`. */
export function v3Parts(step: WireStep): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (step.text) {
    parts.push({ type: 'text-start', id: 't1' });
    for (const delta of halves(step.text)) parts.push({ type: 'text-delta', id: 't1', delta });
    parts.push({ type: 'text-end', id: 't1' });
  }
  for (const c of step.toolCalls ?? []) {
    parts.push({ type: 'tool-input-start', id: c.id, toolName: c.name });
    parts.push({ type: 'tool-input-delta', id: c.id, delta: args(c.input) });
    parts.push({ type: 'tool-input-end', id: c.id });
    parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: args(c.input) });
  }
  parts.push({
    type: 'finish',
    usage: v3Usage,
    finishReason: { unified: step.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
  });
  return parts;
}
