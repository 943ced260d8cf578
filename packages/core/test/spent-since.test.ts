/**
 * Spend over a span of time: the store keeps spend per period, keyed by when each charge was made,
 * so what a span spent is the sum of every period it touches.
 */
import { describe, expect, test } from 'vitest';
import { memoryStore } from '../src/index.js';
import { periodKeys, spentSince } from '../src/provider.js';

const MIDNIGHT = Date.UTC(2026, 11, 6);

describe('spentSince', () => {
  test('a span inside one day has that day alone; one across midnight has both, oldest first', () => {
    expect(periodKeys('day', MIDNIGHT + 1_000, MIDNIGHT + 60_000)).toEqual(['2026-12-06']);
    expect(periodKeys('day', MIDNIGHT - 4_000, MIDNIGHT + 4_000)).toEqual(['2026-12-05', '2026-12-06']);
    expect(periodKeys('month', Date.UTC(2026, 10, 30), Date.UTC(2027, 0, 1))).toEqual([
      '2026-11',
      '2026-12',
      '2027-01',
    ]);
    expect(periodKeys(1_000, 2_500, 4_000)).toEqual(['ms:1000:2', 'ms:1000:3', 'ms:1000:4']);
  });

  test('a turn charged across midnight is read whole: the sum of both days, not the new day alone', async () => {
    const store = memoryStore();
    const expires = MIDNIGHT + 10 * 86_400_000;
    await store.addSpend('owner', '2026-12-05', { tokens: 110, dollars: 0.5 }, expires);
    await store.addSpend('owner', '2026-12-06', { tokens: 210, dollars: 1 }, expires);
    await store.addSpend('owner', '2026-12-07', { tokens: 999, dollars: 9 }, expires);
    await store.addSpend('other', '2026-12-06', { tokens: 5, dollars: 0 }, expires);
    expect(await spentSince(store, 'owner', MIDNIGHT - 4_000, 'day', MIDNIGHT + 4_000)).toEqual({
      tokens: 320,
      dollars: 1.5,
    });
    expect((await store.spent('owner', '2026-12-06')).tokens).toBe(210);
  });

  test('a span backwards, not finite, or of more than 10,000 periods is refused with what to pass', () => {
    expect(() => periodKeys('day', MIDNIGHT, MIDNIGHT - 1)).toThrow(/from ≤ to/);
    expect(() => periodKeys('day', Number.NaN, MIDNIGHT)).toThrow(/from ≤ to/);
    expect(() => periodKeys('day', 0, Number.POSITIVE_INFINITY)).toThrow(/from ≤ to/);
    expect(() => periodKeys(1_000, 0, 20_000_000)).toThrow(/more than 10000 periods; ask for a shorter span/);
  });

  test('a period a budget could not have (0, negative, NaN, a fraction, an unknown name) is refused like the budget option', () => {
    for (const period of [0, -1_000, Number.NaN, 1_500.5, 999, 'week', null]) {
      expect(() => periodKeys(period as never, 0, 1_000)).toThrow(
        /periodKeys: period must be 'day', 'month' or a whole number of milliseconds from 1000/,
      );
    }
  });
});
