/**
 * What an AI SDK model returns, read back: usage, errors, a `doGenerate` result and a `doStream`
 * stream, as skilltree responses and stream parts.
 */
import type { AssistantPart, ModelResponse, ModelStreamPart, ToolCall, Usage } from '@skilltree/core/provider';
import { type AiSdkTarget, mergeMetadata, reasoningFromSdk } from './ai-sdk-parts.js';
import type { Attempt } from './deadline.js';
import { httpError, isNetworkError, ModelError, malformedError, messageOf, networkError, preview } from './errors.js';
import { toolCallIds } from './tool-call-id.js';
import { parseToolArguments } from './tool-input.js';

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
export function toModelError(error: unknown, provider: string): ModelError {
  if (error instanceof ModelError) return error;
  const e = (error ?? {}) as {
    statusCode?: unknown;
    responseHeaders?: unknown;
    isRetryable?: unknown;
    message?: unknown;
    data?: unknown;
  };
  if (typeof e.statusCode === 'number') {
    return httpError({
      provider,
      status: e.statusCode,
      message: typeof e.message === 'string' ? e.message : undefined,
      headers: e.responseHeaders,
      // The provider package knows better than the status whether this one is worth retrying.
      ...(typeof e.isRetryable === 'boolean' ? { retryable: e.isRetryable } : {}),
      cause: error,
    });
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

function toolCallOf(part: Record<string, unknown>, label: string, idOf: (id: unknown) => string): ToolCall {
  if (typeof part.toolName !== 'string' || part.toolName === '') {
    throw malformedError(label, `a tool-call without a toolName: ${preview(part)}`);
  }
  return { id: idOf(part.toolCallId), name: part.toolName, input: parseToolArguments(part.input) };
}

export function readResult(result: unknown, label: string, target: AiSdkTarget): ModelResponse {
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
export async function* readStream(
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
      } else if (part.type === 'tool-input-delta') {
        // Counted by the session: a call cut off mid-input is charged what it streamed.
        if (typeof part.delta === 'string' && part.delta) yield { type: 'tool-input-delta', text: part.delta };
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
