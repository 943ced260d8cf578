/**
 * `@skilltree/evals/format`: numbers of a report as people read them, by the metric's unit: ratios
 * with two decimals, dollars, tokens with separators, milliseconds as ms or s; deltas as a
 * difference (ratios) or a percentage (the rest). No Node APIs: a browser page (the playground's
 * report view) uses it too.
 *
 * @packageDocumentation
 */
import type { Metric } from './score.js';
import type { Stat } from './stats.js';
import type { ThresholdResult } from './thresholds.js';
import type { RequestAttribution, ToolCallRecord } from './types.js';

const unitOf = (metric: Pick<Metric, 'unit'> | undefined) => metric?.unit ?? 'ratio';

/** One value in the metric's unit; `—` for none. */
export function formatValue(value: number | null | undefined, metric?: Pick<Metric, 'unit'>): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  switch (unitOf(metric)) {
    case 'ratio':
      return value.toFixed(2);
    case 'usd':
      return value === 0 ? '$0' : Math.abs(value) < 1 ? `$${value.toPrecision(3)}` : `$${value.toFixed(2)}`;
    case 'ms':
      return Math.abs(value) < 1000 ? `${Math.round(value)}ms` : `${(value / 1000).toFixed(1)}s`;
    case 'tokens':
      return Math.round(value).toLocaleString('en-US');
    case 'count':
      return Number.isInteger(value) ? String(value) : value.toFixed(1);
  }
}

/** A stat as `mean ±sd` (the spread only when there were repeated rounds that differ). */
export function formatStat(s: Stat | null | undefined, metric?: Pick<Metric, 'unit'>): string {
  if (!s) return '—';
  const spread = s.n > 1 && s.sd > 0 ? ` ±${formatValue(s.sd, metric).replace(/^\$/, '$')}` : '';
  return `${formatValue(s.mean, metric)}${spread}`;
}

/** The change from `from` to `to`: `+0.29` for ratios, `+8%` for the rest (`new` when `from` is 0). */
export function formatChange(from: number, to: number, metric?: Pick<Metric, 'unit'>): string {
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '−' : '±');
  if (unitOf(metric) === 'ratio') return `${sign(to - from)}${Math.abs(to - from).toFixed(2)}`;
  if (from === 0) return to === 0 ? '±0%' : 'new';
  const pct = ((to - from) / Math.abs(from)) * 100;
  return `${sign(pct)}${Math.abs(pct) < 10 ? Math.abs(pct).toFixed(1).replace(/\.0$/, '') : Math.round(Math.abs(pct))}%`;
}

/** `selection.recall 0.62 → 0.91 (+0.29)`. */
export function formatDelta(metric: Metric, from: number, to: number): string {
  return `${metric.id} ${formatValue(from, metric)} → ${formatValue(to, metric)} (${formatChange(from, to, metric)})`;
}

/** Whether a metric is counted in tokens or priced from them (`tokens.*`, `cost`): a scripted model only estimates these. */
export function fromTokens(metric: Pick<Metric, 'unit'>): boolean {
  return metric.unit === 'tokens' || metric.unit === 'usd';
}

/** What a variant says of its numbers: whether its token counts are estimates. */
export interface Estimated {
  estimated?: boolean;
}

/**
 * Whether `variant`'s value of `metric` can be compared with `baseline`'s: token counts (and cost)
 * estimated from characters are not compared with counts a provider reported.
 */
export function comparable(metric: Pick<Metric, 'unit'>, baseline: Estimated, variant: Estimated): boolean {
  return !fromTokens(metric) || (baseline.estimated === true) === (variant.estimated === true);
}

/** A variant's stat as a table cell: {@link formatStat}, with `~` before a token count or cost that is an estimate. */
export function formatCell(s: Stat | null | undefined, metric: Pick<Metric, 'unit'>, variant: Estimated): string {
  const text = formatStat(s, metric);
  return s && variant.estimated === true && fromTokens(metric) ? `~${text}` : text;
}

/** Marks an estimate in a table. */
export const ESTIMATE_NOTE = '~ estimated from characters by a scripted model, not counted by a provider';
/** Stands for a change that is not computed (an estimate against reported counts). */
export const NOT_COMPARED = 'n/c';
/** Says why a change is not computed. */
export const NOT_COMPARED_NOTE = 'n/c: an estimate is not compared with counts a provider reported';
/** Says why latency is missing. */
export const OFFLINE_NOTE =
  "latency is not scored on a scripted or replayed model: its time is the harness's, not a model's";

/**
 * How a variant's change from the first reads: `better` or `worse` by the metric's direction,
 * `even` (no change, or a metric with no better side), `not-compared` (an estimate against
 * reported counts: shown as {@link NOT_COMPARED}).
 */
export type ChangeTone = 'better' | 'worse' | 'even' | 'not-compared';

/** One cell of the summary: a variant's value of a metric and, past the first variant, its change. */
export interface SummaryCell {
  /** The value as {@link formatCell} writes it. */
  text: string;
  /** The change from the first variant: absent on the first, `null` where either has no value. */
  change?: { text: string; tone: ChangeTone } | null;
}

/** What the summary reads of a report's variant (a `VariantReport` is one). */
export interface SummaryVariant extends Estimated {
  /** Its stat per metric id. */
  metrics: Record<string, Stat | null>;
  /** Whether some trials ran on a scripted or replayed model (latency is then not scored). */
  offline?: boolean;
}

/** One row of the summary: a metric, and a cell per variant in the report's order. */
export interface SummaryRow {
  metric: Metric;
  cells: SummaryCell[];
}

function toneOf(metric: Pick<Metric, 'better'>, change: number): ChangeTone {
  if (change === 0 || metric.better === 'none') return 'even';
  return ((metric.better ?? 'higher') === 'higher') === change > 0 ? 'better' : 'worse';
}

/**
 * The summary every report view shows (the terminal table, the HTML page, the playground): per
 * metric each variant's value and its change from the first variant, decided once here.
 */
export function summaryRows(variants: readonly SummaryVariant[], metrics: readonly Metric[]): SummaryRow[] {
  const [baseline] = variants;
  return metrics.map((metric) => ({
    metric,
    cells: variants.map((v, i): SummaryCell => {
      const text = formatCell(v.metrics[metric.id], metric, v);
      if (i === 0) return { text };
      const from = baseline.metrics[metric.id]?.mean;
      const to = v.metrics[metric.id]?.mean;
      if (from === undefined || to === undefined) return { text, change: null };
      if (!comparable(metric, baseline, v)) return { text, change: { text: NOT_COMPARED, tone: 'not-compared' } };
      return { text, change: { text: formatChange(from, to, metric), tone: toneOf(metric, to - from) } };
    }),
  }));
}

/**
 * What the summary's marks mean, for the rows shown: `~` on an estimate, {@link NOT_COMPARED} on a
 * change not computed, and (when the view shows latency) why latency is missing offline.
 */
export function summaryNotes(
  variants: readonly SummaryVariant[],
  rows: readonly SummaryRow[],
  showsLatency = true,
): string[] {
  const estimated = variants.some((v) => v.estimated) && rows.some((r) => fromTokens(r.metric));
  const notCompared = rows.some((r) => r.cells.some((c) => c.change?.tone === 'not-compared'));
  return [
    estimated ? ESTIMATE_NOTE : '',
    notCompared ? NOT_COMPARED_NOTE : '',
    showsLatency && variants.some((v) => v.offline) ? OFFLINE_NOTE : '',
  ].filter(Boolean);
}

/**
 * A tool call as a trial line shows it: its name, then how it was answered and what became of it
 * unless it simply ran: `refund (approved)`, `refund (waiting)`, `refund (denied)`.
 */
export function formatCall(call: Pick<ToolCallRecord, 'name' | 'ok' | 'status' | 'answer'>): string {
  const tags: string[] = [];
  if (call.answer) tags.push(call.answer === 'approve' ? 'approved' : call.answer === 'deny' ? 'denied' : 'answered');
  const status = call.status ?? (call.ok ? 'ok' : 'error');
  if (status !== 'ok' && !tags.includes(status)) tags.push(status);
  return tags.length > 0 ? `${call.name} (${tags.join(', ')})` : call.name;
}

/**
 * What each part of the tree cost, as one line: `2,410 tokens: instructions 31 · catalog 118 ·
 * skill refunds 386 (tools 310) · transcript 1,840 · machinery 35`. Parts that cost nothing are left
 * out; each skill shows its tools when they cost anything.
 */
export function formatAttribution(a: RequestAttribution): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const parts: string[] = [];
  const add = (label: string, value: number) => {
    if (value > 0) parts.push(`${label} ${n(value)}`);
  };
  add('instructions', a.instructions);
  add('text', a.text);
  add('tools', a.tools);
  add('catalog', a.catalog);
  for (const [name, cost] of Object.entries(a.skills)) {
    parts.push(`skill ${name} ${n(cost.total)}${cost.tools > 0 ? ` (tools ${n(cost.tools)})` : ''}`);
  }
  add('transcript', a.transcript);
  add('machinery', a.machinery);
  return `${n(a.total)} tokens: ${parts.join(' · ')}`;
}

/** A variant as a report's heading names it: `oracle (claude-haiku-4-5, 3 trials)`. */
export function formatVariantHeading(variant: { name: string; models: readonly string[]; trials: number }): string {
  return `${variant.name} (${variant.models.join(', ')}, ${variant.trials} trials)`;
}

/**
 * A threshold checked against a variant, as the HTML page and the playground list it:
 * `✓ success >= 0.9 [oracle]`, or `✗ … [careless]: <why it failed>`.
 */
export function formatThresholdResult(
  result: Pick<ThresholdResult, 'threshold' | 'variant' | 'passed' | 'message'>,
): string {
  return `${result.passed ? '✓' : '✗'} ${result.threshold} [${result.variant}]${result.message ? `: ${result.message}` : ''}`;
}
