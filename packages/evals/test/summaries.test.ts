import {
  acrossCases,
  checkThresholds,
  formatChange,
  formatDelta,
  formatStat,
  formatValue,
  parseThreshold,
  stat,
} from '@skilltree/evals';
import { describe, expect, it } from 'vitest';

describe('mean and spread', () => {
  it('stat: mean, population sd, min, max over the numbers (n/a values left out)', () => {
    expect(stat([1, 0, null, 1, 0])).toEqual({ mean: 0.5, sd: 0.5, min: 0, max: 1, n: 4 });
    expect(stat([null, undefined])).toBeNull();
  });

  it('across cases: the mean of case means; the spread between rounds of the suite', () => {
    // Case a: trials 1, 0; case b: trials 1, 1. Round means 1 and 0.5.
    expect(
      acrossCases([
        [1, 0],
        [1, 1],
      ]),
    ).toEqual({ mean: 0.75, sd: 0.25, min: 0.5, max: 1, n: 2 });
    // Each case counts once, however many trials it ran.
    expect(acrossCases([[1, 1, 1, 1], [0]])?.mean).toBe(0.5);
    expect(acrossCases([[null], [null]])).toBeNull();
  });
});

describe('thresholds', () => {
  it('parses metric, an optional variant, the operator and the number (or a percentage)', () => {
    expect(parseThreshold('selection.recall >= 0.9')).toEqual({ metric: 'selection.recall', op: '>=', value: 0.9 });
    expect(parseThreshold('cost@haiku<0.01')).toEqual({ metric: 'cost', op: '<', value: 0.01, variant: 'haiku' });
    expect(parseThreshold('success >= 90%')).toEqual({ metric: 'success', op: '>=', value: 0.9 });
  });

  it('refuses what it cannot read, showing the form', () => {
    expect(() => parseThreshold('recall is high')).toThrow(/write <metric>\[@<variant>\] <op> <number>/);
    expect(() => parseThreshold({ metric: 'x', op: '=>' as never, value: 1 })).toThrow(/A threshold is/);
  });

  it('checks each variant’s mean; a missing metric or variant fails and says what there is', () => {
    const stats: Record<string, Record<string, number>> = { a: { success: 0.95 }, b: { success: 0.5 } };
    const results = checkThresholds(
      [parseThreshold('success >= 0.9'), parseThreshold('recal >= 0.9'), parseThreshold('success@c >= 0')],
      ['a', 'b'],
      (v, m) => (stats[v]?.[m] === undefined ? null : { mean: stats[v][m], sd: 0, min: 0, max: 0, n: 1 }),
      ['success'],
    );
    expect(results.map((r) => [r.variant, r.passed, r.message])).toEqual([
      ['a', true, undefined],
      ['b', false, 'b: success is 0.5, needs >= 0.9'],
      ['a', false, 'no metric "recal" (metrics: success)'],
      ['b', false, 'no metric "recal" (metrics: success)'],
      ['c', false, 'no variant "c" (variants: a, b)'],
    ]);
  });
});

describe('formatting', () => {
  it('values by unit', () => {
    expect(formatValue(0.625)).toBe('0.63');
    expect(formatValue(0.0123, { unit: 'usd' })).toBe('$0.0123');
    expect(formatValue(12.5, { unit: 'usd' })).toBe('$12.50');
    expect(formatValue(12840.4, { unit: 'tokens' })).toBe('12,840');
    expect(formatValue(340, { unit: 'ms' })).toBe('340ms');
    expect(formatValue(1250, { unit: 'ms' })).toBe('1.3s');
    expect(formatValue(null)).toBe('—');
  });

  it('a stat shows its spread only when rounds differ', () => {
    expect(formatStat({ mean: 0.75, sd: 0.25, min: 0.5, max: 1, n: 2 })).toBe('0.75 ±0.25');
    expect(formatStat({ mean: 1, sd: 0, min: 1, max: 1, n: 3 })).toBe('1.00');
  });

  it('deltas: ratios as a difference, the rest as a percentage', () => {
    expect(formatDelta({ id: 'selection.recall' }, 0.62, 0.91)).toBe('selection.recall 0.62 → 0.91 (+0.29)');
    expect(formatDelta({ id: 'cost', unit: 'usd' }, 0.012, 0.01296)).toBe('cost $0.0120 → $0.0130 (+8%)');
    expect(formatChange(200, 150, { unit: 'tokens' })).toBe('−25%');
    expect(formatChange(0, 3, { unit: 'count' })).toBe('new');
  });
});
