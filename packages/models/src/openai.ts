/**
 * `@skilltree/models/openai`: Chat Completions through the official `openai` SDK, so any
 * OpenAI-compatible server works (OpenAI, Ollama, vLLM, llama.cpp, LM Studio, …).
 *
 * @packageDocumentation
 */
import {
  type Message,
  type Model,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  placeContext,
  type ToolCall,
  type Usage,
} from '@skilltree/core';
import OpenAI from 'openai';
import { type DeadlineSettings, deadlineCall, deadlineStream, resolveTimeout, sdkTimeout } from './deadline.js';
import { malformedError, networkError } from './errors.js';
import type { HttpModelOptions } from './http-options.js';
import { retryPolicy, streamWithRetry, withRetry } from './retry.js';
import { fromSdkError, missingKeyError, type ProviderLabels } from './sdk-error.js';
import { toolCallIds } from './tool-call-id.js';
import { parseToolArguments, toolInputJson } from './tool-input.js';

export { ModelError, type ModelErrorKind } from './errors.js';
export type { HttpModelOptions } from './http-options.js';
export type { RetryOptions } from './retry.js';

/** Options of {@link openai}. */
export interface OpenAIOptions extends HttpModelOptions {
  /** The model id, e.g. `gpt-4.1-mini`, or a local model such as `qwen3:8b` (Ollama). */
  model: string;
  /**
   * The API key. Default: the `OPENAI_API_KEY` environment variable. Local servers that do not check
   * keys still need a value here (any string, e.g. `'ollama'`).
   */
  apiKey?: string;
  /**
   * The server's base URL, up to and including `/v1`. Default: `OPENAI_BASE_URL`, else
   * `https://api.openai.com/v1`. Ollama: `http://localhost:11434/v1`; vLLM: `http://localhost:8000/v1`;
   * llama.cpp: `http://localhost:8080/v1`.
   */
  baseURL?: string;
  /** Sent as `max_tokens` when set. Default: not sent (the server's default). */
  maxTokens?: number;
  /** Sampling temperature. Default: the server's. */
  temperature?: number;
  /** Ask for token usage in streams (`stream_options.include_usage`). Default true. */
  streamUsage?: boolean;
  /** `OpenAI-Organization` header. Default: the SDK's (`OPENAI_ORG_ID`). */
  organization?: string;
  /** A client you configured yourself; `apiKey`, `baseURL`, `headers`, `organization` and `fetch` are then ignored. */
  client?: OpenAI;
}

const LABELS: ProviderLabels = { provider: 'openai', apiKeyEnv: 'OPENAI_API_KEY', factory: 'openai()' };

/** The Chat Completions body (without `stream`) for a request, exactly as the adapter sends it. */
export function openaiRequestBody(
  req: ModelRequest,
  options: Pick<OpenAIOptions, 'model' | 'maxTokens' | 'temperature' | 'extraBody'>,
): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const placed = placeContext(req);
  const messages: OpenAI.ChatCompletionMessageParam[] = [];
  if (placed.system) messages.push({ role: 'system', content: placed.system });
  messages.push(...placed.messages.map(toMessage));
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = { model: options.model, messages };
  if (req.tools.length > 0) {
    body.tools = req.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
  }
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  return { ...body, ...(options.extraBody ?? {}) } as OpenAI.ChatCompletionCreateParamsNonStreaming;
}

function toMessage(message: Message): OpenAI.ChatCompletionMessageParam {
  if (message.role === 'user') return { role: 'user', content: message.content };
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return { role: 'assistant', content: message.content };
  return {
    role: 'assistant',
    content: message.content || null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: toolInputJson(call.input) },
    })),
  };
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  /** DeepSeek's name for the cached part of `prompt_tokens`. */
  prompt_cache_hit_tokens?: number | null;
}

/**
 * Chat Completions usage as skilltree `Usage`:
 *
 * - `inputTokens` = `prompt_tokens`, which already counts every input token, cached or not;
 * - `outputTokens` = `completion_tokens`;
 * - `cacheReadTokens` = `prompt_tokens_details.cached_tokens` (DeepSeek: `prompt_cache_hit_tokens`);
 * - `cacheWriteTokens` is never set: OpenAI caches prefixes automatically and reports no writes.
 *
 * Returns undefined when the response carries no usage object.
 */
export function openaiUsage(raw: RawUsage | null | undefined): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const usage: Usage = {};
  if (typeof raw.prompt_tokens === 'number') usage.inputTokens = raw.prompt_tokens;
  if (typeof raw.completion_tokens === 'number') usage.outputTokens = raw.completion_tokens;
  const cached = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens;
  if (typeof cached === 'number') usage.cacheReadTokens = cached;
  return usage;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function readResponse(response: unknown): ModelResponse {
  const choices = (response as { choices?: unknown } | null)?.choices;
  const message = Array.isArray(choices) ? (choices[0] as { message?: unknown } | undefined)?.message : undefined;
  if (!message || typeof message !== 'object') {
    throw malformedError('openai', `expected { choices: [{ message }] }, got ${preview(response)}`);
  }
  const m = message as { content?: unknown; tool_calls?: unknown };
  const text = typeof m.content === 'string' ? m.content : '';
  const toolCalls: ToolCall[] = [];
  const rawCalls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  const idOf = toolCallIds();
  for (const raw of rawCalls as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
    const name = raw?.function?.name;
    if (typeof name !== 'string' || name === '') {
      throw malformedError('openai', `a tool call without a function name: ${preview(raw)}`);
    }
    toolCalls.push({ id: idOf(raw.id), name, input: parseToolArguments(raw.function?.arguments) });
  }
  const usage = openaiUsage((response as { usage?: RawUsage }).usage);
  const out: ModelResponse = usage ? { text, toolCalls, usage } : { text, toolCalls };
  const model = (response as { model?: unknown }).model;
  if (typeof model === 'string' && model) out.model = model;
  return out;
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
  rawInput?: unknown;
}

/** Converts the chunks of one streamed completion into stream parts. */
async function* readChunks(chunks: AsyncIterable<OpenAI.ChatCompletionChunk>): AsyncGenerator<ModelStreamPart> {
  const calls: PendingCall[] = [];
  const slots = new Map<number, number>();
  let usage: Usage | undefined;
  let finished = false;
  let model: string | undefined;
  for await (const chunk of chunks) {
    if (!chunk || typeof chunk !== 'object') throw malformedError('openai', `a stream chunk that is not an object`);
    if (chunk.usage) usage = openaiUsage(chunk.usage);
    if (typeof chunk.model === 'string' && chunk.model) model = chunk.model;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content) yield { type: 'text-delta', text: delta.content };
    for (const d of delta.tool_calls ?? []) {
      // Fragments name their call by `index`. Some servers send every call whole with `index: 0`, or
      // with no index at all: a new id where a different call already sits starts a new call.
      const key = typeof d.index === 'number' ? d.index : -1;
      let slot = slots.get(key);
      const current = slot === undefined ? undefined : calls[slot];
      if (slot === undefined || (d.id && current?.id && current.id !== d.id)) {
        slot = calls.length;
        calls.push({ name: '', args: '' });
        slots.set(key, slot);
      }
      const call = calls[slot];
      if (d.id) call.id = d.id;
      if (d.function?.name) call.name += d.function.name;
      const args: unknown = d.function?.arguments;
      if (typeof args === 'string') call.args += args;
      else if (args != null) call.rawInput = args;
    }
    if (choice.finish_reason) finished = true;
  }
  if (!finished) {
    throw networkError('openai', new Error('the stream ended before a finish_reason (connection dropped?)'));
  }
  const idOf = toolCallIds();
  for (const [i, call] of calls.entries()) {
    if (!call.name) throw malformedError('openai', `streamed tool call ${i} has no function name`);
    const input = call.rawInput !== undefined ? call.rawInput : parseToolArguments(call.args);
    yield { type: 'tool-call', id: idOf(call.id), name: call.name, input };
  }
  yield model ? { type: 'finish', usage, model } : { type: 'finish', usage };
}

/**
 * A skilltree {@link Model} for the Chat Completions API of OpenAI or any OpenAI-compatible server.
 *
 * ```ts
 * import { openai } from '@skilltree/models/openai';
 * const model = openai({ model: 'gpt-4.1-mini' });                                   // OPENAI_API_KEY
 * const local = openai({ model: 'qwen3:8b', baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 * ```
 *
 * Reads `OPENAI_API_KEY` and `OPENAI_BASE_URL` when `apiKey` / `baseURL` are not given.
 * Retries 429, 5xx and network errors with exponential backoff and jitter, honouring `retry-after`.
 * `timeoutMs` also bounds each wait between stream chunks.
 *
 * Usage: `inputTokens` is every input token the request carried (`prompt_tokens`, cached ones
 * included), `cacheReadTokens` the cached part; see {@link openaiUsage}.
 *
 * Tool calls without an id (some compatible servers leave it out) get a random `call_…` id, unique
 * across steps, adapter instances and processes. Requests are serialised deterministically (fixed
 * key order, no ids or timestamps of the adapter's own) so that the automatic prefix cache hits.
 */
export function openai(options: OpenAIOptions): Model {
  if (!options || typeof options.model !== 'string' || options.model === '') {
    throw new TypeError('openai(): pass { model }, e.g. openai({ model: "gpt-4.1-mini" }).');
  }
  const policy = retryPolicy(options);
  const timeoutMs = resolveTimeout(options.timeoutMs, 'openai()');
  const timeout = sdkTimeout(timeoutMs);
  const deadline: DeadlineSettings = { timeoutMs, provider: LABELS.provider, model: options.model };
  let client = options.client;
  const getClient = (): OpenAI => {
    if (client) return client;
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
    if (!apiKey) throw missingKeyError(LABELS);
    client = new OpenAI({
      apiKey,
      baseURL: options.baseURL,
      organization: options.organization,
      maxRetries: 0,
      timeout,
      defaultHeaders: options.headers,
      fetch: options.fetch,
    });
    return client;
  };
  const toError = (error: unknown) => fromSdkError(error, LABELS);
  const requestOptions = (signal?: AbortSignal) => ({ signal, maxRetries: 0, timeout });

  return {
    name: `openai:${options.model}`,
    async generate(req: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
      const body = openaiRequestBody(req, options);
      const response = await withRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineCall(deadline, opts.signal, (attempt) =>
          getClient().chat.completions.create(body, requestOptions(attempt.signal)),
        ),
      );
      return readResponse(response);
    },
    stream(req: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
      const body: OpenAI.ChatCompletionCreateParamsStreaming = { ...openaiRequestBody(req, options), stream: true };
      if (options.streamUsage !== false) body.stream_options = { include_usage: true };
      return streamWithRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineStream(deadline, opts.signal, async function* (attempt) {
          const chunks = await attempt.race(getClient().chat.completions.create(body, requestOptions(attempt.signal)));
          yield* readChunks(attempt.guard(chunks));
        }),
      );
    },
  };
}
