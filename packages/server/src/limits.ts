/**
 * Per-user limits: how big a request body and a message may be, how many turns a user may start, how
 * much history `GET /chat/:id` returns and how many resumed streams a user may hold open.
 */
import type { FileLimits } from '@skilltree/core';

/** Limits of {@link createHandler}. Every field has a default; `turnsPerMinute: false` turns rate limiting off. */
export interface Limits {
  /**
   * Largest request body in bytes; larger answers 413 `body_too_large`. Default: derived from the
   * sessions' `files` limits and `maxMessageLength` by {@link bodyLimitFor}, so that any message the
   * sessions accept fits (with the defaults, about 43 MB: 32 MB of files as base64), and a message
   * with too many bytes of files is refused by the session, with its reason. Set it to refuse large
   * bodies sooner than that; lowering the sessions' `files.maxMessageBytes` lowers the default too.
   */
  maxBodyBytes?: number;
  /** Longest user message in characters; longer answers 413. Default 32 000. */
  maxMessageLength?: number;
  /**
   * Turns one user may start per minute (a token bucket of this size that refills evenly); more
   * answer 429 with `Retry-After`. Default 30. `false`: no limit. Ignored when `rateLimiter` is set.
   */
  turnsPerMinute?: number | false;
  /**
   * Decides whether a user may start a turn. Default: {@link memoryRateLimiter} with `turnsPerMinute`,
   * which counts per process; give several processes a shared limiter (e.g. on Redis) to count across them.
   */
  rateLimiter?: RateLimiter;
  /**
   * Most messages of the transcript `GET /chat/:id` converts (the newest ones, from the first user
   * message among them, or from a model step when the newest turn alone is longer). Default 1 000.
   */
  maxHistoryMessages?: number;
  /**
   * Most resumed streams (`GET /chat/:id/stream`) one user may hold open at once in this process: a
   * page holds one while it follows a running turn. More answer 429 `too_many_resumers` (close one,
   * or raise this). Default 8.
   */
  maxResumersPerUser?: number;
}

/** The answer of a {@link RateLimiter}. */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

/** Decides whether a key (a user id) may take one more turn now. */
export interface RateLimiter {
  take(key: string): RateDecision | Promise<RateDecision>;
}

/** Options of {@link memoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /** Turns per minute, refilled evenly; also the burst size. */
  perMinute: number;
  /** Milliseconds since some epoch; for tests. Default `Date.now`. */
  now?: () => number;
  /** Most keys kept; full buckets are dropped first when there are more. Default 100 000. */
  maxKeys?: number;
}

/** The in-process limiter: it decides at once. */
export interface MemoryRateLimiter extends RateLimiter {
  take(key: string): RateDecision;
}

/**
 * A token bucket per key in this process: `perMinute` tokens, one more every `60 000 / perMinute` ms.
 *
 * @example
 * const limiter = memoryRateLimiter({ perMinute: 10 });
 * limiter.take('user-42'); // { ok: true }
 */
export function memoryRateLimiter(options: MemoryRateLimiterOptions): MemoryRateLimiter {
  const { perMinute, now = Date.now, maxKeys = 100_000 } = options;
  if (!(perMinute > 0)) throw new Error(`memoryRateLimiter: perMinute must be a positive number (got ${perMinute}).`);
  const interval = 60_000 / perMinute;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (bucket: { tokens: number; at: number }, t: number) => {
    bucket.tokens = Math.min(perMinute, bucket.tokens + (t - bucket.at) / interval);
    bucket.at = t;
  };
  const prune = (t: number) => {
    for (const [key, bucket] of buckets) {
      refill(bucket, t);
      if (bucket.tokens >= perMinute) buckets.delete(key);
    }
    // Still too many: drop the oldest (a new key starts full, so at worst they get a fresh bucket).
    for (const key of buckets.keys()) {
      if (buckets.size < maxKeys) break;
      buckets.delete(key);
    }
  };
  return {
    take(key: string): RateDecision {
      const t = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= maxKeys) prune(t);
        bucket = { tokens: perMinute, at: t };
        buckets.set(key, bucket);
      }
      refill(bucket, t);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.ceil((1 - bucket.tokens) * interval) };
    },
  };
}

/** The limits in effect. */
export interface ResolvedLimits {
  maxBodyBytes: number;
  maxMessageLength: number;
  maxHistoryMessages: number;
  maxResumersPerUser: number;
  rateLimiter: RateLimiter | null;
}

/** Bytes of a file part's JSON beside its data: keys, media type, a filename of up to 255 characters escaped. */
const FILE_PART_BYTES = 2_048;
/** Bytes of the body beside the message's text and files: chat id, message id, role, trigger, keys. */
const ENVELOPE_BYTES = 4_096;
/** Bytes one character of text may take in JSON: `\u0000` escapes are 6 (UTF-8 takes at most 3). */
const JSON_BYTES_PER_CHAR = 6;

/**
 * The largest `POST /chat` body a message the sessions accept can make: the most bytes of files one
 * message may carry (`maxMessageBytes`, or fewer when `maxFilesPerMessage` files of `maxFileBytes`
 * are less), as base64 (4 bytes for 3, padded per file) in data URLs, with each file part's JSON, and
 * the longest text (`maxMessageLength` characters, each escaped at worst), in the body's envelope.
 *
 * Why derive it: the body limit only guards the server against bodies no accepted message needs. A
 * limit below this would refuse with a bare 413 a message the session accepts, and one set by hand
 * drifts from the `files` options; derived, the file limits decide, and a refused file gets the
 * session's own reason (`file_message_too_large`, …). It assumes the client sends the new message
 * only (`prepareSendMessagesRequest`, see docs/serving.md), not the whole conversation.
 */
export function bodyLimitFor(files: Required<FileLimits>, maxMessageLength: number): number {
  const count = files.maxFilesPerMessage;
  const fileBytes = Math.min(files.maxMessageBytes, count * files.maxFileBytes);
  const base64 = Math.ceil(fileBytes / 3) * 4 + 4 * count;
  return base64 + count * FILE_PART_BYTES + maxMessageLength * JSON_BYTES_PER_CHAR + ENVELOPE_BYTES;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value > 0)) {
    throw new Error(`createHandler: limits.${name} must be a positive number (got ${String(value)}).`);
  }
  return value;
}

/**
 * Fills in the defaults and checks the values. `files` are the file limits the sessions check
 * (`sessions.fileLimits`): the default `maxBodyBytes` follows them ({@link bodyLimitFor}).
 */
export function resolveLimits(limits: Limits, files: Required<FileLimits>): ResolvedLimits {
  const perMinute = limits.turnsPerMinute ?? 30;
  const maxMessageLength = positive('maxMessageLength', limits.maxMessageLength, 32_000);
  return {
    maxBodyBytes: positive('maxBodyBytes', limits.maxBodyBytes, bodyLimitFor(files, maxMessageLength)),
    maxMessageLength,
    maxHistoryMessages: Math.floor(positive('maxHistoryMessages', limits.maxHistoryMessages, 1_000)),
    maxResumersPerUser: Math.floor(positive('maxResumersPerUser', limits.maxResumersPerUser, 8)),
    rateLimiter:
      limits.rateLimiter ??
      (perMinute === false ? null : memoryRateLimiter({ perMinute: positive('turnsPerMinute', perMinute, 30) })),
  };
}
