/**
 * One model call: `stream` when the model has it (text arrives as it is produced), else `generate`.
 * Either way the call gives up as soon as the turn is aborted, even if the model ignores the signal.
 */
import { drainTurn, emit, type SessionState } from './state.js';
import { wellFormed } from './text.js';
import type { Model, ModelRequest, ModelResponse, SessionEvent, ToolCall, Usage } from './types.js';

/** The error a turn ends with when its signal aborts. */
export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === 'string' ? reason : 'The turn was aborted.');
  error.name = 'AbortError';
  return error;
}

/** `promise`, or a rejection as soon as `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Calls `model`, emitting a `text-delta` event as each piece of text arrives and handing the turn's
 * events out as they happen (a generator, so a stream's consumer sees text while it streams).
 */
export async function* callModel(
  state: SessionState,
  model: Model,
  request: ModelRequest,
  signal?: AbortSignal,
): AsyncGenerator<SessionEvent, ModelResponse, undefined> {
  if (signal?.aborted) throw abortError(signal);
  if (!model.stream) {
    const response = await raceAbort(Promise.resolve(model.generate(request, { signal })), signal);
    if (!response || typeof response !== 'object') {
      throw new Error(`Model ${model.name ?? ''} returned ${String(response)} instead of { text, toolCalls }.`);
    }
    const text = typeof response.text === 'string' ? wellFormed(response.text) : '';
    if (text) emit(state, { type: 'text-delta', text });
    return { text, toolCalls: Array.isArray(response.toolCalls) ? response.toolCalls : [], usage: response.usage };
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  let usage: Usage | undefined;
  const parts = model.stream(request, { signal })[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceAbort(parts.next(), signal);
      if (next.done) break;
      const part = next.value;
      if (part.type === 'text-delta') {
        const delta = wellFormed(part.text);
        text += delta;
        emit(state, { type: 'text-delta', text: delta });
        yield* drainTurn(state);
      } else if (part.type === 'tool-call') {
        toolCalls.push({ id: part.id, name: part.name, input: part.input });
      } else if (part.type === 'finish') {
        usage = part.usage;
      }
    }
  } catch (error) {
    void parts.return?.()?.catch?.(() => {});
    throw error;
  }
  return { text: wellFormed(text), toolCalls, usage };
}

/**
 * `total` plus `more`, key by key: a field stays absent when neither has it, and a value that is
 * not a finite number is not added. How turns sum their model calls, and how the CLI and the
 * playground sum a turn's `step-finish` usage.
 *
 * @example
 * addUsage({ inputTokens: 10 }, { inputTokens: 5, outputTokens: 2 }); // { inputTokens: 15, outputTokens: 2 }
 */
export function addUsage(total: Usage | undefined, more: Usage | undefined): Usage | undefined {
  if (!more) return total;
  const out: Usage = { ...total };
  for (const key of Object.keys(more) as (keyof Usage)[]) {
    const value = more[key];
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = (out[key] ?? 0) + value;
  }
  return out;
}
