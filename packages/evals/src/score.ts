/**
 * Runs the scorers on a trial and names their metrics: a scorer's value is `<name>`, its other
 * metrics `<name>.<key>`; booleans become 1 or 0, and anything that is not a finite number is n/a.
 */
import type { EvalCase, MetricSpec, Scorer, ScoreValue, TrialResult } from './types.js';

/** A metric: its id and how it reads. */
export interface Metric extends MetricSpec {
  id: string;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Throws unless the scorers' names are valid and distinct. */
export function checkScorers(scorers: readonly Scorer[]): void {
  const seen = new Set<string>();
  for (const scorer of scorers) {
    if (!scorer || typeof scorer.score !== 'function' || typeof scorer.name !== 'string') {
      throw new Error('A scorer is { name, score(trial, evalCase) } (got something else).');
    }
    if (!NAME.test(scorer.name)) {
      throw new Error(`Scorer name ${JSON.stringify(scorer.name)}: use 1 to 64 letters, digits, "_" or "-".`);
    }
    if (seen.has(scorer.name)) throw new Error(`Two scorers are named "${scorer.name}": give each its own name.`);
    seen.add(scorer.name);
  }
}

const idOf = (scorer: string, key: string) => (key === '' ? scorer : `${scorer}.${key}`);

/** The metrics the scorers declare, in order. */
export function declaredMetrics(scorers: readonly Scorer[]): Metric[] {
  return scorers.flatMap((s) =>
    Object.entries(s.metrics ?? { '': {} }).map(([key, spec]) => ({ ...spec, id: idOf(s.name, key) })),
  );
}

function number(value: ScoreValue): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** What the scorers made of one trial: a value (or n/a) per metric, and their notes. */
export interface TrialScores {
  scores: Record<string, number | null>;
  notes: string[];
}

/** Runs every scorer on the trial. A scorer that throws gives no values and a note with its error. */
export async function scoreTrial(
  trial: TrialResult,
  evalCase: EvalCase,
  scorers: readonly Scorer[],
): Promise<TrialScores> {
  const scores: Record<string, number | null> = {};
  const notes: string[] = [];
  for (const scorer of scorers) {
    let out: Awaited<ReturnType<Scorer['score']>>;
    try {
      out = await scorer.score(trial, evalCase);
    } catch (error) {
      notes.push(`${scorer.name}: the scorer threw: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (out !== null && typeof out === 'object') {
      if (out.value !== undefined || !out.metrics) scores[scorer.name] = number(out.value);
      for (const [key, value] of Object.entries(out.metrics ?? {})) scores[idOf(scorer.name, key)] = number(value);
      for (const note of out.notes ?? [])
        notes.push(note.startsWith(`${scorer.name}`) ? note : `${scorer.name}: ${note}`);
    } else {
      scores[scorer.name] = number(out);
    }
  }
  return { scores, notes };
}
