/**
 * The report as text for a terminal: one row per metric, one column per variant (mean ±spread over
 * trials) with the change from the first variant; then each case's success per variant, the
 * thresholds and the problems.
 */
import { formatStat, summaryNotes, summaryRows } from './format.js';
import type { EvalReport } from './report.js';
import type { Metric } from './score.js';

/** The metrics a table shows unless told otherwise (those with a value). */
export const TABLE_METRICS: readonly string[] = [
  'success',
  'selection.precision',
  'selection.recall',
  'tools',
  'judge',
  'steps',
  'tokens.input',
  'tokens.cached',
  'tokens.output',
  'tokens.reasoning',
  'cost',
  'latency',
];

/** Options of {@link formatTable}. */
export interface TableOptions {
  /** The metric rows, in order. Default: {@link TABLE_METRICS} plus the custom scorers' values. */
  metrics?: readonly string[];
  /** Leave out the per-case table. Default false. */
  summaryOnly?: boolean;
}

function grid(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const BUILT_IN_PREFIXES = ['success', 'selection', 'tools', 'steps', 'tokens', 'cost', 'latency'];

/** The report as a plain-text table (no colors), ending with a newline. */
export function formatTable(report: EvalReport, options: TableOptions = {}): string {
  const byId = new Map(report.metrics.map((m) => [m.id, m]));
  const custom = report.metrics.filter(
    (m) => !m.id.includes('.') && !BUILT_IN_PREFIXES.includes(m.id) && !TABLE_METRICS.includes(m.id),
  );
  const wanted = options.metrics ?? [...TABLE_METRICS, ...custom.map((m) => m.id)];
  const shown = wanted.map((id) => byId.get(id)).filter((m): m is Metric => m !== undefined);
  const [, ...others] = report.variants;
  const header = ['metric', ...report.variants.flatMap((v, i) => (i === 0 ? [v.name] : [v.name, 'Δ']))];
  const summary = summaryRows(report.variants, shown);
  const rows = [
    header,
    ...summary.map((r) => [
      r.metric.id,
      ...r.cells.flatMap((c) => (c.change === undefined ? [c.text] : [c.text, c.change?.text ?? ''])),
    ]),
  ];
  const trials = report.variants.map((v) => v.trials).reduce((a, b) => a + b, 0);
  const lines = [
    `${report.name}: ${report.cases.length} cases × ${report.variants.length} variants, ${trials} trials`,
    '',
    grid(rows),
  ];
  // Say what the marks mean, and why a row is missing, under the rows they concern.
  lines.push(...summaryNotes(report.variants, summary, wanted.includes('latency')));
  const success = byId.get('success');
  if (!options.summaryOnly && success) {
    const caseRows = [['case', ...report.variants.map((v) => v.name)]];
    for (const c of report.cases)
      caseRows.push([c.name, ...report.variants.map((v) => formatStat(c.variants[v.name]?.metrics.success, success))]);
    lines.push('', 'success by case', grid(caseRows));
  }
  if (others.length > 0 && report.deltas.length > 0) {
    // The headline changes: the quality metrics, then cost.
    const headline = report.deltas.filter(
      (d) =>
        ['success', 'selection.recall', 'selection.precision', 'tools', 'cost'].includes(d.metric) && d.change !== 0,
    );
    if (headline.length > 0) {
      lines.push('', 'changes against the first variant');
      for (const d of headline) lines.push(`  ${d.variant}: ${d.text}`);
    }
  }
  if (report.thresholds.length > 0) {
    lines.push('', 'thresholds');
    for (const t of report.thresholds)
      lines.push(
        `  ${t.passed ? '✓' : '✗'} ${t.threshold}${t.variant ? ` [${t.variant}]` : ''}${t.passed ? '' : `: ${t.message}`}`,
      );
  }
  if (report.problems.length > 0) {
    lines.push('', 'problems');
    for (const p of report.problems) lines.push(`  ✗ ${p}`);
  }
  lines.push('', report.passed ? 'passed' : 'FAILED');
  return `${lines.join('\n')}\n`;
}
