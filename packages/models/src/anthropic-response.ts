/**
 * A Messages API response, whole or streamed, as skilltree's `ModelResponse` and stream parts:
 * text, tool calls, reasoning (`thinking` and `redacted_thinking` blocks, byte-exact, in order with
 * the text) and usage.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelResponse, ModelStreamPart, ReasoningPart, ReasoningSource, Usage } from '@skilltree/core/provider';
import { malformedError, networkError, preview } from './errors.js';
import { ResponseContent } from './response-content.js';
import { toolCallIds } from './tool-call-id.js';
import { parseToolArguments } from './tool-input.js';

/** Usage as the API reports it (the fields the adapter reads). */
export type RawUsage = Partial<
  Pick<Anthropic.Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>
> & { output_tokens_details?: { thinking_tokens?: number | null } | null };

/**
 * Anthropic usage as skilltree `Usage`. Anthropic's `input_tokens` leaves out the cached part of the
 * prompt, so `inputTokens` adds it back: every input token the request carried, as with the other
 * adapters.
 *
 * - `inputTokens` = `input_tokens` + `cache_read_input_tokens` + `cache_creation_input_tokens`;
 * - `outputTokens` = `output_tokens` (thinking included);
 * - `cacheReadTokens` = `cache_read_input_tokens` (billed at about a tenth of the input price);
 * - `cacheWriteTokens` = `cache_creation_input_tokens` (billed at about 1.25× for the 5-minute cache);
 * - `reasoningTokens` = `output_tokens_details.thinking_tokens`, when the API reports it (part of
 *   `outputTokens`, billed at the output price).
 *
 * Tokens at the full input price are `inputTokens - cacheReadTokens - cacheWriteTokens`.
 * Returns undefined when there is no usage object.
 */
export function anthropicUsage(raw: RawUsage | null | undefined): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const read = raw.cache_read_input_tokens ?? undefined;
  const write = raw.cache_creation_input_tokens ?? undefined;
  const usage: Usage = {};
  if (typeof raw.input_tokens === 'number') usage.inputTokens = raw.input_tokens + (read ?? 0) + (write ?? 0);
  if (typeof raw.output_tokens === 'number') usage.outputTokens = raw.output_tokens;
  if (typeof read === 'number') usage.cacheReadTokens = read;
  if (typeof write === 'number') usage.cacheWriteTokens = write;
  const thinking = raw.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') usage.reasoningTokens = thinking;
  return usage;
}

/** Copies the counts `from` reports into `into` (a stream reports them in `message_start` and `message_delta`). */
function mergeUsage(into: RawUsage, from: unknown): void {
  if (!from || typeof from !== 'object') return;
  for (const [key, value] of Object.entries(from)) {
    if (typeof value === 'number') (into as Record<string, number>)[key] = value;
  }
  const details = (from as RawUsage).output_tokens_details;
  if (details && typeof details.thinking_tokens === 'number') into.output_tokens_details = { ...details };
}

/** A `thinking` block (text and signature) or a `redacted_thinking` block (data) as a reasoning part of `source`. */
function reasoningOf(
  source: ReasoningSource,
  block: { thinking?: string; signature?: string; data?: string },
): ReasoningPart {
  if (block.data !== undefined)
    return { type: 'reasoning', ...source, text: '', providerData: { redactedData: block.data } };
  return {
    type: 'reasoning',
    ...source,
    text: block.thinking ?? '',
    providerData: { signature: block.signature ?? '' },
  };
}

/**
 * A whole response. `content` holds the reasoning and text blocks in order (reasoning carries `model`,
 * the adapter's model id, so it is replayed only to the same model); `text` is the text joined.
 */
export function readResponse(response: unknown, source: ReasoningSource): ModelResponse {
  const content = (response as { content?: unknown } | null)?.content;
  if (!response || typeof response !== 'object' || !Array.isArray(content)) {
    throw malformedError('anthropic', `expected a message with a content array, got ${preview(response)}`);
  }
  const read = new ResponseContent();
  const idOf = toolCallIds('toolu');
  for (const block of content as Array<Record<string, unknown>>) {
    if (block?.type === 'text' && typeof block.text === 'string') read.addText(block.text);
    else if (block?.type === 'thinking' || block?.type === 'redacted_thinking') {
      if (block.type === 'thinking' && (typeof block.thinking !== 'string' || typeof block.signature !== 'string')) {
        throw malformedError('anthropic', `a thinking block without its text or signature: ${preview(block)}`);
      }
      if (block.type === 'redacted_thinking' && typeof block.data !== 'string') {
        throw malformedError('anthropic', `a redacted_thinking block without its data: ${preview(block)}`);
      }
      read.parts.push(reasoningOf(source, block as { thinking?: string; signature?: string; data?: string }));
    } else if (block?.type === 'tool_use') {
      if (typeof block.name !== 'string' || block.name === '') {
        throw malformedError('anthropic', `a tool_use block without a name: ${preview(block)}`);
      }
      read.toolCalls.push({ id: idOf(block.id), name: block.name, input: parseToolArguments(block.input) });
    }
  }
  // Text alone needs no parts: `content` is kept only when it holds reasoning.
  return read.response(
    anthropicUsage((response as { usage?: RawUsage }).usage),
    (response as { model?: unknown }).model,
    (parts) => parts.some((p) => p.type === 'reasoning'),
  );
}

/** A block being streamed: a tool call's JSON, or a thinking block's text and signature. */
type Open =
  | { kind: 'tool'; id: unknown; name: unknown; json: string; input: unknown }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string };

/**
 * The raw SSE events of one response as stream parts: `text-delta`s; for a thinking block,
 * `reasoning-delta`s as its text streams and, at its `content_block_stop`, the finished block as
 * `reasoning` (its signature collected from `signature_delta`), so it comes before any text that
 * streams after it; a `redacted_thinking` block as `reasoning` at its stop; whole tool calls; and a
 * `finish` with the usage.
 */
export async function* readEvents(
  events: AsyncIterable<Anthropic.RawMessageStreamEvent>,
  source: ReasoningSource,
): AsyncGenerator<ModelStreamPart> {
  const usage: RawUsage = {};
  const open = new Map<number, Open>();
  const idOf = toolCallIds('toolu');
  let stopped = false;
  let answered: string | undefined;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        mergeUsage(usage, event.message?.usage);
        if (typeof event.message?.model === 'string' && event.message.model) answered = event.message.model;
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text' && block.text) yield { type: 'text-delta', text: block.text };
        else if (block.type === 'tool_use') {
          open.set(event.index, { kind: 'tool', id: block.id, name: block.name, json: '', input: block.input });
        } else if (block.type === 'thinking') {
          open.set(event.index, { kind: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' });
          if (block.thinking) yield { type: 'reasoning-delta', text: block.thinking };
        } else if (block.type === 'redacted_thinking') {
          open.set(event.index, { kind: 'redacted', data: block.data });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        const block = open.get(event.index);
        if (delta.type === 'text_delta') {
          if (delta.text) yield { type: 'text-delta', text: delta.text };
        } else if (delta.type === 'input_json_delta') {
          if (block?.kind !== 'tool') {
            throw malformedError('anthropic', `input_json_delta for block ${event.index}, which is not a tool_use`);
          }
          block.json += delta.partial_json;
          // Counted by the session: a call cut off mid-input is charged what it streamed.
          if (delta.partial_json) yield { type: 'tool-input-delta', text: delta.partial_json };
        } else if (delta.type === 'thinking_delta') {
          if (block?.kind !== 'thinking') {
            throw malformedError('anthropic', `thinking_delta for block ${event.index}, which is not a thinking block`);
          }
          block.thinking += delta.thinking;
          if (delta.thinking) yield { type: 'reasoning-delta', text: delta.thinking };
        } else if (delta.type === 'signature_delta') {
          if (block?.kind !== 'thinking') {
            throw malformedError(
              'anthropic',
              `signature_delta for block ${event.index}, which is not a thinking block`,
            );
          }
          block.signature += delta.signature;
        }
        break;
      }
      case 'content_block_stop': {
        const block = open.get(event.index);
        if (!block) break;
        open.delete(event.index);
        if (block.kind === 'tool') {
          if (typeof block.name !== 'string' || block.name === '') {
            throw malformedError('anthropic', `a streamed tool_use block without a name (block ${event.index})`);
          }
          const input = block.json ? parseToolArguments(block.json) : parseToolArguments(block.input);
          yield { type: 'tool-call', id: idOf(block.id), name: block.name, input };
        } else if (block.kind === 'thinking') {
          yield { type: 'reasoning', reasoning: reasoningOf(source, block) };
        } else {
          yield { type: 'reasoning', reasoning: reasoningOf(source, { data: block.data }) };
        }
        break;
      }
      case 'message_delta':
        mergeUsage(usage, event.usage);
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (!stopped) {
    throw networkError('anthropic', new Error('the stream ended before message_stop (connection dropped?)'));
  }
  yield answered
    ? { type: 'finish', usage: anthropicUsage(usage), model: answered }
    : { type: 'finish', usage: anthropicUsage(usage) };
}
