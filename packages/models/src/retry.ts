/**
 * The adapters' one retry loop: exponential backoff with jitter on 429, 5xx and network errors,
 * honouring `retry-after`. The SDKs' own retries are switched off so this is the only place it happens.
 */
import { abortError } from '@skilltree/core/provider';
import { ModelError } from './errors.js';

/** The error to throw when `signal` aborted the call: its reason, or an `AbortError`. */
const aborted = (signal: AbortSignal): Error => abortError(signal, 'The model call was aborted.');

/** Retry settings shared by every adapter. */
export interface RetryOptions {
  /** Retries after the first attempt on 429, 5xx and network errors. Default 3 (four attempts in all). */
  maxRetries?: number;
  /** The first backoff delay in milliseconds; it doubles on every retry. Default 500. */
  initialRetryDelayMs?: number;
  /**
   * The longest wait between attempts in milliseconds, for backoff and for `retry-after` alike.
   * Default 60 000.
   */
  maxRetryDelayMs?: number;
}

/** Resolved retry settings. */
export interface RetryPolicy {
  maxRetries: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
}

/** Defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, initialRetryDelayMs: 500, maxRetryDelayMs: 60_000 };

function nonNegative(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Fills in defaults and ignores invalid values. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxRetries: Math.floor(nonNegative(options.maxRetries, DEFAULT_RETRY.maxRetries)),
    initialRetryDelayMs: nonNegative(options.initialRetryDelayMs, DEFAULT_RETRY.initialRetryDelayMs),
    maxRetryDelayMs: nonNegative(options.maxRetryDelayMs, DEFAULT_RETRY.maxRetryDelayMs),
  };
}

/**
 * The delay before retry number `retry` (0-based): `retry-after` when the provider sent it, else
 * `initialRetryDelayMs · 2^retry` with jitter (between half and all of it); capped by `maxRetryDelayMs`.
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfterMs?: number, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryDelayMs);
  const base = Math.min(policy.initialRetryDelayMs * 2 ** retry, policy.maxRetryDelayMs);
  return base / 2 + (base / 2) * random();
}

/** Waits `ms` milliseconds; rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(aborted(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** What the retry loop needs from an adapter. */
export interface RetryContext {
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Turns anything thrown into a {@link ModelError} (which says whether to retry). */
  toError(error: unknown): ModelError;
}

function settle(error: unknown, context: RetryContext): Error {
  if (context.signal?.aborted) return aborted(context.signal);
  return error instanceof ModelError ? error : context.toError(error);
}

function withAttempts(error: ModelError, attempts: number): ModelError {
  if (attempts <= 1 || !error.retryable) return error;
  error.message += ` (gave up after ${attempts} attempts)`;
  return error;
}

/** Calls `fn` until it succeeds, retrying retryable failures per the policy. */
export async function withRetry<T>(context: RetryContext, fn: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (thrown) {
      const error = settle(thrown, context);
      if (!(error instanceof ModelError) || !error.retryable || attempt >= context.policy.maxRetries) {
        throw error instanceof ModelError ? withAttempts(error, attempt + 1) : error;
      }
      await sleep(retryDelay(context.policy, attempt, error.retryAfterMs), context.signal);
    }
  }
}

/**
 * Streams from `open()`, retrying retryable failures per the policy as long as nothing has been
 * yielded yet. Once a part has reached the caller a failure is thrown: replaying would repeat text.
 */
export async function* streamWithRetry<T>(
  context: RetryContext,
  open: (attempt: number) => AsyncIterable<T>,
): AsyncGenerator<T> {
  for (let attempt = 0; ; attempt++) {
    let yielded = false;
    try {
      for await (const part of open(attempt)) {
        yielded = true;
        yield part;
      }
      return;
    } catch (thrown) {
      const error = settle(thrown, context);
      if (!(error instanceof ModelError) || !error.retryable || yielded || attempt >= context.policy.maxRetries) {
        if (error instanceof ModelError && yielded && error.retryable) {
          error.message += ' (the stream broke after output had been sent, so it was not retried)';
        }
        throw error instanceof ModelError && !yielded ? withAttempts(error, attempt + 1) : error;
      }
      await sleep(retryDelay(context.policy, attempt, error.retryAfterMs), context.signal);
    }
  }
}
