/**
 * Skill selection: did the model read the skills the case needs, and only those, once? Precision is
 * the share of counted reads that were needed (a second read of a skill was not), recall the share
 * of needed skills that were read.
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
  // A read of a name the catalog lacks counts as unneeded.
  const countedName = (name: string) => !free.has(name) || needed.has(name);
  const counted = [...read].filter(countedName);
  const hits = counted.filter((name) => needed.has(name));
  const unneeded = counted.filter((name) => !needed.has(name));
  const missed = [...needed].filter((name) => !read.has(name));
  // Every read after a skill's first is a read the task did not need: a model step and its tokens
  // spent on text it already had (or had lost to its own reads), so it costs precision.
  const times = new Map<string, number>();
  for (const r of trial.reads) if (countedName(r.name)) times.set(r.name, (times.get(r.name) ?? 0) + 1);
  const again = [...times].filter(([, n]) => n > 1);
  const repeated = again.reduce((sum, [, n]) => sum + n - 1, 0);
  const reads = counted.length + repeated;
  const precision = reads === 0 ? null : hits.length / reads;
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
  if (again.length > 0) notes.push(`read again: ${list(again.map(([name, n]) => `${name} (${n} times)`))}`);
  if (unneeded.length > 0) {
    const unknown = unneeded.filter((name) => !catalog.has(name));
    notes.push(
      `unneeded: ${list(unneeded)}${unknown.length > 0 ? ` (not in the catalog: ${list(unknown.map((n) => JSON.stringify(n)))})` : ''}`,
    );
  }
  return {
    metrics: { precision, recall, f1, unneeded: unneeded.length, missed: missed.length, repeated },
    notes,
  };
}

/**
 * `selection.precision`, `selection.recall`, `selection.f1`, `selection.unneeded`,
 * `selection.missed` (counts of skills) and `selection.repeated` (reads of a skill already read). Applies to cases whose expectations name `reads`
 * (an empty list for a task that needs no skill).
 */
export const selectionScorer: Scorer = {
  name: 'selection',
  metrics: {
    precision: {
      description: 'of the reads, the share that were needed; a repeated read was not (n/a when none was read)',
    },
    recall: { description: 'of the skills needed, the share that were read (n/a when none is needed)' },
    f1: { description: 'the harmonic mean of precision and recall' },
    unneeded: { better: 'lower', unit: 'count', description: 'skills read that the case does not need' },
    missed: { better: 'lower', unit: 'count', description: 'skills needed that were not read' },
    repeated: { better: 'lower', unit: 'count', description: 'reads of a skill already read in the trial' },
  },
  score: scoreSelection,
};
