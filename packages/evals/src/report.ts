/**
 * The report of a run, as JSON data: per variant and per case the metrics (mean and spread over
 * trials), every trial with its requests and transcript, the deltas against the baseline variant
 * and the thresholds. Tables, the HTML report and the playground all read this.
 */
import { messagesOf } from './case-turns.js';
import { comparable, formatDelta } from './format.js';
import type { Metric, TrialScores } from './score.js';
import { acrossCases, type Stat, stat } from './stats.js';
import { checkThresholds, type ThresholdResult } from './thresholds.js';
import type { EvalCase, Threshold, TrialResult } from './types.js';

/** One trial in the report: what happened, its scores and the scorers' notes. */
export interface TrialReport extends TrialResult, TrialScores {}

/** A case on one variant. */
export interface CaseVariantReport {
  metrics: Record<string, Stat | null>;
  trials: TrialReport[];
}

/** A case: its conversation, its expectations (as data) and its results per variant. */
export interface CaseReport {
  name: string;
  messages: string[];
  /** The expectations with RegExps as their source text and functions as `"(function)"`. */
  expect: unknown;
  variants: Record<string, CaseVariantReport>;
}

/** A variant: its model and its metrics over every case. */
export interface VariantReport {
  name: string;
  /** The model names its trials used. */
  models: string[];
  metrics: Record<string, Stat | null>;
  trials: number;
  /** Trials that ended early, by kind. */
  errors: { turn: number; recording: number; setup: number };
  /**
   * True when some token counts are estimates (a scripted model's): its token and cost values are
   * not compared with a variant whose counts a provider reported.
   */
  estimated: boolean;
  /** True when some trials ran on a scripted or replayed model: latency is not scored for them. */
  offline?: boolean;
}

/** A variant's metric against the baseline's (token counts and cost only between variants whose counts are both estimates, or both reported). */
export interface Delta {
  metric: string;
  baseline: string;
  variant: string;
  from: number;
  to: number;
  /** `to - from`. */
  change: number;
  /** `(to - from) / |from|`, null when `from` is 0. */
  relative: number | null;
  /** `selection.recall 0.62 → 0.91 (+0.29)`. */
  text: string;
}

/** The whole report. */
export interface EvalReport {
  format: 'skilltree-eval-report';
  version: 1;
  name: string;
  /** ISO time the run started. */
  startedAt: string;
  durationMs: number;
  /** The metrics with a value, in the scorers' order. */
  metrics: Metric[];
  variants: VariantReport[];
  cases: CaseReport[];
  /** Every variant after the first against the first. */
  deltas: Delta[];
  thresholds: ThresholdResult[];
  /** Trials the harness could not run as asked (a replay that differs, an agent that does not mount). */
  problems: string[];
  /** True when every threshold holds and there are no problems. */
  passed: boolean;
}

/** One scored trial, as the runner hands it over. */
export interface ScoredTrial {
  evalCase: EvalCase;
  result: TrialResult;
  scores: TrialScores;
}

const serializable = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value ?? null, (_key, v) =>
      v instanceof RegExp ? String(v) : typeof v === 'function' ? '(function)' : v,
    ),
  );

/** Builds the report from the scored trials (in any order). */
export function buildReport(input: {
  name: string;
  startedAt: Date;
  durationMs: number;
  cases: readonly EvalCase[];
  variants: readonly string[];
  trials: readonly ScoredTrial[];
  metrics: readonly Metric[];
  thresholds: readonly Threshold[];
}): EvalReport {
  const { variants, metrics: declared } = input;
  const seen = new Set(input.trials.flatMap((t) => Object.keys(t.scores.scores)));
  const withValue = (id: string) => input.trials.some((t) => typeof t.scores.scores[id] === 'number');
  const metrics: Metric[] = [
    ...declared.filter((m) => withValue(m.id)),
    ...[...seen].filter((id) => !declared.some((m) => m.id === id) && withValue(id)).map((id) => ({ id })),
  ];
  const trialsOf = (caseName: string, variant: string) =>
    input.trials
      .filter((t) => t.result.case === caseName && t.result.variant === variant)
      .sort((a, b) => a.result.trial - b.result.trial);
  const values = (trials: readonly ScoredTrial[], id: string) => trials.map((t) => t.scores.scores[id] ?? null);
  const cases: CaseReport[] = input.cases.map((c) => ({
    name: c.name,
    messages: messagesOf(c),
    expect: serializable(c.expect ?? {}),
    variants: Object.fromEntries(
      variants.map((v) => {
        const trials = trialsOf(c.name, v);
        return [
          v,
          {
            metrics: Object.fromEntries(metrics.map((m) => [m.id, stat(values(trials, m.id))])),
            trials: trials.map((t) => ({ ...t.result, ...t.scores })),
          },
        ];
      }),
    ),
  }));
  const variantReports: VariantReport[] = variants.map((v) => {
    const all = input.trials.filter((t) => t.result.variant === v);
    const errors = { turn: 0, recording: 0, setup: 0 };
    for (const t of all) if (t.result.error) errors[t.result.error.kind]++;
    return {
      name: v,
      models: [...new Set(all.map((t) => t.result.model))],
      metrics: Object.fromEntries(
        metrics.map((m) => [m.id, acrossCases(input.cases.map((c) => values(trialsOf(c.name, v), m.id)))]),
      ),
      trials: all.length,
      errors,
      estimated: all.some((t) => t.result.usage.estimated === true),
      offline: all.some((t) => t.result.offline === true),
    };
  });
  const deltas: Delta[] = [];
  const [baseline, ...others] = variantReports;
  for (const other of others) {
    for (const m of metrics) {
      const from = baseline.metrics[m.id]?.mean;
      const to = other.metrics[m.id]?.mean;
      if (from === undefined || to === undefined || !comparable(m, baseline, other)) continue;
      deltas.push({
        metric: m.id,
        baseline: baseline.name,
        variant: other.name,
        from,
        to,
        change: to - from,
        relative: from === 0 ? null : (to - from) / Math.abs(from),
        text: formatDelta(m, from, to),
      });
    }
  }
  const known = metrics.map((m) => m.id);
  const thresholds = checkThresholds(
    input.thresholds,
    variants,
    (variant, metric) => variantReports.find((r) => r.name === variant)?.metrics[metric] ?? null,
    [...new Set([...known, ...declared.map((m) => m.id)])],
  );
  const problems = input.trials
    .filter((t) => t.result.error && t.result.error.kind !== 'turn')
    .map((t) => `${t.result.case} [${t.result.variant} #${t.result.trial}]: ${t.result.error!.message}`);
  return {
    format: 'skilltree-eval-report',
    version: 1,
    name: input.name,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    metrics,
    variants: variantReports,
    cases,
    deltas,
    thresholds,
    problems,
    passed: problems.length === 0 && thresholds.every((t) => t.passed),
  };
}
