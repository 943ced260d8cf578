/**
 * The options every HTTP model adapter (`anthropic`, `openai`) takes, beside its own: one place for
 * their meaning, so the adapters say the same thing the same way.
 */
import type { RetryOptions } from './retry.js';

/** Options shared by the HTTP adapters: the model, the deadline, and what goes on the wire besides the request. */
export interface HttpModelOptions extends RetryOptions {
  /**
   * Milliseconds one attempt may wait: for the whole response with `generate`; for the response and
   * then for each next event with `stream`, so a stream that goes silent fails instead of hanging.
   * The request is then aborted and the attempt fails as a retryable network error (not retried once
   * text has been streamed). `Infinity` switches it off. Default 600 000 (ten minutes).
   */
  timeoutMs?: number;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** Extra fields merged into every request body (e.g. `{ stop_sequences: […] }`, `{ metadata: {…} }`). */
  extraBody?: Record<string, unknown>;
  /** A custom `fetch` (proxies, tests). */
  fetch?: typeof globalThis.fetch;
}
