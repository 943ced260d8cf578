/**
 * A Responses API response, and its event stream, read back: text, reasoning items (kept byte-exact
 * as reasoning parts: id, encrypted content, summary), function calls and usage.
 */
import type {
  ModelResponse,
  ModelStreamPart,
  ReasoningPart,
  ReasoningSource,
  ToolCall,
  Usage,
} from '@skilltree/core/provider';
import { isRetryableStatus, ModelError, malformedError, networkError, preview } from './errors.js';
import { ResponseContent } from './response-content.js';
import { toolCallIds } from './tool-call-id.js';
import { parseToolArguments } from './tool-input.js';

interface RawUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * Responses usage as skilltree `Usage`:
 *
 * - `inputTokens` = `input_tokens`, which counts every input token, cached or not;
 * - `outputTokens` = `output_tokens`, reasoning included;
 * - `cacheReadTokens` = `input_tokens_details.cached_tokens`;
 * - `cacheWriteTokens` = `input_tokens_details.cache_write_tokens` (GPT-5.6 bills writes), when reported;
 * - `reasoningTokens` = `output_tokens_details.reasoning_tokens`, when reported.
 *
 * Returns undefined when there is no usage object.
 */
export function openaiResponsesUsage(raw: RawUsage | null | undefined): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const usage: Usage = {};
  if (typeof raw.input_tokens === 'number') usage.inputTokens = raw.input_tokens;
  if (typeof raw.output_tokens === 'number') usage.outputTokens = raw.output_tokens;
  const cached = raw.input_tokens_details?.cached_tokens;
  if (typeof cached === 'number') usage.cacheReadTokens = cached;
  const written = raw.input_tokens_details?.cache_write_tokens;
  if (typeof written === 'number') usage.cacheWriteTokens = written;
  const reasoning = raw.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  return usage;
}

type Item = { type?: unknown; [key: string]: unknown };

const texts = (list: unknown, type: string): string[] =>
  Array.isArray(list)
    ? list.filter((p) => p?.type === type && typeof p.text === 'string').map((p) => p.text as string)
    : [];

/**
 * A reasoning item as a reasoning part of `model`: its summary (or, from servers that send it, its
 * reasoning text) as `text`, its id and encrypted content kept as they are.
 */
export function reasoningPart(item: Item, source: ReasoningSource): ReasoningPart {
  const summary = texts(item.summary, 'summary_text');
  const text = (summary.length > 0 ? summary : texts(item.content, 'reasoning_text')).join('\n\n');
  const part: ReasoningPart = { type: 'reasoning', ...source, text };
  const data: Record<string, unknown> = {};
  if (typeof item.encrypted_content === 'string' && item.encrypted_content)
    data.encryptedContent = item.encrypted_content;
  if (typeof item.id === 'string' && item.id) data.itemId = item.id;
  if (Object.keys(data).length > 0) part.providerData = data;
  return part;
}

/** The text of an output message: its `output_text` parts, and a refusal as the text it is. */
function messageText(item: Item): string {
  if (!Array.isArray(item.content)) return '';
  let text = '';
  for (const part of item.content as Item[]) {
    if (part?.type === 'output_text' && typeof part.text === 'string') text += part.text;
    else if (part?.type === 'refusal' && typeof part.refusal === 'string') text += part.refusal;
  }
  return text;
}

function callOf(item: Item, idOf: (id: unknown) => string): ToolCall {
  if (typeof item.name !== 'string' || item.name === '') {
    throw malformedError('openai', `a function_call without a name: ${preview(item)}`);
  }
  return { id: idOf(item.call_id), name: item.name, input: parseToolArguments(item.arguments) };
}

/** Codes of a failed response (or an `error` event) worth trying again, with the status they stand for. */
const RETRYABLE_CODES: Record<string, number> = { server_error: 500, rate_limit_exceeded: 429 };

/** The error for a response that failed (`status: 'failed'`, `response.failed`) or an `error` event. */
export function failedError(error: unknown, where: string): ModelError {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
  const message = (error as { message?: unknown })?.message;
  const text = [code, typeof message === 'string' ? message : undefined].filter(Boolean).join(': ');
  const status = code ? RETRYABLE_CODES[code] : undefined;
  return new ModelError(`openai: ${where}: ${text || preview(error)}`, {
    provider: 'openai',
    kind: 'http',
    status,
    retryable: status !== undefined && isRetryableStatus(status),
    cause: error,
  });
}

/**
 * A whole response. `content` holds the reasoning and text in the order of the output (reasoning
 * carries `model`, the adapter's model id, so it is replayed only to the same model); `text` is the
 * text joined; function calls are the tool calls.
 */
export function readResponsesResponse(response: unknown, source: ReasoningSource): ModelResponse {
  const r = response as { output?: unknown; status?: unknown; error?: unknown; usage?: unknown; model?: unknown };
  if (!response || typeof response !== 'object' || !Array.isArray(r.output)) {
    throw malformedError('openai', `expected a response with an output array, got ${preview(response)}`);
  }
  if (r.status === 'failed') throw failedError(r.error, 'the response failed');
  const read = new ResponseContent();
  const idOf = toolCallIds();
  for (const item of r.output as Item[]) {
    if (item?.type === 'reasoning') read.parts.push(reasoningPart(item, source));
    else if (item?.type === 'message') {
      const piece = messageText(item);
      if (piece) read.addText(piece);
    } else if (item?.type === 'function_call') read.toolCalls.push(callOf(item, idOf));
  }
  return read.response(openaiResponsesUsage(r.usage as RawUsage), r.model, () => true);
}

type Event = { type?: unknown; [key: string]: unknown };

/**
 * Converts the events of one streamed response into stream parts: text deltas as they come,
 * reasoning summary (or reasoning text) deltas as `reasoning-delta`, each finished reasoning item as
 * a `reasoning` part in order with the text around it, the function calls once the response is
 * complete, then `finish` with the usage. A stream that ends before `response.completed` (or
 * `response.incomplete`) is a network error; `response.failed` and `error` events are errors.
 */
export async function* readResponsesEvents(
  events: AsyncIterable<unknown>,
  source: ReasoningSource,
): AsyncGenerator<ModelStreamPart> {
  const calls: Item[] = [];
  let finished = false;
  let usage: Usage | undefined;
  let answered: string | undefined;
  // Summary parts of one reasoning item read as one text, separated as reasoningPart joins them.
  let summaryIndex = -1;
  // Messages whose text streamed as deltas; a server that sends a message only whole still gets it read.
  const streamed = new Set<unknown>();
  for await (const raw of events) {
    const event = raw as Event;
    if (!event || typeof event !== 'object') throw malformedError('openai', 'a stream event that is not an object');
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        streamed.add(event.item_id);
        if (typeof event.delta === 'string' && event.delta) yield { type: 'text-delta', text: event.delta };
        break;
      case 'response.function_call_arguments.delta':
        // Counted by the session: a call cut off mid-input is charged what it streamed.
        if (typeof event.delta === 'string' && event.delta) yield { type: 'tool-input-delta', text: event.delta };
        break;
      case 'response.output_item.added':
        if ((event.item as Item | undefined)?.type === 'reasoning') summaryIndex = -1;
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const index = typeof event.summary_index === 'number' ? event.summary_index : 0;
        if (event.type === 'response.reasoning_summary_text.delta' && index !== summaryIndex) {
          if (summaryIndex >= 0) yield { type: 'reasoning-delta', text: '\n\n' };
          summaryIndex = index;
        }
        if (typeof event.delta === 'string' && event.delta) yield { type: 'reasoning-delta', text: event.delta };
        break;
      }
      case 'response.output_item.done': {
        const item = event.item as Item | undefined;
        if (item?.type === 'reasoning') yield { type: 'reasoning', reasoning: reasoningPart(item, source) };
        else if (item?.type === 'function_call') calls.push(item);
        else if (item?.type === 'message' && !streamed.has(item.id)) {
          const text = messageText(item);
          if (text) yield { type: 'text-delta', text };
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = event.response as { usage?: unknown; model?: unknown } | undefined;
        usage = openaiResponsesUsage(response?.usage as RawUsage);
        if (typeof response?.model === 'string' && response.model) answered = response.model;
        finished = true;
        break;
      }
      case 'response.failed':
        throw failedError((event.response as { error?: unknown } | undefined)?.error, 'the response failed');
      case 'error':
        throw failedError(event, 'error event in the stream');
    }
  }
  if (!finished) {
    throw networkError('openai', new Error('the stream ended before response.completed (connection dropped?)'));
  }
  const idOf = toolCallIds();
  for (const item of calls) yield { type: 'tool-call', ...callOf(item, idOf) };
  yield answered ? { type: 'finish', usage, model: answered } : { type: 'finish', usage };
}
