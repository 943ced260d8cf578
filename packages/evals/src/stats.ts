/**
 * Summaries of repeated values: mean, spread, extremes.
 */

/** A metric summarised: mean, standard deviation (population), min, max, and how many values. */
export interface Stat {
  mean: number;
  sd: number;
  min: number;
  max: number;
  n: number;
}

/** The summary of the values that are numbers, or null when there are none. */
export function stat(values: readonly (number | null | undefined)[]): Stat | null {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (xs.length === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length);
  return { mean, sd, min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}

/**
 * A variant's metric over cases and trials. `mean` is the mean of the case means (each case counts
 * once, however many trials it ran). The spread is between repeated runs of the suite: round k is
 * the mean over cases of their k-th trial, and `sd`, `min` and `max` are over rounds; `n` counts
 * rounds. Null when no case has a value.
 */
export function acrossCases(perCase: readonly (readonly (number | null)[])[]): Stat | null {
  const means = perCase.map((trials) => stat(trials)?.mean ?? null);
  const overall = stat(means);
  if (!overall) return null;
  const rounds = Math.max(...perCase.map((t) => t.length));
  const roundMeans: (number | null)[] = [];
  for (let k = 0; k < rounds; k++) roundMeans.push(stat(perCase.map((t) => t[k] ?? null))?.mean ?? null);
  const spread = stat(roundMeans) ?? overall;
  return { mean: overall.mean, sd: spread.sd, min: spread.min, max: spread.max, n: spread.n };
}
