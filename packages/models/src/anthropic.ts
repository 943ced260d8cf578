/**
 * `@skilltree/models/anthropic`: the Anthropic Messages API through the official `@anthropic-ai/sdk`.
 *
 * @packageDocumentation
 */
import Anthropic from '@anthropic-ai/sdk';

/** The `tracerProvider` type of the SDK's `openTelemetry` client option. */
type TracerProvider = NonNullable<
  Exclude<
    NonNullable<NonNullable<ConstructorParameters<typeof Anthropic>[0]>['openTelemetry']>,
    false
  >['tracerProvider']
>;

import type {
  Model,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolCall,
  Usage,
} from '@skilltree/core';
import { anthropicDeltaBody, anthropicRequestBody, type ToolChanges, usesToolChanges } from './anthropic-request.js';
import { type DeadlineSettings, deadlineCall, deadlineStream, resolveTimeout, sdkTimeout } from './deadline.js';
import { malformedError, networkError } from './errors.js';
import type { HttpModelOptions } from './http-options.js';
import { retryPolicy, streamWithRetry, withRetry } from './retry.js';
import { fromSdkError, type ProviderLabels } from './sdk-error.js';
import { nestedSpans } from './sdk-spans.js';
import { toolCallIds } from './tool-call-id.js';
import { parseToolArguments } from './tool-input.js';

export {
  type AnthropicBodyOptions,
  type AnthropicDeltaOptions,
  anthropicDeltaBody,
  anthropicRequestBody,
  INLINE_TOOLS_BETA,
  supportsToolChanges,
  TOOL_CHANGE_MODELS,
  TOOL_CHANGES_BETA,
  type ToolChanges,
  usesToolChanges,
} from './anthropic-request.js';
export { ModelError, type ModelErrorKind } from './errors.js';
export type { HttpModelOptions } from './http-options.js';
export type { RetryOptions } from './retry.js';

/** Options of {@link anthropic}. */
export interface AnthropicOptions extends HttpModelOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** The API key. Default: the `ANTHROPIC_API_KEY` environment variable (read by the SDK at the first call). */
  apiKey?: string;
  /** The API's base URL. Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  baseURL?: string;
  /** `max_tokens` of every request. Default 4096. */
  maxTokens?: number;
  /**
   * Put `cache_control` breakpoints on the stable prefix (last tool, system prompt, the newest
   * blocks before the context) so that Anthropic's prompt cache serves it on the next step; see
   * {@link anthropicRequestBody}. `false` sends no breakpoints. Default true.
   */
  cache?: boolean;
  /**
   * Send the skill lifecycle as deltas: a load is a `role: "system"` message with the skill's text and
   * a `tool_addition`, an unload a `tool_removal`, so the cached prefix never changes because of the
   * lifecycle (see {@link anthropicDeltaBody}). `'auto'` (default): when the model is one of
   * {@link TOOL_CHANGE_MODELS} and the session's window is stable (`windowMode: 'stable'`); `true`:
   * whenever the request has skills; `false`: never (the classic layout). The beta header goes only
   * with requests that carry a tool change.
   */
  toolChanges?: ToolChanges;
  /** With deltas, define added tools by value (beta `inline-tools-2026-09-15`) instead of deferred `tools` entries. Default false. */
  inlineTools?: boolean;
  /**
   * The Anthropic SDK's own OpenTelemetry span per API call (`anthropic.messages.create`: HTTP
   * status, `anthropic.request.id`, resends). Default false: skilltree's `chat {model}` span already
   * carries the model, the usage and the cost, and the SDK's span, a second `chat` span with the
   * same tokens, would count them twice (and, without a context manager, start a trace of its own).
   * `true`: the SDK's spans, each a child of skilltree's `chat` span of the call, in the turn's
   * trace. The SDK's `ANTHROPIC_OPEN_TELEMETRY*` environment variables do not apply to the client
   * the adapter makes. A `client` you pass keeps its own `openTelemetry` option.
   */
  sdkSpans?: boolean;
  /**
   * A client you configured yourself; `apiKey`, `baseURL`, `headers`, `fetch` and `sdkSpans` are
   * then ignored. Its `openTelemetry` option is yours: its spans nest under skilltree's when a
   * context manager is registered (the call runs in the `chat` span's context); pass
   * `openTelemetry: false` to have none.
   */
  client?: Anthropic;
}

const LABELS: ProviderLabels = { provider: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', factory: 'anthropic()' };

type RawUsage = Partial<
  Pick<Anthropic.Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>
>;

/**
 * Anthropic usage as skilltree `Usage`. Anthropic's `input_tokens` leaves out the cached part of the
 * prompt, so `inputTokens` adds it back: every input token the request carried, as with the other
 * adapters.
 *
 * - `inputTokens` = `input_tokens` + `cache_read_input_tokens` + `cache_creation_input_tokens`;
 * - `outputTokens` = `output_tokens`;
 * - `cacheReadTokens` = `cache_read_input_tokens` (billed at about a tenth of the input price);
 * - `cacheWriteTokens` = `cache_creation_input_tokens` (billed at about 1.25× for the 5-minute cache).
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
  return usage;
}

function mergeUsage(into: RawUsage, from: unknown): void {
  if (!from || typeof from !== 'object') return;
  for (const [key, value] of Object.entries(from)) {
    if (typeof value === 'number') (into as Record<string, number>)[key] = value;
  }
}

function readResponse(response: unknown): ModelResponse {
  const content = (response as { content?: unknown } | null)?.content;
  if (!response || typeof response !== 'object' || !Array.isArray(content)) {
    throw malformedError('anthropic', `expected a message with a content array, got ${preview(response)}`);
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  const idOf = toolCallIds('toolu');
  for (const block of content as Array<Record<string, unknown>>) {
    if (block?.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block?.type === 'tool_use') {
      if (typeof block.name !== 'string' || block.name === '') {
        throw malformedError('anthropic', `a tool_use block without a name: ${preview(block)}`);
      }
      toolCalls.push({ id: idOf(block.id), name: block.name, input: parseToolArguments(block.input) });
    }
  }
  const usage = anthropicUsage((response as { usage?: RawUsage }).usage);
  const out: ModelResponse = usage ? { text, toolCalls, usage } : { text, toolCalls };
  const model = (response as { model?: unknown }).model;
  if (typeof model === 'string' && model) out.model = model;
  return out;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Converts the raw SSE events of one response into stream parts. */
async function* readEvents(events: AsyncIterable<Anthropic.RawMessageStreamEvent>): AsyncGenerator<ModelStreamPart> {
  const usage: RawUsage = {};
  const tools = new Map<number, { id: unknown; name: unknown; json: string; input: unknown }>();
  const idOf = toolCallIds('toolu');
  let stopped = false;
  let model: string | undefined;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        mergeUsage(usage, event.message?.usage);
        if (typeof event.message?.model === 'string' && event.message.model) model = event.message.model;
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text' && block.text) yield { type: 'text-delta', text: block.text };
        else if (block.type === 'tool_use') {
          tools.set(event.index, { id: block.id, name: block.name, json: '', input: block.input });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') {
          if (delta.text) yield { type: 'text-delta', text: delta.text };
        } else if (delta.type === 'input_json_delta') {
          const tool = tools.get(event.index);
          if (!tool)
            throw malformedError('anthropic', `input_json_delta for block ${event.index}, which is not a tool_use`);
          tool.json += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const tool = tools.get(event.index);
        if (tool) {
          tools.delete(event.index);
          if (typeof tool.name !== 'string' || tool.name === '') {
            throw malformedError('anthropic', `a streamed tool_use block without a name (block ${event.index})`);
          }
          const input = tool.json ? parseToolArguments(tool.json) : parseToolArguments(tool.input);
          yield { type: 'tool-call', id: idOf(tool.id), name: tool.name, input };
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
  yield model
    ? { type: 'finish', usage: anthropicUsage(usage), model }
    : { type: 'finish', usage: anthropicUsage(usage) };
}

/**
 * A skilltree {@link Model} for the Anthropic Messages API.
 *
 * ```ts
 * import { anthropic } from '@skilltree/models/anthropic';
 * const session = createSession(<ShopAgent />, { model: anthropic({ model: 'claude-sonnet-4-5' }) });
 * ```
 *
 * Reads `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` when `apiKey` / `baseURL` are not given.
 * Retries 429, 5xx and network errors with exponential backoff and jitter, honouring `retry-after`.
 * `timeoutMs` also bounds each wait between stream events.
 *
 * Usage: `inputTokens` is every input token the request carried. Anthropic's own `input_tokens`
 * leaves the cached part out, so the adapter adds `cache_read_input_tokens` and
 * `cache_creation_input_tokens` back; `cacheReadTokens` and `cacheWriteTokens` are those two. See
 * {@link anthropicUsage}.
 *
 * Caching: with `cache` on (the default) the request carries up to four `cache_control`
 * breakpoints, placed so that each step of a tool loop reads the previous step's prefix from the
 * cache; see {@link anthropicRequestBody}.
 */
export function anthropic(options: AnthropicOptions): Model {
  if (!options || typeof options.model !== 'string' || options.model === '') {
    throw new TypeError('anthropic(): pass { model }, e.g. anthropic({ model: "claude-sonnet-4-5" }).');
  }
  const policy = retryPolicy(options);
  const timeoutMs = resolveTimeout(options.timeoutMs, 'anthropic()');
  const timeout = sdkTimeout(timeoutMs);
  const deadline: DeadlineSettings = { timeoutMs, provider: LABELS.provider, model: options.model };
  let client = options.client;
  // The SDK's own spans: off, or nested under skilltree's span of the call (see sdkSpans).
  const spans = options.sdkSpans === true && !options.client ? nestedSpans() : null;
  const getClient = (): Anthropic => {
    client ??= new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: 0,
      timeout,
      defaultHeaders: options.headers,
      fetch: options.fetch,
      openTelemetry: spans ? { tracerProvider: spans.provider as unknown as TracerProvider } : false,
    });
    return client;
  };
  /** Runs `create`, which starts the SDK's span of the call (when on) under `traceContext`. */
  const traced = <T>(traceContext: unknown, create: () => T): T =>
    spans ? spans.within(traceContext, create) : create();
  const toError = (error: unknown) => fromSdkError(error, LABELS);
  const requestOptions = (signal?: AbortSignal) => ({ signal, maxRetries: 0, timeout });

  return {
    name: `anthropic:${options.model}`,
    async generate(req: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
      const deltas = usesToolChanges(req, options.model, options.toolChanges) ? anthropicDeltaBody(req, options) : null;
      const body = deltas ? null : anthropicRequestBody(req, options);
      await spans?.ready();
      const response = await withRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineCall(
          deadline,
          opts.signal,
          (attempt): Promise<unknown> =>
            traced(opts.traceContext, () =>
              deltas
                ? getClient().beta.messages.create(deltas, requestOptions(attempt.signal))
                : getClient().messages.create(
                    body as Anthropic.MessageCreateParamsNonStreaming,
                    requestOptions(attempt.signal),
                  ),
            ),
        ),
      );
      return readResponse(response);
    },
    stream(req: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
      const deltas = usesToolChanges(req, options.model, options.toolChanges) ? anthropicDeltaBody(req, options) : null;
      const body = deltas ? null : anthropicRequestBody(req, options);
      return streamWithRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineStream(deadline, opts.signal, async function* (attempt) {
          await spans?.ready();
          const request = traced(opts.traceContext, () =>
            deltas
              ? getClient().beta.messages.create({ ...deltas, stream: true }, requestOptions(attempt.signal))
              : getClient().messages.create(
                  { ...(body as Anthropic.MessageCreateParamsNonStreaming), stream: true },
                  requestOptions(attempt.signal),
                ),
          );
          const events = (await attempt.race(
            request as Promise<unknown>,
          )) as AsyncIterable<Anthropic.RawMessageStreamEvent>;
          yield* readEvents(attempt.guard(events));
        }),
      );
    },
  };
}
