/**
 * One model call: `stream` when the model has it (text arrives as it is produced), else `generate`.
 * Either way the call gives up as soon as the turn is aborted, even if the model ignores the signal.
 * What a model reports is checked where it enters: usage is made numbers a sum can trust.
 */

import { modelCallTrace } from '../observe/telemetry.js';
import { cleanContent, partsText, textPart } from '../parts/message-parts.js';
import { cleanReasoning } from '../parts/reasoning.js';
import { wellFormed } from '../parts/text.js';
import { nestsWithin, TOO_DEEP_INPUT } from '../parts/tool-input-depth.js';
import { drainTurn, emit, hasEvents } from '../state/events.js';
import type { SessionState } from '../state/state.js';
import type { AssistantPart, ReasoningPart, ToolCall } from '../types/messages.js';
import type { Model, ModelResponse, ModelStreamPart, Usage } from '../types/model.js';
import type { ModelRequest } from '../types/request.js';
import type { SessionEvent } from '../types/session.js';
import { whenAborted } from './abort-watch.js';

/** The model of a session made without one: every call fails, saying what to pass. */
export const NO_MODEL: Model = {
  name: 'none',
  generate: () =>
    Promise.reject(
      new Error('No model: pass { model } to createSession, e.g. scriptedModel([...]) or anthropic({ model }).'),
    ),
};

/**
 * The error a turn (or, with its own `fallback`, a model adapter's call) ends with when its signal
 * aborts: the abort reason when it is an error, else an `AbortError` saying the reason or `fallback`.
 */
export function abortError(signal: AbortSignal, fallback = 'The turn was aborted.'): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === 'string' ? reason : fallback);
  error.name = 'AbortError';
  return error;
}

/** `promise`, or a rejection as soon as `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const unwatch = whenAborted(signal, () => reject(abortError(signal)));
    promise.then(
      (value) => {
        unwatch();
        resolve(value);
      },
      (error) => {
        unwatch();
        reject(error);
      },
    );
  });
}

/**
 * How far a model call got: whether the model was asked, and what it streamed so far. When the call
 * ends without a response (aborted, failed mid-stream), this is what it consumed, for an estimate.
 */
export interface CallProgress {
  started: boolean;
  text: string;
  toolCalls: ToolCall[];
  /**
   * Characters of reasoning streamed so far: finished blocks, plus the deltas of the block still
   * streaming. Reasoning is output the provider bills, so a call cut off mid-thought is charged it.
   */
  reasoningChars: number;
  /** Characters of tool-call input streamed since the last whole tool call (a call cut off mid-input). */
  toolInputChars: number;
}

/** A call that has not started yet. */
export const callProgress = (): CallProgress => ({
  started: false,
  text: '',
  toolCalls: [],
  reasoningChars: 0,
  toolInputChars: 0,
});

/** Whether a call streamed anything at all (text, reasoning, tool input or a tool call). */
export const streamedAny = (progress: CallProgress): boolean =>
  progress.text !== '' || progress.toolCalls.length > 0 || progress.reasoningChars > 0 || progress.toolInputChars > 0;

/**
 * Calls `model`, emitting a `text-delta` event as each piece of text arrives and handing the turn's
 * events out as they happen (a generator, so a stream's consumer sees text while it streams).
 * `progress` follows the call as it goes.
 */
export async function* callModel(
  state: SessionState,
  model: Model,
  request: ModelRequest,
  signal?: AbortSignal,
  progress: CallProgress = callProgress(),
): AsyncGenerator<SessionEvent, ModelResponse, undefined> {
  if (signal?.aborted) throw abortError(signal);
  progress.started = true;
  // The call's span is the parent of whatever the model's own client traces.
  const trace = modelCallTrace(state);
  const options = trace.traceContext === undefined ? { signal } : { signal, traceContext: trace.traceContext };
  if (!model.stream) {
    const response = await raceAbort(Promise.resolve(trace.run(() => model.generate(request, options))), signal);
    if (!response || typeof response !== 'object') {
      throw new Error(`Model ${model.name ?? ''} returned ${String(response)} instead of { text, toolCalls }.`);
    }
    const content = cleanContent(response);
    for (const part of content) {
      if (part.type === 'reasoning') emit(state, { type: 'reasoning', reasoning: part });
      else if (part.text) emit(state, { type: 'text-delta', text: part.text });
    }
    const out: ModelResponse = {
      text: partsText(content),
      toolCalls: Array.isArray(response.toolCalls) ? response.toolCalls.map(boundedCall) : [],
      content,
      usage: cleanUsage(response.usage),
    };
    if (typeof response.model === 'string') out.model = response.model;
    return out;
  }
  let text = '';
  const content: AssistantPart[] = [];
  const toolCalls: ToolCall[] = [];
  let usage: Usage | undefined;
  let answeredBy: string | undefined;
  const stream = model.stream.bind(model);
  // Reasoning counted so far: finished blocks, and the deltas of the block still streaming (a
  // finished block replaces its own deltas, whichever of the two is longer).
  let reasoningDone = 0;
  let reasoningOpen = 0;
  const parts = trace.run(() => stream(request, options))[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceAbort(
        trace.run(() => parts.next()),
        signal,
      );
      if (next.done) break;
      const part = next.value as ModelStreamPart | null;
      // A part that is not one (null, a string) carries nothing: skip it rather than fail the turn.
      if (part === null || typeof part !== 'object') continue;
      if (part.type === 'text-delta') {
        if (typeof part.text !== 'string') continue;
        const delta = wellFormed(part.text);
        text += delta;
        progress.text = text;
        const last = content.at(-1);
        if (last?.type === 'text') last.text += delta;
        else content.push(textPart(delta));
        emit(state, { type: 'text-delta', text: delta });
        if (hasEvents(state)) yield* drainTurn(state);
      } else if (part.type === 'reasoning-delta') {
        if (typeof part.text !== 'string') continue;
        reasoningOpen += part.text.length;
        progress.reasoningChars = reasoningDone + reasoningOpen;
        emit(state, { type: 'reasoning-delta', text: wellFormed(part.text) });
        if (hasEvents(state)) yield* drainTurn(state);
      } else if (part.type === 'reasoning') {
        const reasoning = cleanReasoning(part.reasoning);
        if (!reasoning) continue;
        reasoningDone += Math.max(reasoningChars(reasoning), reasoningOpen);
        reasoningOpen = 0;
        progress.reasoningChars = reasoningDone;
        content.push(reasoning);
        emit(state, { type: 'reasoning', reasoning });
        if (hasEvents(state)) yield* drainTurn(state);
      } else if (part.type === 'tool-input-delta') {
        if (typeof part.text === 'string') progress.toolInputChars += part.text.length;
      } else if (part.type === 'tool-call') {
        toolCalls.push(boundedCall({ id: part.id, name: part.name, input: part.input }));
        progress.toolCalls = toolCalls;
        // The whole call counts from here on: its streamed input is part of it.
        progress.toolInputChars = 0;
      } else if (part.type === 'finish') {
        usage = part.usage;
        if (typeof part.model === 'string') answeredBy = part.model;
      }
    }
  } catch (error) {
    void parts.return?.()?.catch?.(() => {});
    throw error;
  }
  const out: ModelResponse = { text: wellFormed(text), toolCalls, content, usage: cleanUsage(usage) };
  if (answeredBy) out.model = answeredBy;
  return out;
}

/**
 * A model's tool call as the turn takes it: input nested deeper than `MAX_INPUT_DEPTH` (or circular)
 * becomes its placeholder here, before anything serializes the response (the usage estimate, a
 * durable engine's journal, the transcript). Anything else is left to `repairCalls`.
 */
function boundedCall(call: ToolCall): ToolCall {
  if (call === null || typeof call !== 'object' || nestsWithin(call.input)) return call;
  return { ...call, input: TOO_DEEP_INPUT };
}

/** Characters a reasoning block stands for: its readable text, or its opaque data when the text is hidden. */
export function reasoningChars(part: ReasoningPart): number {
  if (part.text.length > 0) return part.text.length;
  let n = 0;
  for (const value of Object.values(part.providerData ?? {})) if (typeof value === 'string') n += value.length;
  return n;
}

/** The fields of {@link Usage}: any other key a model reports is left out. */
const USAGE_KEYS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** A count that has reached the largest integer a number holds exactly stays there. */
function clamp(n: number): number {
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/**
 * Usage as a model (or a snapshot) reports it, made safe to sum and to price: only the known
 * fields, each a finite number of at least 0 (others are left out), at most
 * `Number.MAX_SAFE_INTEGER`. Undefined when no field is left. The one check for usage from outside:
 * model responses and restored snapshots both pass through it.
 */
export function cleanUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const out: Usage = {};
  let any = false;
  // The model's own key order (own keys only: nothing inherited counts).
  for (const key of Object.keys(raw) as (typeof USAGE_KEYS)[number][]) {
    if (!USAGE_KEYS.includes(key)) continue;
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) continue;
    out[key] = clamp(value);
    any = true;
  }
  // A scripted model's estimate stays marked as one.
  if (any && (raw as { estimated?: unknown }).estimated === true) out.estimated = true;
  return any ? out : undefined;
}

/**
 * `total` plus `more` (both clean, see {@link cleanUsage}), key by key, clamped at
 * `Number.MAX_SAFE_INTEGER`: a field stays absent when neither has it. How turns sum their model
 * calls, and how the CLI and the playground sum a turn's `step-finish` usage.
 *
 * @example
 * addUsage({ inputTokens: 10 }, { inputTokens: 5, outputTokens: 2 }); // { inputTokens: 15, outputTokens: 2 }
 */
export function addUsage(total: Usage | undefined, more: Usage | undefined): Usage | undefined {
  if (!more) return total;
  const out: Usage = { ...total };
  // In `more`'s key order, so that sums print as the provider reported them.
  for (const key of Object.keys(more) as (typeof USAGE_KEYS)[number][]) {
    if (!USAGE_KEYS.includes(key)) continue;
    const value = more[key];
    if (value !== undefined) out[key] = clamp((out[key] ?? 0) + value);
  }
  // The sum is an estimate when either part is.
  if (more.estimated === true) out.estimated = true;
  return out;
}

/** The content an assistant message records for a response (its parts, or its text). */
export function responseContent(response: Pick<ModelResponse, 'text' | 'content'>): AssistantPart[] {
  return cleanContent(response);
}
