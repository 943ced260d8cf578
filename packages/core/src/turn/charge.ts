/**
 * What a model call is charged when its provider does not say: its input and what it streamed or
 * answered (text, tool calls and reasoning, all output a provider bills), estimated at 4 characters
 * per token and marked `estimated`.
 */
import { estimateRequestTokens, estimateResponseTokens } from '../request/usage-estimate.js';
import type { ModelResponse, Usage } from '../types/model.js';
import type { ModelRequest } from '../types/request.js';
import { type CallProgress, reasoningChars, streamedAny } from './model-call.js';

/**
 * What a model call that ended without a response consumed, or null when it consumed nothing: a
 * call that was aborted, or that streamed something before it failed (text, reasoning, a tool
 * call or part of one), used its input and what it streamed (estimated at 4 characters per token, marked
 * `estimated`); a call that failed before anything came back (an HTTP error, a refused connection)
 * is not billed by providers.
 */
export function consumed(request: ModelRequest, progress: CallProgress, aborted: boolean): Usage | null {
  if (!progress.started) return null;
  if (!aborted && !streamedAny(progress)) return null;
  return estimated(request, progress, progress.reasoningChars + progress.toolInputChars);
}

/**
 * Usage estimated from a call's request and what it answered, plus `streamed` characters of output
 * beside its text and calls (reasoning, a tool call's input cut off), at 4 characters per token.
 */
function estimated(request: ModelRequest, answer: Pick<ModelResponse, 'text' | 'toolCalls'>, streamed: number): Usage {
  return {
    inputTokens: estimateRequestTokens(request),
    outputTokens: estimateResponseTokens(answer, streamed),
    estimated: true,
  };
}

/** Characters of the reasoning a response carries. */
function reasoningOf(response: ModelResponse): number {
  let n = 0;
  for (const part of response.content ?? []) if (part.type === 'reasoning') n += reasoningChars(part);
  return n;
}

/** What a response whose provider reported no usage is charged: its input, and its text, tool calls and reasoning. */
export function estimatedResponse(request: ModelRequest, response: ModelResponse): Usage {
  return estimated(request, response, reasoningOf(response));
}
