/**
 * Skill selection: did the model read the skills the case needs, and only those? Precision is the
 * share of counted reads that were needed, recall the share of needed skills that were read.
 */
import type { EvalCase, Scorer, ScorerOutput, TrialResult } from '../types.js';

const list = (names: Iterable<string>) => [...names].join(', ');

/** The selection scores of one trial; null when the case names no `reads`. */
export function scoreSelection(trial: TrialResult, evalCase: EvalCase): ScorerOutput {
  const expected = evalCase.expect?.reads;
  if (expected === undefined) return null;
  // Preloaded skills were not the model's choice: they count neither way.
  const preloaded = new Set(trial.preloaded);
  const needed = new Set(expected.filter((name) => !preloaded.has(name)));
  const free = new Set([...(evalCase.expect?.mayRead ?? []), ...preloaded]);
  const read = new Set(trial.reads.map((r) => r.name));
  // A read counts once, however often it was repeated; a read of a name the catalog lacks counts as unneeded.
  const counted = [...read].filter((name) => !free.has(name) || needed.has(name));
  const hits = counted.filter((name) => needed.has(name));
  const unneeded = counted.filter((name) => !needed.has(name));
  const missed = [...needed].filter((name) => !read.has(name));
  const precision = counted.length === 0 ? null : hits.length / counted.length;
  const recall = needed.size === 0 ? null : hits.length / needed.size;
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  const notes: string[] = [];
  const catalog = new Set(trial.catalog);
  if (missed.length > 0) notes.push(`missed: ${list(missed)}`);
  if (unneeded.length > 0) {
    const unknown = unneeded.filter((name) => !catalog.has(name));
    notes.push(
      `unneeded: ${list(unneeded)}${unknown.length > 0 ? ` (not in the catalog: ${list(unknown.map((n) => JSON.stringify(n)))})` : ''}`,
    );
  }
  return {
    metrics: { precision, recall, f1, unneeded: unneeded.length, missed: missed.length },
    notes,
  };
}

/**
 * `selection.precision`, `selection.recall`, `selection.f1`, `selection.unneeded` and
 * `selection.missed` (counts of skills). Applies to cases whose expectations name `reads`
 * (an empty list for a task that needs no skill).
 */
export const selectionScorer: Scorer = {
  name: 'selection',
  metrics: {
    precision: { description: 'of the skills read, the share that were needed (n/a when none was read)' },
    recall: { description: 'of the skills needed, the share that were read (n/a when none is needed)' },
    f1: { description: 'the harmonic mean of precision and recall' },
    unneeded: { better: 'lower', unit: 'count', description: 'skills read that the case does not need' },
    missed: { better: 'lower', unit: 'count', description: 'skills needed that were not read' },
  },
  score: scoreSelection,
};
