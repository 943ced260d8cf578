/**
 * Where two JSON values differ, as paths (`messages[5].content[0].text`), with the two sides shown around
 * the first differing character.
 */

/** One difference: where, and what each side holds there (undefined: absent). */
export interface Difference {
  path: string;
  recorded: unknown;
  now: unknown;
}

const key = (path: string, k: string) =>
  /^[A-Za-z_$][\w$]*$/.test(k) ? (path ? `${path}.${k}` : k) : `${path}[${JSON.stringify(k)}]`;

/** Every difference between `recorded` and `now` (at most `limit`), in document order. */
export function differences(
  recorded: unknown,
  now: unknown,
  limit = 20,
  path = '',
  out: Difference[] = [],
): Difference[] {
  if (out.length >= limit) return out;
  if (Object.is(recorded, now)) return out;
  const bothArrays = Array.isArray(recorded) && Array.isArray(now);
  const bothObjects =
    !bothArrays &&
    recorded !== null &&
    now !== null &&
    typeof recorded === 'object' &&
    typeof now === 'object' &&
    !Array.isArray(recorded) &&
    !Array.isArray(now);
  if (bothArrays) {
    const a = recorded as unknown[];
    const b = now as unknown[];
    for (let i = 0; i < Math.max(a.length, b.length); i++) differences(a[i], b[i], limit, `${path}[${i}]`, out);
    return out;
  }
  if (bothObjects) {
    const a = recorded as Record<string, unknown>;
    const b = now as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])])
      differences(a[k], b[k], limit, key(path, k), out);
    return out;
  }
  out.push({ path: path || '(the request)', recorded, now });
  return out;
}

const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value));

/** The two sides of a difference, cut to a window around the first character where they differ. */
export function sideBySide(d: Difference, width = 60): { recorded: string; now: string } {
  const a = show(d.recorded);
  const b = show(d.now);
  if (a.length <= width && b.length <= width) return { recorded: a, now: b };
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const start = Math.max(0, i - Math.floor(width / 3));
  const cut = (s: string) =>
    `${start > 0 ? '…' : ''}${s.slice(start, start + width)}${s.length > start + width ? '…' : ''}`;
  return { recorded: cut(a), now: cut(b) };
}
