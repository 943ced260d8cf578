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

import type { Model, ModelCallOptions, ModelRequest, ModelResponse, ModelStreamPart } from '@skilltree/core/provider';
import { anthropicAppendOnlyBody } from './anthropic-append-only.js';
import { PROVIDER } from './anthropic-blocks.js';
import { bindsPrefix, defaultMaxTokens } from './anthropic-models.js';
import { anthropicDeltaBody, anthropicRequestBody, type ToolChanges, usesToolChanges } from './anthropic-request.js';
import { readEvents, readResponse } from './anthropic-response.js';
import { type AnthropicEffort, type AnthropicThinking, resolveThinking } from './anthropic-thinking.js';
import { type DeadlineSettings, deadlineCall, deadlineStream, resolveTimeout, sdkTimeout } from './deadline.js';
import type { HttpModelOptions } from './http-options.js';
import { env, reasoningSource } from './reasoning-source.js';
import { retryPolicy, streamWithRetry, withRetry } from './retry.js';
import { fromSdkError, type ProviderLabels } from './sdk-error.js';
import { nestedSpans } from './sdk-spans.js';

export { anthropicAppendOnlyBody } from './anthropic-append-only.js';
export { ANTHROPIC_FILE_LIMITS } from './anthropic-blocks.js';
export {
  bindsPrefix,
  CLAUDE_MODELS,
  type ClaudeModelInfo,
  type ClaudeModelRow,
  type ClaudeThinkingMode,
  claudeModel,
  defaultMaxTokens,
  supportsToolChanges,
  TOOL_CHANGE_MODELS,
} from './anthropic-models.js';
export {
  type AnthropicBodyOptions,
  type AnthropicDeltaOptions,
  anthropicDeltaBody,
  anthropicRequestBody,
  INLINE_TOOLS_BETA,
  TOOL_CHANGES_BETA,
  type ToolChanges,
  usesToolChanges,
} from './anthropic-request.js';
export { anthropicUsage } from './anthropic-response.js';
export type { AnthropicEffort, AnthropicThinking } from './anthropic-thinking.js';
export { ModelError, type ModelErrorKind } from './errors.js';
export type { HttpModelOptions } from './http-options.js';
export type { ModelPricing } from './model-pricing.js';
export type { RetryOptions } from './retry.js';

/** Options of {@link anthropic}. */
export interface AnthropicOptions extends HttpModelOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** The API key. Default: the `ANTHROPIC_API_KEY` environment variable (read by the SDK at the first call). */
  apiKey?: string;
  /** The API's base URL. Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  baseURL?: string;
  /**
   * `max_tokens` of every request; thinking counts toward it. Default: 16 000 on the models that think
   * on every call (`adaptive-only` in {@link CLAUDE_MODELS}), else 4 096.
   */
  maxTokens?: number;
  /**
   * How the model thinks, as the API takes it: `{ type: 'adaptive' }`, `{ type: 'enabled',
   * budget_tokens }`, `{ type: 'between_tools' }` or `{ type: 'disabled' }`. Default: adaptive on the
   * models that think on every call (`adaptive-only` in {@link CLAUDE_MODELS}), else none sent (the
   * API's default). What the model refuses fails when the adapter is created (see docs/models.md).
   */
  thinking?: AnthropicThinking;
  /** `output_config.effort`: `'low'` … `'max'`, on models that take it. Default: the model's own. */
  effort?: AnthropicEffort;
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

/** Anthropic's own endpoint (the SDK's default). */
const ANTHROPIC_URL = 'https://api.anthropic.com';

const LABELS: ProviderLabels = { provider: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', factory: 'anthropic()' };

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
  // What the model refuses fails here, naming the fix, instead of at the first request.
  resolveThinking({ ...options, maxTokens: options.maxTokens ?? defaultMaxTokens(options.model) });
  const policy = retryPolicy(options);
  const timeoutMs = resolveTimeout(options.timeoutMs, 'anthropic()');
  const timeout = sdkTimeout(timeoutMs);
  const deadline: DeadlineSettings = { timeoutMs, provider: LABELS.provider, model: options.model };
  let client = options.client;
  // Who this adapter is, as its reasoning parts name it: its endpoint too, when it is not Anthropic's.
  const source = reasoningSource(
    PROVIDER,
    options.model,
    options.client?.baseURL ?? options.baseURL ?? env('ANTHROPIC_BASE_URL'),
    ANTHROPIC_URL,
  );
  const bodyOptions = { ...options, source };
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
  /** The body of `req`: append-only when the session builds it so, else as deltas or classic; `beta` says which API. */
  const bodyOf = (req: ModelRequest): { beta: boolean; body: Record<string, unknown> } => {
    const appended = anthropicAppendOnlyBody(req, bodyOptions);
    if (appended) return { beta: true, body: appended as unknown as Record<string, unknown> };
    const deltas = usesToolChanges(req, options.model, options.toolChanges)
      ? anthropicDeltaBody(req, bodyOptions)
      : null;
    if (deltas) return { beta: true, body: deltas as unknown as Record<string, unknown> };
    return { beta: false, body: anthropicRequestBody(req, bodyOptions) as unknown as Record<string, unknown> };
  };
  const create = (request: { beta: boolean; body: Record<string, unknown> }, signal: AbortSignal, stream: boolean) => {
    const body = stream ? { ...request.body, stream: true } : request.body;
    return request.beta
      ? getClient().beta.messages.create(body as never, requestOptions(signal))
      : getClient().messages.create(body as never, requestOptions(signal));
  };

  return {
    name: `anthropic:${options.model}`,
    appendOnly: bindsPrefix(options.model),
    // Every Claude model reads images and PDFs; the API takes no audio (it is described instead).
    accepts: { images: true, pdf: true, audio: false },
    reasoningSource: source,
    // The `max_tokens` every request carries: what an owner's budget reserves for a call's output.
    maxOutputTokens: options.maxTokens ?? defaultMaxTokens(options.model),
    async generate(req: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
      const request = bodyOf(req);
      await spans?.ready();
      const response = await withRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineCall(
          deadline,
          opts.signal,
          (attempt): Promise<unknown> =>
            traced(opts.traceContext, () => create(request, attempt.signal, false) as Promise<unknown>),
        ),
      );
      return readResponse(response, source);
    },
    stream(req: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
      const request = bodyOf(req);
      return streamWithRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineStream(deadline, opts.signal, async function* (attempt) {
          await spans?.ready();
          const pending = traced(opts.traceContext, () => create(request, attempt.signal, true));
          const events = (await attempt.race(
            pending as Promise<unknown>,
          )) as AsyncIterable<Anthropic.RawMessageStreamEvent>;
          yield* readEvents(attempt.guard(events), source);
        }),
      );
    },
  };
}
