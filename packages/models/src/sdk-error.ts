/**
 * Turns errors thrown by the official Anthropic and OpenAI SDKs (and by fetch underneath them) into
 * {@link ModelError}s that name the provider, the status and the provider's message.
 */
import {
  headerReader,
  httpError,
  isNetworkError,
  isRetryableStatus,
  ModelError,
  malformedError,
  messageOf,
  networkError,
  parseRetryAfter,
} from './errors.js';

/** How a provider names itself and its key in error messages. */
export interface ProviderLabels {
  /** e.g. `anthropic`. */
  provider: string;
  /** e.g. `ANTHROPIC_API_KEY`. */
  apiKeyEnv: string;
  /** e.g. `anthropic()`. */
  factory: string;
}

/** Error body types that mean "try again later" even without an HTTP status (SSE `error` events). */
const RETRYABLE_TYPES: Record<string, number> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  server_error: 500,
};

function pick(value: unknown, key: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The provider's error type and message from an SDK `APIError`'s parsed body. */
function details(error: { error?: unknown; message?: unknown; status?: unknown }): { type?: string; message?: string } {
  const body = error.error;
  const inner = pick(body, 'error');
  const type = str(pick(inner, 'type')) ?? str(pick(body, 'type') === 'error' ? undefined : pick(body, 'type'));
  let message = str(pick(inner, 'message')) ?? str(pick(body, 'message'));
  if (!message && typeof error.message === 'string') {
    message = error.message.replace(/^\d{3}\s+/, '');
    if (/status code \(no body\)/.test(message)) message = undefined;
  }
  return { type, message };
}

/** Converts anything an SDK call threw into a {@link ModelError}. */
export function fromSdkError(error: unknown, labels: ProviderLabels): ModelError {
  if (error instanceof ModelError) return error;
  const { provider } = labels;
  const e = (error ?? {}) as {
    status?: unknown;
    headers?: unknown;
    error?: unknown;
    message?: unknown;
    name?: unknown;
  };
  if (typeof e.status === 'number') {
    const { type, message } = details(e);
    return httpError({
      provider,
      status: e.status,
      type,
      message,
      headers: e.headers,
      apiKeyEnv: labels.apiKeyEnv,
      factory: labels.factory,
      cause: error,
    });
  }
  if (e.name === 'APIError' || (e.error !== undefined && e.headers !== undefined)) {
    // An error event inside a stream: no HTTP status, but the body says what happened.
    const { type, message } = details(e);
    const status = type ? RETRYABLE_TYPES[type] : undefined;
    const text = [type, message].filter(Boolean).join(': ') || messageOf(error);
    return new ModelError(`${provider}: error event in the stream: ${text}`, {
      provider,
      kind: 'http',
      status,
      retryable: status !== undefined && isRetryableStatus(status),
      retryAfterMs: parseRetryAfter(headerReader(e.headers)),
      cause: error,
    });
  }
  if (isNetworkError(error)) return networkError(provider, error);
  const text = messageOf(error);
  if (/Could not resolve authentication method|api[_ ]?key/i.test(text) && !/status/i.test(text)) {
    return missingKeyError(labels, error);
  }
  if (error instanceof SyntaxError) return malformedError(provider, `the body is not valid JSON (${text})`, error);
  return new ModelError(`${provider}: ${text}`, { provider, kind: 'other', cause: error });
}

/** The error for a call made without an API key. */
export function missingKeyError(labels: ProviderLabels, cause?: unknown): ModelError {
  return new ModelError(
    `${labels.provider}: no API key. Set the ${labels.apiKeyEnv} environment variable or pass { apiKey } to ${labels.factory}.`,
    { provider: labels.provider, kind: 'auth', cause },
  );
}
