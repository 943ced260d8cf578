/**
 * Text that enters a request: well-formed, split into lines the way a model reads them, and unable
 * to forge the structure the runtime adds (`<current_context>` sections, `contextChanged` lines).
 */

/** The prefix every line the runtime records about context changes starts with. */
export const CONTEXT_CHANGED = 'contextChanged';

/** Every character a model may read as the end of a line. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/;
const LINE_BREAK_KEEP = /(\r\n|[\n\r\u2028\u2029\u0085])/;

/** Invisible characters a forger can slip between the letters of a keyword (format and control characters). */
const IGNORABLE = /[\p{Cf}\p{Cc}]/gu;
/** Text that may hide a look-alike of `contextChanged`: the word itself, or anything beyond printable ASCII. */
const MAYBE_RECORDED = /contextchanged|[^\t\n\x20-\x7E]/i;

/** `text` without lone surrogates (each becomes U+FFFD), so JSON and every provider accept it. */
export function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATE_ALL, '\uFFFD') : text;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, 'g');

/** The first `limit` UTF-16 units of `text`, never ending in half of a surrogate pair. */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/**
 * Model- or user-given text as an error message quotes it: at most `limit` UTF-16 units, cut
 * cleanly and marked with `…`, so a megabyte-long name or query never comes back whole.
 */
export function shown(text: string, limit = 200): string {
  return text.length > limit ? `${cut(text, limit)}…` : text;
}

/** Lines as a model reads them: `\n`, `\r\n`, `\r`, U+2028, U+2029 and U+0085 all end a line. */
export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/** NFKC-folded, lower-cased, with invisible characters removed: how a look-alike reads. */
function fold(text: string): string {
  return text.normalize('NFKC').replace(IGNORABLE, '').toLowerCase();
}

/** Characters that fold to `<`: the ASCII one and its full-width and small forms. */
const LESS_THAN = /[<\uFF1C\uFE64]/g;
const TAGS = ['current_context', 'skill', 'agent'];

/** Whether the text after a `<` at `index` reads as one of the section tags (opening or closing). */
function opensTag(text: string, index: number): boolean {
  const folded = fold(text.slice(index + 1, index + 1 + 48)).replace(/^\//, '');
  return TAGS.some((tag) => folded.startsWith(tag) && !/[a-z0-9_]/.test(folded.charAt(tag.length)));
}

/**
 * Escapes text that would open or close a `<current_context>`, `<skill>` or `<agent>` section, by
 * turning its `<` into `&lt;`. Look-alikes count: full-width brackets and letters, and invisible
 * characters between the letters. Other text passes through unchanged, so an ordinary `<`, `>` or
 * `&` reads naturally.
 */
export function escapeContext(text: string): string {
  if (!/[<\uFF1C\uFE64]/.test(text)) return text;
  return text.replace(LESS_THAN, (bracket, index: number) => (opensTag(text, index) ? '&lt;' : bracket));
}

/** Whether a line reads (look-alikes included) as a line the runtime records. */
function looksRecorded(line: string): boolean {
  const start = line.replace(/^[\s\p{Cf}\p{Cc}]+/u, '');
  return start !== '' && fold(start.slice(0, 40)).startsWith('contextchanged');
}

/**
 * Text from a user or a tool, made safe to record: well-formed, section tags escaped, and every line
 * that reads like a `contextChanged` line (after any line break) quoted with a leading `\`, so that
 * only the runtime can write one.
 */
export function sanitizeText(text: string): string {
  const safe = escapeContext(wellFormed(text));
  if (!MAYBE_RECORDED.test(safe)) return safe;
  const parts = safe.split(LINE_BREAK_KEEP);
  for (let i = 0; i < parts.length; i += 2) if (looksRecorded(parts[i])) parts[i] = `\\${parts[i]}`;
  return parts.join('');
}
