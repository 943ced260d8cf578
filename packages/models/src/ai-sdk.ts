/**
 * `@skilltree/models/ai-sdk`: any Vercel AI SDK language model (specification v2, v3 or v4) as a
 * skilltree model. skilltree owns the loop, the tool list and the `Unknown tool` refusal, so the
 * adapter calls the model's `doGenerate` / `doStream` directly, one step at a time.
 *
 * The dependency on `@ai-sdk/provider` is type-only: the version is detected at runtime.
 *
 * @packageDocumentation
 */
import type { LanguageModelV2CallOptions, LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { Model, ModelCallOptions, ModelRequest, ModelResponse, ModelStreamPart } from '@skilltree/core/provider';
import { type AiSdkLanguageModel, type AiSdkOptions, aiSdkCallOptions, aiSdkUsesToolChanges } from './ai-sdk-call.js';
import { type AiSdkTarget, metadataKey } from './ai-sdk-parts.js';
import { readResult, readStream, toModelError } from './ai-sdk-read.js';
import { type Attempt, type DeadlineSettings, deadlineCall, deadlineStream, resolveTimeout } from './deadline.js';
import { retryPolicy, streamWithRetry, withRetry } from './retry.js';

export {
  type AiSdkLanguageModel,
  type AiSdkOptions,
  aiSdkCallOptions,
  aiSdkUsesToolChanges,
} from './ai-sdk-call.js';
export { aiSdkUsage } from './ai-sdk-read.js';
export { ModelError, type ModelErrorKind } from './errors.js';
export type { RetryOptions } from './retry.js';

const SUPPORTED = new Set(['v2', 'v3', 'v4']);
const PROVIDER = 'ai-sdk';

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
 * with it, only to this adapter (its provider and model; see `replaysTo`). Files in user messages and tool results go as the
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
  const modelId = String(model.modelId);
  // The adapter names its reasoning by its own label (`ai-sdk:openai.responses`) and the model id:
  // never by the metadata key, which another adapter (or another server) may share.
  const source = { provider: label, model: modelId };
  const target: AiSdkTarget = { provider: metadataKey(provider), modelId, version, source };
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
    // The cap sent with every call, when there is one: what an owner's budget reserves for a call's output.
    ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
    reasoningSource: source,
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
