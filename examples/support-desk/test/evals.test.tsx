/**
 * The desk's eval (evals/support-desk.eval.tsx), run as CI runs it: on the offline stand-in model.
 * describeEval turns each threshold and each case × variant into a test; the test below reads the
 * report for what the variants show side by side.
 */
import { type EvalReport, runEval } from '@skilltree/evals';
import { describeEval } from '@skilltree/evals/vitest';
import { beforeAll, expect, test } from 'vitest';
import suite from '../evals/support-desk.eval.js';

describeEval(suite, { print: false });

let report: EvalReport;
beforeAll(async () => {
  report = await runEval(suite);
});

const mean = (variant: string, metric: string) =>
  report.variants.find((v) => v.name === variant)?.metrics[metric]?.mean;

test('with the shipped catalog the desk reads what each request needs, and gets every request done', () => {
  expect(mean('shipped', 'selection.recall')).toBe(1);
  expect(mean('shipped', 'selection.precision')).toBe(1);
  expect(mean('shipped', 'success')).toBe(1);
  expect(mean('shipped', 'tools')).toBe(1);
});

test('a terse catalog costs selection and success: the deltas say by how much', () => {
  const recall = report.deltas.find((d) => d.variant === 'terse' && d.metric === 'selection.recall')!;
  expect(recall.from).toBe(1);
  expect(recall.to).toBeLessThan(0.5);
  expect(mean('terse', 'success')).toBeLessThan(mean('shipped', 'success')!);
});

test('everything loaded up front: every request done too, but every request carries every skill, and costs more', () => {
  expect(mean('all-loaded', 'success')).toBe(1);
  expect(mean('all-loaded', 'selection.recall')).toBeUndefined();
  const cost = report.deltas.find((d) => d.variant === 'all-loaded' && d.metric === 'cost')!;
  expect(cost.change).toBeGreaterThan(0);
  expect(cost.text).toMatch(/^cost \$\S+ → \$\S+ \(\+\d+(\.\d)?%\)$/);
});
