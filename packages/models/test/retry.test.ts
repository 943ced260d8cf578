import { describe, expect, it } from 'vitest';
import { isRetryableStatus, ModelError, parseRetryAfter } from '../src/errors.js';
import { retryDelay, retryPolicy, sleep, withRetry } from '../src/retry.js';

const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('retry-after', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500);
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });

  it('retries 408, 409, 429 and 5xx only', () => {
    expect([408, 409, 429, 500, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('backoff', () => {
  it('doubles from initialRetryDelayMs with jitter between half and all of it, capped', () => {
    const policy = retryPolicy({ initialRetryDelayMs: 100, maxRetryDelayMs: 1000 });
    expect(retryDelay(policy, 0, undefined, () => 0)).toBe(50);
    expect(retryDelay(policy, 0, undefined, () => 1)).toBe(100);
    expect(retryDelay(policy, 2, undefined, () => 1)).toBe(400);
    expect(retryDelay(policy, 10, undefined, () => 1)).toBe(1000);
    expect(retryDelay(policy, 0, 300)).toBe(300);
    expect(retryDelay(policy, 0, 5000)).toBe(1000);
  });

  it('defaults: 3 retries from 500 ms, at most 60 s', () => {
    expect(retryPolicy()).toEqual({ maxRetries: 3, initialRetryDelayMs: 500, maxRetryDelayMs: 60_000 });
    expect(retryPolicy({ maxRetries: -1 }).maxRetries).toBe(3);
  });

  it('withRetry stops at the first non-retryable error', async () => {
    let calls = 0;
    const error = await withRetry(
      { policy: retryPolicy({ initialRetryDelayMs: 1 }), toError: (e) => e as ModelError },
      async () => {
        calls++;
        throw new ModelError(calls === 1 ? 'busy' : 'bad', { provider: 'p', kind: 'http', retryable: calls === 1 });
      },
    ).catch((e) => e);
    expect(calls).toBe(2);
    expect(error.message).toBe('bad');
  });

  it('sleep rejects with the abort reason', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
