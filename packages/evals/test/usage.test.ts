import { costScorer, latencyScorer, stepsScorer, tokensScorer } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { trialOf } from './helpers/trial.js';

const evalCase = { name: 'c', messages: 'hi' };

describe('steps, tokens, cost and latency', () => {
  it('steps: the model calls of the trial', () => {
    expect(stepsScorer.score(trialOf({ steps: 4 }), evalCase)).toBe(4);
  });

  it('tokens: input, cached, cache writes, output, reasoning and total, as reported', () => {
    const usage = {
      inputTokens: 1000,
      cacheReadTokens: 800,
      cacheWriteTokens: 100,
      outputTokens: 50,
      reasoningTokens: 30,
    };
    expect(tokensScorer.score(trialOf({ usage }), evalCase)).toEqual({
      metrics: { input: 1000, cached: 800, cacheWrite: 100, output: 50, reasoning: 30, total: 1050 },
    });
  });

  it('tokens the model did not report do not apply', () => {
    expect(tokensScorer.score(trialOf({ usage: { inputTokens: 10, outputTokens: 2 } }), evalCase)).toEqual({
      metrics: { input: 10, cached: null, cacheWrite: null, output: 2, reasoning: null, total: 12 },
    });
  });

  it("cost: core's estimate at the trial's price (uncached input, cache reads and writes, output)", () => {
    const usage = {
      inputTokens: 1_000_000,
      cacheReadTokens: 500_000,
      cacheWriteTokens: 100_000,
      outputTokens: 100_000,
    };
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    // 400k uncached × $3 + 500k × $0.30 + 100k × $3.75 + 100k × $15, per million
    expect(costScorer.score(trialOf({ usage, price }), evalCase)).toBeCloseTo(1.2 + 0.15 + 0.375 + 1.5, 10);
  });

  it('cost does not apply without a price or without usage', () => {
    expect(costScorer.score(trialOf({ usage: { inputTokens: 10 } }), evalCase)).toBeNull();
    expect(costScorer.score(trialOf({ price: { input: 1, output: 1 } }), evalCase)).toBeNull();
  });

  it('latency: the turns’ wall time, and the part spent on the model', () => {
    expect(latencyScorer.score(trialOf({ latencyMs: 1200, modelMs: 900 }), evalCase)).toEqual({
      value: 1200,
      metrics: { model: 900 },
    });
  });
});
