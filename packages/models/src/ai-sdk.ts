/**
 * `@skilltree/models/ai-sdk`: any Vercel AI SDK language model (specification v2, v3 or v4) as a
 * skilltree model. skilltree owns the loop, the tool list and the `Unknown tool` refusal, so the
 * adapter calls the model's `doGenerate` / `doStream` directly, one step at a time.
 *
 * The dependency on `@ai-sdk/provider` is type-only: the version is detected at runtime.
 *
 * @packageDocumentation
 */
import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import {
  type AssistantPart,
  type Model,
  type ModelAccepts,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  placeContext,
  type ToolCall,
  type Usage,
} from '@skilltree/core/provider';
import { type AiSdkTarget, appendMessage, mergeMetadata, metadataKey, reasoningFromSdk } from './ai-sdk-parts.js';
import { supportsToolChanges, type ToolChanges } from './anthropic-request.js';
import { type Attempt, type DeadlineSettings, deadlineCall, deadlineStream, resolveTimeout } from './deadline.js';
import {
  headerReader,
  httpError,
  isNetworkError,
  ModelError,
  malformedError,
  messageOf,
  networkError,
  parseRetryAfter,
} from './errors.js';
import { type RetryOptions, retryPolicy, streamWithRetry, withRetry } from './retry.js';
import { toolCallIds } from './tool-call-id.js';
import { parseToolArguments } from './tool-input.js';

export { ModelError, type ModelErrorKind } from './errors.js';
export type { RetryOptions } from './retry.js';

/**
 * A language model of any supported specification version. v4 models are accepted at runtime and
 * called like v3 ones (`@ai-sdk/provider` 3.x has no v4 types).
 */
export type AiSdkLanguageModel =
  | LanguageModelV2
  | LanguageModelV3
  | { readonly specificationVersion: 'v4'; readonly provider: string; readonly modelId: string };

/** Options of {@link aiSdk}. */
export interface AiSdkOptions extends RetryOptions {
  /** `maxOutputTokens` of every call. Default: the provider's. */
  maxOutputTokens?: number;
  /** Sampling temperature. Default: the provider's. */
  temperature?: number;
  /** Provider-specific options, passed through as `providerOptions` (e.g. `{ anthropic: { … } }`). */
  providerOptions?: SharedV3ProviderOptions;
  /** Extra HTTP headers for providers that send them. */
  headers?: Record<string, string | undefined>;
  /**
   * Milliseconds one attempt may wait: for `doGenerate` to return; for `doStream` to return and then
   * for each next stream part, so a stream that goes silent fails instead of hanging. The call's
   * `abortSignal` is then aborted (which aborts the provider's HTTP request) and the attempt fails
   * as a retryable network error (not retried once text has been streamed). `Infinity` switches it
   * off. Default 600 000 (ten minutes).
   */
  timeoutMs?: number;
  /**
   * Send the skill lifecycle as deltas through `@ai-sdk/anthropic`'s `toolChanges` (3.0.102 and
   * later): a load is a mid-conversation system message with the skill's text and a `tool_addition`,
   * an unload a `tool_removal`, and skill tools are declared with `deferLoading: true`. `'auto'`
   * (default): for an Anthropic model of `TOOL_CHANGE_MODELS` with the stable window; `true`: for any
   * Anthropic model; `false`: never. Other providers always get the classic layout.
   */
  toolChanges?: ToolChanges;
  /**
   * The kinds of file the model reads, passed on as `Model.accepts` (the specification does not
   * say): `{ images: false, pdf: false }` for a model without vision, whose files the session then
   * sends as lines describing them; `{ audio: true }` for one that takes audio. Default: images and
   * PDFs, no audio.
   */
  accepts?: ModelAccepts;
}

const SUPPORTED = new Set(['v2', 'v3', 'v4']);
const PROVIDER = 'ai-sdk';

/**
 * Whether a request to `model` goes out as deltas (see {@link AiSdkOptions.toolChanges}): only for
 * Anthropic's provider from specification v3 on, whose `toolChanges` system-message option carries them.
 */
export function aiSdkUsesToolChanges(
  req: ModelRequest,
  model: { provider: string; modelId: string; specificationVersion?: string },
  setting: ToolChanges = 'auto',
): boolean {
  const life = req.lifecycle;
  if (!life || setting === false || !String(model.provider).startsWith('anthropic')) return false;
  // @ai-sdk/anthropic 2.x (specification v2) has no toolChanges option.
  if (model.specificationVersion === 'v2') return false;
  return setting === true || (life.windowMode === 'stable' && supportsToolChanges(String(model.modelId)));
}

type ToolChange = { type: 'tool_addition'; toolName: string } | { type: 'tool_removal'; toolName: string };

/**
 * The prompt and call options sent to `doGenerate` / `doStream` (without `abortSignal`). With
 * `deltas`, the lifecycle's layout: its messages, each delta a system message right after the run of
 * user and tool messages it follows, carrying `providerOptions.anthropic.toolChanges`; the skills'
 * tools declared with `deferLoading: true` after the prefix tools. Files go as `file` parts (and as
 * tool-result content); reasoning goes back only to `target`'s provider and model, with the provider
 * options that provider reads (see `ai-sdk-parts.ts`).
 */
export function aiSdkCallOptions(
  req: ModelRequest,
  options: AiSdkOptions = {},
  deltas = false,
  target: AiSdkTarget = { provider: '', modelId: '', version: 'v3' },
): LanguageModelV3CallOptions {
  const life = deltas ? req.lifecycle : undefined;
  const placed = placeContext(life ? { ...req, messages: life.messages, context: life.context } : req);
  const prompt: LanguageModelV3Message[] = [];
  if (placed.system) prompt.push({ role: 'system', content: placed.system });
  const deferred = new Map<string, ModelRequest['tools'][number]>();
  const systemAfter = new Map<number, LanguageModelV3Message>();
  for (const delta of life?.deltas ?? []) {
    const toolChanges: ToolChange[] = [];
    for (const entry of delta.entries) {
      const removed = entry.type === 'unloaded' ? entry.tools : entry.type === 'tools' ? entry.removed : [];
      const added = entry.type === 'loaded' ? entry.tools : entry.type === 'tools' ? entry.added : [];
      for (const toolName of removed) toolChanges.push({ type: 'tool_removal', toolName });
      for (const tool of added) {
        deferred.set(tool.name, tool);
        toolChanges.push({ type: 'tool_addition', toolName: tool.name });
      }
    }
    systemAfter.set(delta.after, {
      role: 'system',
      content: delta.text,
      ...(toolChanges.length > 0 ? { providerOptions: { anthropic: { toolChanges } } } : {}),
    });
  }
  for (const [i, message] of placed.messages.entries()) {
    appendMessage(prompt, message, target);
    const system = systemAfter.get(i);
    if (system) prompt.push(system);
  }
  const call: LanguageModelV3CallOptions = { prompt };
  const tools = life ? life.tools : req.tools;
  if (tools.length > 0) {
    call.tools = tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as never,
    }));
    for (const tool of deferred.values()) {
      call.tools.push({
        type: 'function',
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as never,
        providerOptions: { anthropic: { deferLoading: true } },
      });
    }
    call.toolChoice = { type: 'auto' };
  }
  if (options.maxOutputTokens !== undefined) call.maxOutputTokens = options.maxOutputTokens;
  if (options.temperature !== undefined) call.temperature = options.temperature;
  if (options.providerOptions) call.providerOptions = options.providerOptions;
  if (options.headers) call.headers = options.headers;
  return call;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * AI SDK usage as skilltree `Usage`, `inputTokens` meaning every input token the call carried (as
 * with the other adapters).
 *
 * - v3/v4 (nested): `inputTokens.total` (else `noCache + cacheRead + cacheWrite`), `outputTokens.total`,
 *   `inputTokens.cacheRead` → `cacheReadTokens`, `inputTokens.cacheWrite` → `cacheWriteTokens`.
 * - `outputTokens.reasoning` (v3/v4) or `reasoningTokens` (v2) → `reasoningTokens`, when not 0.
 * - v2 (flat): `inputTokens`, `outputTokens`, `cachedInputTokens` → `cacheReadTokens`. v2 has no
 *   cache-write field; the Anthropic provider reports writes in `providerMetadata.anthropic
 *   .cacheCreationInputTokens` and leaves cached tokens out of its `inputTokens`, so for it both are
 *   added back (what its v3 version does itself).
 *
 * @param raw the `usage` of a `doGenerate` result or a `finish` stream part
 * @param providerMetadata the `providerMetadata` next to it (read for v2 Anthropic only)
 */
export function aiSdkUsage(raw: unknown, providerMetadata?: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const usage: Usage = {};
  const input = field(raw, 'inputTokens');
  const output = field(raw, 'outputTokens');
  if (input && typeof input === 'object') {
    const noCache = num(field(input, 'noCache'));
    usage.cacheReadTokens = num(field(input, 'cacheRead'));
    usage.cacheWriteTokens = num(field(input, 'cacheWrite'));
    usage.inputTokens =
      num(field(input, 'total')) ??
      (noCache === undefined ? undefined : noCache + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0));
  } else {
    usage.inputTokens = num(input);
    usage.cacheReadTokens = num(field(raw, 'cachedInputTokens'));
    const anthropic = field(providerMetadata, 'anthropic');
    if (anthropic && typeof anthropic === 'object' && 'cacheCreationInputTokens' in anthropic) {
      usage.cacheWriteTokens = num(field(anthropic, 'cacheCreationInputTokens'));
      if (usage.inputTokens !== undefined) {
        usage.inputTokens += (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
      }
    }
  }
  usage.outputTokens = output && typeof output === 'object' ? num(field(output, 'total')) : num(output);
  // Providers fill 0 where the wire said nothing (@ai-sdk/openai's chat model): only a count is kept.
  const reasoning =
    output && typeof output === 'object' ? num(field(output, 'reasoning')) : num(field(raw, 'reasoningTokens'));
  if (reasoning) usage.reasoningTokens = reasoning;
  for (const key of Object.keys(usage) as (keyof Usage)[]) if (usage[key] === undefined) delete usage[key];
  return usage;
}

/** Converts what a wrapped model threw (APICallError, fetch errors, anything) into a {@link ModelError}. */
function toModelError(error: unknown, provider: string): ModelError {
  if (error instanceof ModelError) return error;
  const e = (error ?? {}) as {
    statusCode?: unknown;
    responseHeaders?: unknown;
    isRetryable?: unknown;
    message?: unknown;
    data?: unknown;
  };
  if (typeof e.statusCode === 'number') {
    const base = httpError({
      provider,
      status: e.statusCode,
      message: typeof e.message === 'string' ? e.message : undefined,
      headers: e.responseHeaders,
      cause: error,
    });
    if (typeof e.isRetryable === 'boolean' && e.isRetryable !== base.retryable) {
      return new ModelError(base.message, {
        provider,
        kind: 'http',
        status: e.statusCode,
        retryable: e.isRetryable,
        retryAfterMs: parseRetryAfter(headerReader(e.responseHeaders)),
        cause: error,
      });
    }
    return base;
  }
  if (isNetworkError(error)) return networkError(provider, error);
  if (e.isRetryable === true) {
    return new ModelError(`${provider}: ${messageOf(error)}`, {
      provider,
      kind: 'other',
      retryable: true,
      cause: error,
    });
  }
  return new ModelError(`${provider}: ${messageOf(error)}`, { provider, kind: 'other', cause: error });
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function toolCallOf(part: Record<string, unknown>, label: string, idOf: (id: unknown) => string): ToolCall {
  if (typeof part.toolName !== 'string' || part.toolName === '') {
    throw malformedError(label, `a tool-call without a toolName: ${preview(part)}`);
  }
  return { id: idOf(part.toolCallId), name: part.toolName, input: parseToolArguments(part.input) };
}

function readResult(result: unknown, label: string, target: AiSdkTarget): ModelResponse {
  const content = (result as { content?: unknown } | null)?.content;
  if (!result || typeof result !== 'object' || !Array.isArray(content)) {
    throw malformedError(label, `doGenerate returned ${preview(result)} instead of { content: [...] }`);
  }
  let text = '';
  const parts: AssistantPart[] = [];
  const toolCalls: ToolCall[] = [];
  const idOf = toolCallIds();
  for (const part of content as Array<Record<string, unknown>>) {
    if (part?.type === 'text' && typeof part.text === 'string') {
      text += part.text;
      const last = parts[parts.length - 1];
      if (last?.type === 'text') last.text += part.text;
      else if (part.text) parts.push({ type: 'text', text: part.text });
    } else if (part?.type === 'reasoning') {
      const reasoning = typeof part.text === 'string' ? part.text : '';
      parts.push(reasoningFromSdk(reasoning, part.providerMetadata, target));
    } else if (part?.type === 'tool-call' && !part.providerExecuted) toolCalls.push(toolCallOf(part, label, idOf));
  }
  const { usage: rawUsage, providerMetadata } = result as { usage?: unknown; providerMetadata?: unknown };
  const usage = aiSdkUsage(rawUsage, providerMetadata);
  const out: ModelResponse = { text, toolCalls, content: parts };
  if (usage) out.usage = usage;
  return out;
}

/** The parts of a `doStream` result, read under the attempt's deadline. */
async function* readStream(
  stream: unknown,
  label: string,
  attempt: Attempt,
  target: AiSdkTarget,
): AsyncGenerator<ModelStreamPart> {
  if (!stream || typeof (stream as ReadableStream).getReader !== 'function') {
    throw malformedError(label, `doStream returned ${preview(stream)} instead of { stream: ReadableStream }`);
  }
  const reader = (stream as ReadableStream<Record<string, unknown>>).getReader();
  // A stalled read never settles by itself; cancelling the stream ends it (and the provider's request).
  attempt.onExpire(() => {
    reader.cancel(attempt.expired).catch(() => {});
  });
  const parts = (async function* () {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  })();
  const idOf = toolCallIds();
  let usage: Usage | undefined;
  let finished = false;
  // Reasoning blocks by id: their text and provider metadata (a signature may come on a delta).
  const reasoning = new Map<string, { text: string; meta: Record<string, Record<string, unknown>> }>();
  try {
    for await (const part of attempt.guard(parts)) {
      if (!part || typeof part !== 'object') continue;
      if (part.type === 'reasoning-start') {
        const block = { text: '', meta: {} };
        mergeMetadata(block.meta, part.providerMetadata);
        reasoning.set(String(part.id), block);
      } else if (part.type === 'reasoning-delta') {
        const block = reasoning.get(String(part.id));
        const text = typeof part.delta === 'string' ? part.delta : '';
        if (block) {
          block.text += text;
          mergeMetadata(block.meta, part.providerMetadata);
        }
        if (text) yield { type: 'reasoning-delta', text };
      } else if (part.type === 'reasoning-end') {
        const block = reasoning.get(String(part.id));
        reasoning.delete(String(part.id));
        if (block) {
          mergeMetadata(block.meta, part.providerMetadata);
          yield { type: 'reasoning', reasoning: reasoningFromSdk(block.text, block.meta, target) };
        }
      } else if (part.type === 'text-delta') {
        const text =
          typeof part.delta === 'string' ? part.delta : typeof part.textDelta === 'string' ? part.textDelta : '';
        if (text) yield { type: 'text-delta', text };
      } else if (part.type === 'tool-call') {
        if (!part.providerExecuted) yield { type: 'tool-call', ...toolCallOf(part, label, idOf) };
      } else if (part.type === 'finish') {
        finished = true;
        usage = aiSdkUsage(part.usage, part.providerMetadata);
      } else if (part.type === 'error') {
        throw part.error instanceof Error ? part.error : new Error(messageOf(part.error));
      }
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {});
    try {
      reader.releaseLock();
    } catch {
      // A read still pending after an expiry: the cancel above ends it.
    }
  }
  // The same rule as the Anthropic (message_stop) and OpenAI (finish_reason) adapters.
  if (!finished) throw networkError(label, new Error('the stream ended without a finish part (connection dropped?)'));
  yield { type: 'finish', usage };
}

/**
 * Wraps a Vercel AI SDK language model (from `@ai-sdk/anthropic`, `@ai-sdk/openai`, `@ai-sdk/google`,
 * `ollama-ai-provider`, …) as a skilltree {@link Model}.
 *
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { aiSdk } from '@skilltree/models/ai-sdk';
 * const model = aiSdk(anthropic('claude-sonnet-4-5'));
 * ```
 *
 * Retries with backoff on 429, 5xx and network errors (errors with `statusCode`, `isRetryable` or a
 * network cause), honouring `retry-after`. `timeoutMs` bounds each call and each wait between
 * stream parts; a stream that ends without a `finish` part is a (retryable) network error.
 *
 * Usage: `inputTokens` is every input token the call carried, cached or not, whatever the
 * specification version; see {@link aiSdkUsage}. Tool calls without an id get a random `call_…` one.
 *
 * Reasoning: the model's `reasoning` parts become reasoning parts (streamed: `reasoning-delta`, then
 * the finished block), their provider metadata kept (`@ai-sdk/anthropic`'s `signature` /
 * `redactedData`, `@ai-sdk/openai`'s `itemId` / `reasoningEncryptedContent`), and are sent back,
 * with it, only to the same provider and model. Files in user messages and tool results go as the
 * specification's file parts.
 */
export function aiSdk(languageModel: AiSdkLanguageModel, options: AiSdkOptions = {}): Model {
  if (!languageModel || typeof languageModel !== 'object') {
    throw new TypeError('aiSdk(): pass an AI SDK language model, e.g. aiSdk(anthropic("claude-sonnet-4-5")).');
  }
  const version = (languageModel as { specificationVersion?: unknown }).specificationVersion;
  if (typeof version !== 'string' || !SUPPORTED.has(version)) {
    throw new TypeError(
      `aiSdk(): language model specification ${String(version)} is not supported (v2, v3 and v4 are). ` +
        'Upgrade the provider package to one built for AI SDK 5 or later.',
    );
  }
  const model = languageModel as LanguageModelV3;
  if (typeof model.doGenerate !== 'function' || typeof model.doStream !== 'function') {
    throw new TypeError('aiSdk(): the language model has no doGenerate/doStream methods.');
  }
  const provider = typeof model.provider === 'string' && model.provider ? model.provider : 'unknown';
  const label = `${PROVIDER}:${provider}`;
  const target: AiSdkTarget = { provider: metadataKey(provider), modelId: String(model.modelId), version };
  const policy = retryPolicy(options);
  const deadline: DeadlineSettings = {
    timeoutMs: resolveTimeout(options.timeoutMs, 'aiSdk()'),
    provider: label,
    model: String(model.modelId),
  };
  const toError = (error: unknown) => toModelError(error, label);
  // v2 and v3 call options agree on every field this adapter sets. Each attempt gets its own signal.
  const withSignal = (call: LanguageModelV3CallOptions, attempt: Attempt) =>
    ({ ...call, abortSignal: attempt.signal }) as LanguageModelV3CallOptions & LanguageModelV2CallOptions;

  return {
    name: `${PROVIDER}:${provider}:${model.modelId}`,
    ...(options.accepts ? { accepts: { ...options.accepts } } : {}),
    async generate(req: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
      const call = aiSdkCallOptions(req, options, aiSdkUsesToolChanges(req, model, options.toolChanges), target);
      const result = await withRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineCall(deadline, opts.signal, (attempt) => model.doGenerate(withSignal(call, attempt))),
      );
      return readResult(result, label, target);
    },
    stream(req: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
      const call = aiSdkCallOptions(req, options, aiSdkUsesToolChanges(req, model, options.toolChanges), target);
      return streamWithRetry({ policy, signal: opts.signal, toError }, () =>
        deadlineStream(deadline, opts.signal, async function* (attempt) {
          const result = await attempt.race(model.doStream(withSignal(call, attempt)));
          yield* readStream((result as { stream?: unknown } | null)?.stream, label, attempt, target);
        }),
      );
    },
  };
}
