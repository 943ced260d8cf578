/**
 * Matchers: does a value (a tool's input, a store's state) look like what a case expects? Objects
 * match when every key the matcher names matches (extra keys are fine), arrays element by element
 * with the same length, RegExps test the value as text, functions are predicates, anything else is `===`.
 */

/** Where `actual` first fails `expected`, as `path: why`, or null when it matches. */
export function mismatch(actual: unknown, expected: unknown, path = ''): string | null {
  const at = path || 'value';
  if (typeof expected === 'function') {
    let ok: unknown;
    try {
      ok = (expected as (value: unknown) => unknown)(actual);
    } catch (error) {
      return `${at}: the predicate threw (${error instanceof Error ? error.message : String(error)})`;
    }
    return ok === false || typeof ok === 'string'
      ? `${at}: ${typeof ok === 'string' ? ok : 'fails the predicate'}`
      : null;
  }
  if (expected instanceof RegExp) {
    const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
    expected.lastIndex = 0;
    return typeof text === 'string' && expected.test(text)
      ? null
      : `${at}: ${preview(actual)} does not match ${expected}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${preview(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const inner = mismatch(actual[i], expected[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${at}: expected an object, got ${preview(actual)}`;
    }
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key)) return `${path ? `${path}.` : ''}${key}: missing`;
      const inner = mismatch(
        (actual as Record<string, unknown>)[key],
        (expected as Record<string, unknown>)[key],
        path ? `${path}.${key}` : key,
      );
      if (inner) return inner;
    }
    return null;
  }
  return Object.is(actual, expected) ? null : `${at}: expected ${preview(expected)}, got ${preview(actual)}`;
}

/** True when `actual` matches `expected` (see {@link mismatch}). */
export function matches(actual: unknown, expected: unknown): boolean {
  return mismatch(actual, expected) === null;
}

/** A value as short text for a message. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
