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
import { parseToolArguments, toolInputObject } from './tool-input.js';

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
}

const SUPPORTED = new Set(['v2', 'v3', 'v4']);
const PROVIDER = 'ai-sdk';

/** The prompt and call options sent to `doGenerate` / `doStream` (without `abortSignal`). */
export function aiSdkCallOptions(req: ModelRequest, options: AiSdkOptions = {}): LanguageModelV3CallOptions {
  const placed = placeContext(req);
  const prompt: LanguageModelV3Message[] = [];
  if (placed.system) prompt.push({ role: 'system', content: placed.system });
  for (const message of placed.messages) appendMessage(prompt, message);
  const call: LanguageModelV3CallOptions = { prompt };
  if (req.tools.length > 0) {
    call.tools = req.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as never,
    }));
    call.toolChoice = { type: 'auto' };
  }
  if (options.maxOutputTokens !== undefined) call.maxOutputTokens = options.maxOutputTokens;
  if (options.temperature !== undefined) call.temperature = options.temperature;
  if (options.providerOptions) call.providerOptions = options.providerOptions;
  if (options.headers) call.headers = options.headers;
  return call;
}

function appendMessage(prompt: LanguageModelV3Message[], message: Message): void {
  if (message.role === 'user') {
    prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
    return;
  }
  if (message.role === 'tool') {
    const part = {
      type: 'tool-result' as const,
      toolCallId: message.toolCallId,
      toolName: message.name,
      output: message.isError
        ? { type: 'error-text' as const, value: message.content }
        : { type: 'text' as const, value: message.content },
    };
    // Results of one assistant message share one tool message, as the AI SDK itself sends them.
    const last = prompt[prompt.length - 1];
    if (last?.role === 'tool') last.content.push(part);
    else prompt.push({ role: 'tool', content: [part] });
    return;
  }
  const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
  if (message.content) content.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: toolInputObject(call.input) });
  }
  prompt.push({ role: 'assistant', content });
}

/** AI SDK usage (v3/v4 nested, or v2 flat) as skilltree `Usage`. */
export function aiSdkUsage(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const u = raw as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const usage: Usage = {};
  const input = u.inputTokens;
  const output = u.outputTokens;
  if (input && typeof input === 'object') {
    const i = input as Record<string, unknown>;
    usage.inputTokens = num(i.total);
    usage.cacheReadTokens = num(i.cacheRead);
    usage.cacheWriteTokens = num(i.cacheWrite);
  } else {
    usage.inputTokens = num(input);
    usage.cacheReadTokens = num(u.cachedInputTokens);
  }
  usage.outputTokens =
    output && typeof output === 'object' ? num((output as Record<string, unknown>).total) : num(output);
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

function toolCallOf(part: Record<string, unknown>, label: string): ToolCall {
  if (typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string') {
    throw malformedError(label, `a tool-call without toolCallId or toolName: ${preview(part)}`);
  }
  return { id: part.toolCallId, name: part.toolName, input: parseToolArguments(part.input) };
}

function readResult(result: unknown, label: string): ModelResponse {
  const content = (result as { content?: unknown } | null)?.content;
  if (!result || typeof result !== 'object' || !Array.isArray(content)) {
    throw malformedError(label, `doGenerate returned ${preview(result)} instead of { content: [...] }`);
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of content as Array<Record<string, unknown>>) {
    if (part?.type === 'text' && typeof part.text === 'string') text += part.text;
    else if (part?.type === 'tool-call' && !part.providerExecuted) toolCalls.push(toolCallOf(part, label));
  }
  const usage = aiSdkUsage((result as { usage?: unknown }).usage);
  return usage ? { text, toolCalls, usage } : { text, toolCalls };
}

async function* readStream(stream: unknown, label: string): AsyncGenerator<ModelStreamPart> {
  if (!stream || typeof (stream as ReadableStream).getReader !== 'function') {
    throw malformedError(label, `doStream returned ${preview(stream)} instead of { stream: ReadableStream }`);
  }
  const reader = (stream as ReadableStream<Record<string, unknown>>).getReader();
  let usage: Usage | undefined;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      if (!part || typeof part !== 'object') continue;
      if (part.type === 'text-delta') {
        const text =
          typeof part.delta === 'string' ? part.delta : typeof part.textDelta === 'string' ? part.textDelta : '';
        if (text) yield { type: 'text-delta', text };
      } else if (part.type === 'tool-call') {
        if (!part.providerExecuted) yield { type: 'tool-call', ...toolCallOf(part, label) };
      } else if (part.type === 'finish') {
        usage = aiSdkUsage(part.usage);
      } else if (part.type === 'error') {
        throw part.error instanceof Error ? part.error : new Error(messageOf(part.error));
      }
    }
  } finally {
    reader.releaseLock();
  }
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
 * network cause), honouring `retry-after`.
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
  const policy = retryPolicy(options);
  const toError = (error: unknown) => toModelError(error, label);
  const callOptions = (req: ModelRequest, signal?: AbortSignal) => {
    const call = aiSdkCallOptions(req, options);
    if (signal) call.abortSignal = signal;
    // v2 and v3 call options agree on every field this adapter sets.
    return call as LanguageModelV3CallOptions & LanguageModelV2CallOptions;
  };

  return {
    name: `${PROVIDER}:${provider}:${model.modelId}`,
    async generate(req: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
      const call = callOptions(req, opts.signal);
      const result = await withRetry({ policy, signal: opts.signal, toError }, async () => model.doGenerate(call));
      return readResult(result, label);
    },
    stream(req: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
      const call = callOptions(req, opts.signal);
      return streamWithRetry({ policy, signal: opts.signal, toError }, async function* () {
        const result = await model.doStream(call);
        yield* readStream((result as { stream?: unknown } | null)?.stream, label);
      });
    },
  };
}
