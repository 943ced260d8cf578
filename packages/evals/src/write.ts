/**
 * Writes a report to a file: `.html` as the self-contained page, anything else as JSON.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { renderHtml } from './html.js';
import type { EvalReport } from './report.js';

/**
 * Writes `report` to `file` (folders made as needed): HTML for a `.html` or `.htm` name, else JSON.
 *
 * @example
 * writeReport(report, 'eval-report.html');
 */
export function writeReport(report: EvalReport, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const html = /\.html?$/i.test(file);
  writeFileSync(file, html ? renderHtml(report) : `${JSON.stringify(report, null, 2)}\n`);
}
