/**
 * Subagents: did the model hand the task to the subagents the case needs, and only those, and what
 * did the runs cost? Precision is the share of spawned subagents (by name) that were needed, recall
 * the share of needed ones that were spawned; the usage metrics read each run's own usage.
 */
import { estimateCost } from '@skilltree/core';
import type { EvalCase, Scorer, ScorerOutput, TrialResult } from '../types.js';

const tokens = (u: { inputTokens?: number; outputTokens?: number }) => (u.inputTokens ?? 0) + (u.outputTokens ?? 0);

/**
 * The subagent scores of one trial; null when the case names no `subagents` and the trial spawned
 * none (nothing to say).
 */
export function scoreSubagents(trial: TrialResult, evalCase: EvalCase): ScorerOutput {
  const expected = evalCase.expect?.subagents;
  const runs = trial.subagentRuns ?? [];
  if (expected === undefined && runs.length === 0) return null;
  const notes: string[] = [];
  let precision: number | null = null;
  let recall: number | null = null;
  if (expected !== undefined) {
    const needed = new Set(expected);
    const spawned = new Set(runs.map((r) => r.name));
    const hits = [...spawned].filter((name) => needed.has(name));
    const unneeded = [...spawned].filter((name) => !needed.has(name));
    const missed = [...needed].filter((name) => !spawned.has(name));
    precision = spawned.size === 0 ? null : hits.length / spawned.size;
    recall = needed.size === 0 ? null : hits.length / needed.size;
    if (missed.length > 0) notes.push(`not spawned: ${missed.join(', ')}`);
    if (unneeded.length > 0) notes.push(`spawned, not needed: ${unneeded.join(', ')}`);
  }
  const failed = runs.filter((r) => r.status !== 'done');
  for (const run of failed) notes.push(`${run.name} ${run.status}${run.error ? `: ${run.error}` : ''}`);
  // Nested runs' usage is in their parent run's: sum the top-level runs only.
  const top = runs.filter((r) => r.depth === 1);
  const runTokens = top.reduce((sum, r) => sum + tokens(r.usage), 0);
  const trialTokens = tokens(trial.usage);
  const reported = top.some((r) => r.usage.inputTokens !== undefined || r.usage.outputTokens !== undefined);
  const cost =
    trial.price && reported ? top.reduce((sum, r) => sum + estimateCost(r.usage, trial.price!).total, 0) : null;
  return {
    metrics: {
      precision,
      recall,
      runs: runs.length,
      failed: failed.length,
      tokens: reported ? runTokens : null,
      share: reported && trialTokens > 0 ? runTokens / trialTokens : null,
      cost,
    },
    notes,
  };
}

/**
 * `subagents.precision`, `subagents.recall` (against the case's `expect.subagents`),
 * `subagents.runs`, `subagents.failed` (runs that did not finish), `subagents.tokens` (the runs'
 * input + output tokens), `subagents.share` (their share of the trial's tokens) and
 * `subagents.cost` (their estimate in US dollars). Applies to cases that name `subagents` and to
 * trials that spawned any.
 */
export const subagentScorer: Scorer = {
  name: 'subagents',
  metrics: {
    precision: { description: 'of the subagents spawned, the share the case needs (n/a when none was spawned)' },
    recall: { description: 'of the subagents the case needs, the share spawned (n/a when none is needed)' },
    runs: { better: 'none', unit: 'count', description: 'subagent runs, nested ones included' },
    failed: { better: 'lower', unit: 'count', description: 'runs that failed, were stopped or did not finish' },
    tokens: { better: 'lower', unit: 'tokens', description: "the runs' input + output tokens" },
    share: { better: 'none', description: "the runs' share of the trial's tokens" },
    cost: { better: 'lower', unit: 'usd', description: "the runs' estimated cost in US dollars" },
  },
  score: scoreSubagents,
};
