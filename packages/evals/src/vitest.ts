/**
 * `@skilltree/evals/vitest`: `describeEval` runs an eval suite as a Vitest suite. The trials run
 * once, before the tests; each threshold is a test, and each case × variant is a test that fails
 * when its trials could not run as asked (a replay that differs, an agent that does not mount).
 *
 * @packageDocumentation
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { progressPrinter } from './progress.js';
import type { EvalReport } from './report.js';
import { type RunEvalOptions, runEval } from './run-eval.js';
import { formatTable, type TableOptions } from './table.js';
import { thresholdText } from './thresholds.js';
import type { EvalSuite } from './types.js';
import { writeReport } from './write.js';

/** Options of {@link describeEval}. */
export interface DescribeEvalOptions extends RunEvalOptions {
  /** Milliseconds the whole run may take. Default 600 000 (10 minutes). */
  timeout?: number;
  /** Files to write the report to after the run (`.html` or `.json`). */
  reports?: readonly string[];
  /** Print progress and the table on stderr. Default true. */
  print?: boolean;
  /** What the table shows. */
  table?: TableOptions;
  /** Called with the report once the run ends, e.g. to assert on deltas. */
  onReport?: (report: EvalReport) => void | Promise<void>;
}

/**
 * Declares a Vitest suite for `suite`: the eval runs in `beforeAll`; then one test per threshold
 * (`selection.recall >= 0.9 [variant]`) and one per case × variant. The table is printed on stderr
 * after the run.
 *
 * @example
 * import { describeEval } from '@skilltree/evals/vitest';
 * import suite from './support-desk.eval.js';
 * describeEval(suite, { reports: ['eval-report.html'] });
 */
export function describeEval(suite: EvalSuite, options: DescribeEvalOptions = {}): void {
  const { timeout = 600_000, reports = [], print = true, table, onReport, ...run } = options;
  describe(suite.name, () => {
    let report: EvalReport | undefined;
    let failure: unknown;
    beforeAll(async () => {
      try {
        report = await runEval(suite, { ...run, ...(print ? { onProgress: progressPrinter(process.stderr) } : {}) });
        for (const file of reports) writeReport(report, file);
        await onReport?.(report);
      } catch (error) {
        failure = error;
      }
    }, timeout);
    afterAll(() => {
      if (print && report) process.stderr.write(`\n${formatTable(report, table)}`);
    });
    const ran = (): EvalReport => {
      if (failure) throw failure;
      if (!report) throw new Error(`The eval "${suite.name}" did not run.`);
      return report;
    };
    const thresholds = [...(suite.thresholds ?? []), ...(run.thresholds ?? [])];
    const variants = (suite.variants?.length ? suite.variants.map((v) => v.name) : ['default']).filter(
      (v) => !run.variants || run.variants.includes(v),
    );
    for (const [index, threshold] of thresholds.entries()) {
      const label = typeof threshold === 'string' ? threshold.trim() : thresholdText(threshold);
      test(`threshold: ${label}`, () => {
        const failed = ran()
          .thresholds.filter((t) => t.index === index && !t.passed)
          .map((t) => t.message);
        expect(failed, `${label} failed`).toEqual([]);
      });
    }
    for (const c of suite.cases) {
      for (const variant of variants) {
        test(`${c.name} [${variant}]`, () => {
          const result = ran().cases.find((x) => x.name === c.name)?.variants[variant];
          if (!result) return; // left out by the cases filter
          const broken = result.trials
            .filter((t) => t.error && t.error.kind !== 'turn')
            .map((t) => `#${t.trial}: ${t.error!.message}`);
          expect(broken, 'trials that could not run as asked').toEqual([]);
        });
      }
    }
    test('the run has no problems', () => {
      expect(ran().problems).toEqual([]);
    });
  });
}
