/**
 * The one error type every adapter throws, and the helpers that turn SDK and network errors into it.
 */

/** What went wrong, in a form the retry loop can act on. */
export type ModelErrorKind =
  /** The provider answered with an HTTP error status. */
  | 'http'
  /** The request never got an answer: refused, reset, dropped or timed out. */
  | 'network'
  /** The provider answered, but not with something the adapter understands. */
  | 'malformed'
  /** No API key was configured. */
  | 'auth'
  /** Anything else (a bug in a wrapped model, an SDK error). */
  | 'other';

/** Options of {@link ModelError}. */
export interface ModelErrorOptions {
  /** The provider, e.g. `anthropic`, `openai`, `ai-sdk`. */
  provider: string;
  /** What kind of failure this is. */
  kind: ModelErrorKind;
  /** HTTP status, when the provider answered with one. */
  status?: number;
  /** Whether the retry loop may try again (429, 5xx, network errors). */
  retryable?: boolean;
  /** How long the provider asked us to wait (`retry-after` / `retry-after-ms`), in milliseconds. */
  retryAfterMs?: number;
  /** The original error. */
  cause?: unknown;
}

/**
 * An error from a model adapter. The message names the provider, the HTTP status (when there is one)
 * and the provider's own message, e.g. `anthropic: HTTP 429 rate_limit_error: Too many requests`.
 */
export class ModelError extends Error {
  /** The provider that failed, e.g. `anthropic`. */
  readonly provider: string;
  /** What kind of failure this is. */
  readonly kind: ModelErrorKind;
  /** HTTP status, when the provider answered with one. */
  readonly status?: number;
  /** Whether retrying may help (429, 5xx, network errors). */
  readonly retryable: boolean;
  /** The delay the provider asked for, in milliseconds, when it sent `retry-after`. */
  readonly retryAfterMs?: number;

  /** An error with `message` (which should name the provider) and the facts in `options`. */
  constructor(message: string, options: ModelErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.provider = options.provider;
    this.kind = options.kind;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Whether `status` is worth retrying: 408, 409, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds, or an HTTP date) into milliseconds.
 * Returns undefined when neither header is present or readable.
 */
export function parseRetryAfter(
  get: (name: string) => string | null | undefined,
  now = Date.now(),
): number | undefined {
  const ms = get('retry-after-ms');
  if (ms != null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = get('retry-after');
  if (header == null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

/** A header reader for a `Headers` object or a plain record, case-insensitive. */
export function headerReader(headers: unknown): (name: string) => string | undefined {
  if (!headers || typeof headers !== 'object') return () => undefined;
  const h = headers as { get?: unknown };
  if (typeof h.get === 'function') {
    return (name) => (h.get as (n: string) => string | null).call(headers, name) ?? undefined;
  }
  const record = headers as Record<string, unknown>;
  return (name) => {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === name) {
        const value = record[key];
        return typeof value === 'string' ? value : value == null ? undefined : String(value);
      }
    }
    return undefined;
  };
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** The SDKs' connection error classes (no HTTP status: the request got no answer). */
const CONNECTION_ERRORS = new Set(['APIConnectionError', 'APIConnectionTimeoutError']);

/**
 * Whether `error` (or one of its causes) is a network failure: a refused or reset connection, a socket
 * closed mid-response, a timeout, or an SDK's connection error.
 */
export function isNetworkError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const e = current as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
    const type = (current as { constructor?: { name?: unknown } }).constructor?.name;
    if (CONNECTION_ERRORS.has(String(e.name)) || CONNECTION_ERRORS.has(String(type))) return true;
    if (
      typeof e.message === 'string' &&
      /^(fetch failed|terminated|other side closed|socket hang up)$/i.test(e.message)
    ) {
      return true;
    }
    current = e.cause;
  }
  return false;
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** Options of {@link httpError}. */
export interface HttpErrorOptions {
  provider: string;
  status: number;
  /** The provider's error type (e.g. `rate_limit_error`), if it sent one. */
  type?: string | null;
  /** The provider's error message. */
  message?: string | null;
  headers?: unknown;
  /** The environment variable that holds the key, named in 401/403 messages. */
  apiKeyEnv?: string;
  /** The factory's name, e.g. `anthropic()`, named in 401/403 messages. */
  factory?: string;
  /** Whether to retry, when the caller knows better than the status (the AI SDK's `isRetryable`). */
  retryable?: boolean;
  cause?: unknown;
}

/** A {@link ModelError} for an HTTP error status, with a hint for authentication failures. */
export function httpError(options: HttpErrorOptions): ModelError {
  const { provider, status } = options;
  const detail = [options.type, options.message].filter((s) => typeof s === 'string' && s.length > 0).join(': ');
  let message = `${provider}: HTTP ${status}${detail ? ` ${detail}` : ''}`;
  if ((status === 401 || status === 403) && options.apiKeyEnv) {
    message += `. Check the API key: set ${options.apiKeyEnv} or pass { apiKey } to ${options.factory ?? `${provider}()`}.`;
  }
  return new ModelError(message, {
    provider,
    kind: 'http',
    status,
    retryable: options.retryable ?? isRetryableStatus(status),
    retryAfterMs: parseRetryAfter(headerReader(options.headers)),
    cause: options.cause,
  });
}

/** A value as a malformed-response error quotes it: JSON, cut at 200 characters. */
export function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A {@link ModelError} for a response the adapter cannot read. Not retried. */
export function malformedError(provider: string, what: string, cause?: unknown): ModelError {
  return new ModelError(`${provider}: malformed response: ${what}`, { provider, kind: 'malformed', cause });
}

/** A {@link ModelError} for a network failure. Retried. */
export function networkError(provider: string, error: unknown): ModelError {
  return new ModelError(`${provider}: network error: ${describeNetwork(error)}`, {
    provider,
    kind: 'network',
    retryable: true,
    cause: error,
  });
}

function describeNetwork(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const text = messageOf(current);
    const code = (current as { code?: unknown }).code;
    const piece = typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
    if (piece && !parts.includes(piece)) parts.push(piece);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ') || 'the connection failed';
}
