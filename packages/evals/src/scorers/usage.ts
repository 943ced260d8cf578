/**
 * What a trial cost: model calls, tokens, an estimate in dollars (core's `estimateCost`, priced by
 * the variant's price or the model's list price) and time.
 */
import { estimateCost, type Usage } from '@skilltree/core';
import type { Scorer, TrialResult } from '../types.js';

/** A token count as usage reports it, or null when the model did not report it. */
const count = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** `steps`: model calls in the trial. */
export const stepsScorer: Scorer = {
  name: 'steps',
  metrics: { '': { better: 'lower', unit: 'count', description: 'model calls' } },
  score: (trial) => trial.steps,
};

/**
 * `tokens.input` (every input token, cached or not), `tokens.cached` (read from the prompt cache),
 * `tokens.cacheWrite`, `tokens.output`, `tokens.reasoning` (the part of output spent reasoning, when
 * the model reports it) and `tokens.total` (input + output).
 */
export const tokensScorer: Scorer = {
  name: 'tokens',
  metrics: {
    input: { better: 'lower', unit: 'tokens', description: 'input tokens, cached or not' },
    cached: { better: 'none', unit: 'tokens', description: 'input tokens read from the prompt cache' },
    cacheWrite: { better: 'none', unit: 'tokens', description: 'input tokens written to the prompt cache' },
    output: { better: 'lower', unit: 'tokens', description: 'output tokens' },
    reasoning: { better: 'lower', unit: 'tokens', description: 'output tokens spent reasoning' },
    total: { better: 'lower', unit: 'tokens', description: 'input + output tokens' },
  },
  score: (trial) => {
    const u: Usage & { reasoningTokens?: number } = trial.usage;
    const input = count(u.inputTokens);
    const output = count(u.outputTokens);
    return {
      metrics: {
        input,
        cached: count(u.cacheReadTokens),
        cacheWrite: count(u.cacheWriteTokens),
        output,
        reasoning: count(u.reasoningTokens),
        total: input === null && output === null ? null : (input ?? 0) + (output ?? 0),
      },
    };
  },
};

/** The estimated cost of a trial in US dollars, or null without a price or usage. */
export function trialCost(trial: TrialResult): number | null {
  if (!trial.price || (trial.usage.inputTokens === undefined && trial.usage.outputTokens === undefined)) return null;
  return estimateCost(trial.usage, trial.price).total;
}

/** `cost`: the estimate in US dollars (n/a without a price: set the suite's or variant's `price`). */
export const costScorer: Scorer = {
  name: 'cost',
  metrics: { '': { better: 'lower', unit: 'usd', description: 'estimated cost in US dollars' } },
  score: trialCost,
};

/**
 * `latency` (wall time of the turns, ms) and `latency.model` (the part spent waiting for the model).
 * Not scored for a trial on a scripted or replayed model (`trial.offline`): its time is the
 * harness's, and a difference between variants would come from run order and concurrency.
 */
export const latencyScorer: Scorer = {
  name: 'latency',
  metrics: {
    '': {
      better: 'lower',
      unit: 'ms',
      description: 'wall time of the turns (not scored on a scripted or replayed model)',
    },
    model: { better: 'lower', unit: 'ms', description: 'time spent waiting for the model' },
  },
  score: (trial) =>
    trial.offline
      ? { value: null, metrics: { model: null } }
      : { value: trial.latencyMs, metrics: { model: trial.modelMs } },
};
