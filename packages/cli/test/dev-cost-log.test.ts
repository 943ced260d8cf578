/**
 * Rule: the Cost view lists every model call that reported usage, counts the ones that did not,
 * and prices steps and totals with `estimateCost` when a price is known.
 */
import { estimateCost, PRICES } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { CostLog } from '../src/commands/dev/cost-log.js';
import { parsePrice } from '../src/kit/cost.js';

describe('CostLog', () => {
  it('prices each step and the totals, counts steps without usage, and starts over on reset', () => {
    const log = new CostLog();
    const first = { inputTokens: 3_000, cacheWriteTokens: 2_048, outputTokens: 30 };
    const second = { inputTokens: 3_200, cacheReadTokens: 2_048, cacheWriteTokens: 200, outputTokens: 10 };
    log.step(1, 1, first);
    log.step(1, 2, undefined);
    log.step(2, 1, second);
    const price = parsePrice('claude-sonnet-4-5');
    const view = log.view(price);
    expect(view.price).toEqual({ price: PRICES.models['claude-sonnet-4-5'], label: price.label });
    expect(view.unreported).toBe(1);
    expect(view.steps.map((s) => [s.turn, s.step, s.usage, s.cost])).toEqual([
      [1, 1, first, estimateCost(first, 'claude-sonnet-4-5').total],
      [2, 1, second, estimateCost(second, 'claude-sonnet-4-5').total],
    ]);
    expect(view.total.usage).toEqual({
      inputTokens: 6_200,
      cacheReadTokens: 2_048,
      cacheWriteTokens: 2_248,
      outputTokens: 40,
    });
    expect(view.total.cost).toBeCloseTo(view.steps[0].cost! + view.steps[1].cost!, 12);

    const unpriced = log.view(undefined);
    expect(unpriced.price).toBeNull();
    expect(unpriced.steps.map((s) => s.cost)).toEqual([null, null]);
    expect(unpriced.total.cost).toBeNull();

    log.reset();
    expect(log.view(price)).toMatchObject({ steps: [], unreported: 0, total: { usage: {}, cost: 0 } });
  });
});
