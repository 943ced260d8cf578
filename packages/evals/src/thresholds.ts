/**
 * Thresholds that fail a run: `selection.recall >= 0.9` (every variant), `cost@haiku < 0.01` (one
 * variant). They are checked against each variant's mean.
 */
import type { Stat } from './stats.js';
import type { Threshold } from './types.js';

/** A threshold checked against a variant. */
export interface ThresholdResult {
  /** Its place in the list of thresholds (the suite's, then the run's), from 0. */
  index: number;
  /** As written, e.g. `selection.recall >= 0.9`. */
  threshold: string;
  metric: string;
  variant: string;
  /** The variant's mean, or null when the metric had no value. */
  actual: number | null;
  passed: boolean;
  /** Why it failed. */
  message?: string;
}

const OPS = ['>=', '<=', '==', '>', '<'] as const;
const FORM = /^\s*([A-Za-z0-9_.-]+)(?:@([^\s<>=]+))?\s*(>=|<=|==|>|<)\s*(-?\d+(?:\.\d+)?|-?\.\d+)(%)?\s*$/;

/** Parses `metric[@variant] op number[%]`. Throws with the expected form when it is not one. */
export function parseThreshold(input: string | Threshold): Threshold {
  if (typeof input !== 'string') {
    if (!input || typeof input.metric !== 'string' || !OPS.includes(input.op) || typeof input.value !== 'number') {
      throw new Error(
        `A threshold is { metric, op: ${OPS.join(' | ')}, value, variant? } (got ${JSON.stringify(input)}).`,
      );
    }
    return input;
  }
  const m = FORM.exec(input);
  if (!m) {
    throw new Error(
      `Threshold "${input}": write <metric>[@<variant>] <op> <number>, e.g. "selection.recall >= 0.9" or "cost@haiku < 0.01" (op: ${OPS.join(' ')}).`,
    );
  }
  const value = Number(m[4]) / (m[5] ? 100 : 1);
  return { metric: m[1], op: m[3] as Threshold['op'], value, ...(m[2] ? { variant: m[2] } : {}) };
}

/** The threshold as text. */
export function thresholdText(t: Threshold): string {
  return `${t.metric}${t.variant ? `@${t.variant}` : ''} ${t.op} ${t.value}`;
}

function holds(actual: number, op: Threshold['op'], value: number): boolean {
  // A mean of ratios is rarely exact: compare with a little room for floating point.
  const eps = 1e-9;
  switch (op) {
    case '>=':
      return actual >= value - eps;
    case '>':
      return actual > value;
    case '<=':
      return actual <= value + eps;
    case '<':
      return actual < value;
    case '==':
      return Math.abs(actual - value) <= eps;
  }
}

/**
 * Checks each threshold against each variant it applies to. `means` maps variant → metric → stat.
 * A threshold on a metric with no value fails, and says which metrics there are.
 */
export function checkThresholds(
  thresholds: readonly Threshold[],
  variants: readonly string[],
  means: (variant: string, metric: string) => Stat | null,
  known: readonly string[],
): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  for (const [index, t] of thresholds.entries()) {
    if (t.variant !== undefined && !variants.includes(t.variant)) {
      out.push({
        index,
        threshold: thresholdText(t),
        metric: t.metric,
        variant: t.variant,
        actual: null,
        passed: false,
        message: `no variant "${t.variant}" (variants: ${variants.join(', ')})`,
      });
      continue;
    }
    for (const variant of t.variant ? [t.variant] : variants) {
      const s = means(variant, t.metric);
      const base = { index, threshold: thresholdText(t), metric: t.metric, variant };
      if (!s) {
        const message = known.includes(t.metric)
          ? `${t.metric} has no value for ${variant} (it applies to no case)`
          : `no metric "${t.metric}" (metrics: ${known.join(', ')})`;
        out.push({ ...base, actual: null, passed: false, message });
        continue;
      }
      const passed = holds(s.mean, t.op, t.value);
      out.push(
        passed
          ? { ...base, actual: s.mean, passed }
          : {
              ...base,
              actual: s.mean,
              passed,
              message: `${variant}: ${t.metric} is ${round(s.mean)}, needs ${t.op} ${t.value}`,
            },
      );
    }
  }
  return out;
}

const round = (n: number) => Number(n.toPrecision(4));
