/**
 * Keys a suite may hold, and the check that a misspelt one fails at once: an expectation under a
 * wrong name (`toolcalls`, `notcalled`) would otherwise be skipped, and its case would pass without
 * checking what its author wrote.
 */

/** The keys of a suite. */
export const SUITE_KEYS = [
  'name',
  'agent',
  'model',
  'options',
  'cases',
  'variants',
  'scorers',
  'thresholds',
  'trials',
  'price',
] as const;

/** The keys of a case. */
export const CASE_KEYS = ['name', 'messages', 'files', 'stores', 'answers', 'expect', 'trials'] as const;

/** The keys of a case's expectations. */
export const EXPECT_KEYS = [
  'reads',
  'mayRead',
  'notRead',
  'toolCalls',
  'order',
  'notCalled',
  'waiting',
  'subagents',
  'text',
  'stores',
  'judge',
  'check',
] as const;

/** The keys of a variant. */
export const VARIANT_KEYS = ['name', 'agent', 'model', 'options', 'preload', 'price'] as const;

/** The keys of an expected tool call. */
export const CALL_KEYS = ['name', 'input'] as const;

/** The keys of a message given as an object. */
export const MESSAGE_KEYS = ['text', 'files'] as const;

/** Edit distance between two words (insertions, deletions, substitutions, adjacent swaps), case-blind. */
export function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...new Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

/** The valid key closest to `key` (ties: the first listed). */
export function closest(key: string, valid: readonly string[]): string {
  let best = valid[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of valid) {
    const d = distance(key, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The first key of `value` that is not in `valid`, as a sentence naming it, the closest valid key
 * and every valid one; null when every key is known. `prefix` is the path to the object (`expect.`),
 * `kind` what its keys are called (`an expectation`, `expectations`).
 */
export function unknownKey(
  value: object,
  valid: readonly string[],
  prefix: string,
  kind: readonly [one: string, many: string],
): string | null {
  const key = Object.keys(value).find((k) => !valid.includes(k));
  if (key === undefined) return null;
  return `${prefix}${key} is not ${kind[0]}; did you mean ${prefix}${closest(key, valid)}? (${kind[1]}: ${valid.join(', ')})`;
}
