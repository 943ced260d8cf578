/**
 * The report as text for a terminal: one row per metric, one column per variant (mean ±spread over
 * trials) with the change from the first variant; then each case's success per variant, the
 * thresholds and the problems.
 */
import {
  comparable,
  ESTIMATE_NOTE,
  formatCell,
  formatChange,
  formatStat,
  fromTokens,
  NOT_COMPARED,
  NOT_COMPARED_NOTE,
  OFFLINE_NOTE,
} from './format.js';
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
  const [baseline, ...others] = report.variants;
  const header = ['metric', ...report.variants.flatMap((v, i) => (i === 0 ? [v.name] : [v.name, 'Δ']))];
  const rows = [header];
  let notCompared = false;
  for (const m of shown) {
    const row = [m.id];
    report.variants.forEach((v, i) => {
      row.push(formatCell(v.metrics[m.id], m, v));
      if (i === 0) return;
      const from = baseline.metrics[m.id]?.mean;
      const to = v.metrics[m.id]?.mean;
      if (from === undefined || to === undefined) row.push('');
      else if (!comparable(m, baseline, v)) {
        row.push(NOT_COMPARED);
        notCompared = true;
      } else row.push(formatChange(from, to, m));
    });
    rows.push(row);
  }
  const trials = report.variants.map((v) => v.trials).reduce((a, b) => a + b, 0);
  const lines = [
    `${report.name}: ${report.cases.length} cases × ${report.variants.length} variants, ${trials} trials`,
    '',
    grid(rows),
  ];
  // Say what the marks mean, and why a row is missing, under the rows they concern.
  if (report.variants.some((v) => v.estimated) && shown.some(fromTokens)) lines.push(ESTIMATE_NOTE);
  if (notCompared) lines.push(NOT_COMPARED_NOTE);
  if (report.variants.some((v) => v.offline) && wanted.includes('latency')) lines.push(OFFLINE_NOTE);
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
