/**
 * Splits a `SKILL.md` into its YAML frontmatter and its Markdown body, and reads the frontmatter:
 * with the `yaml` package when it is valid YAML, else line by line as `key: value` pairs (what
 * real folders need: `description: Use when: the user asks` is not valid YAML, but its author
 * meant one string). Every departure from the format is returned as an issue; the caller decides
 * whether it is a warning (lenient) or a refusal (strict).
 */
import { parseDocument } from 'yaml';

/** One way a `SKILL.md` departs from the Agent Skills specification. */
export interface SkillFolderIssue {
  /**
   * What the rule is about: a frontmatter field (`name`, `metadata.version`, an unknown key), or
   * `frontmatter` (the block as a whole), or `SKILL.md` (the file itself).
   */
  field: string;
  /** The rule, as a sentence ending that follows the field, e.g. `must be at most 64 characters (got 70)`. */
  rule: string;
  /** What lenient mode does instead of refusing the folder, e.g. `used as written`. */
  lenient: string;
}

/** A `SKILL.md` split into its parts. */
export interface SkillFile {
  /** The frontmatter's keys and values (empty when there is none or it could not be read). */
  data: Record<string, unknown>;
  /** The Markdown after the frontmatter, without leading blank lines or trailing whitespace. */
  body: string;
  issues: SkillFolderIssue[];
}

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;
/** A top-level `key: value` line (the key is everything before the first colon). */
const KEY_LINE = /^([^\s:#'"][^:]*?)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * An object without a prototype, so that no key (`__proto__`, `constructor`, `prototype`) reaches
 * anything but the object's own data: `record.__proto__ = map` stores a key here, where on a plain
 * `{}` it would replace the prototype and lend the map's fields to every lookup.
 */
export function dataRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `value` with every mapping inside it copied into a {@link dataRecord}. */
function ownData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownData);
  if (!isPlainObject(value)) return value;
  const out = dataRecord<unknown>();
  for (const key of Object.keys(value)) out[key] = ownData(value[key]);
  return out;
}

/** Reads a `SKILL.md`'s text. Never throws: whatever it cannot read becomes an issue. */
export function parseSkillFile(source: string): SkillFile {
  const text = source.replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  const issues: SkillFolderIssue[] = [];
  if (!OPEN.test(lines[0] ?? '')) {
    issues.push({
      field: 'frontmatter',
      rule: 'is missing: SKILL.md must start with a "---" line, the YAML fields, and a closing "---" line',
      lenient: 'the whole file is read as the instructions',
    });
    return { data: dataRecord(), body: trimBody(lines), issues };
  }
  let close = lines.findIndex((line, index) => index > 0 && CLOSE.test(line));
  if (close === -1) {
    // Take the lines that look like frontmatter; the body starts at the first line that does not.
    close = 1;
    while (close < lines.length && (KEY_LINE.test(lines[close]) || /^[ \t]/.test(lines[close]))) close++;
    issues.push({
      field: 'frontmatter',
      rule: 'is not closed: a "---" line must end it',
      lenient: `lines 2–${close} are read as the frontmatter`,
    });
    const data = readLines(lines.slice(1, close));
    return { data, body: trimBody(lines.slice(close)), issues };
  }
  const yamlLines = lines.slice(1, close);
  const body = trimBody(lines.slice(close + 1));
  return { data: readYaml(yamlLines, issues), body, issues };
}

function trimBody(lines: string[]): string {
  let start = 0;
  while (start < lines.length && lines[start].trim() === '') start++;
  return lines.slice(start).join('\n').trimEnd();
}

function readYaml(lines: string[], issues: SkillFolderIssue[]): Record<string, unknown> {
  const doc = parseDocument(lines.join('\n'));
  if (doc.errors.length === 0) {
    let value: unknown;
    try {
      value = ownData(doc.toJS({ maxAliasCount: 100 }));
    } catch (error) {
      issues.push({
        field: 'frontmatter',
        rule: `is not valid YAML (${error instanceof Error ? error.message : String(error)})`,
        lenient: 'read line by line as key: value pairs',
      });
      return readLines(lines);
    }
    if (value === null || value === undefined) return dataRecord();
    if (isPlainObject(value)) return value;
    issues.push({
      field: 'frontmatter',
      rule: `must be a mapping of keys to values (got ${Array.isArray(value) ? 'a list' : `a ${typeof value}`})`,
      lenient: 'read line by line as key: value pairs',
    });
    return readLines(lines);
  }
  const error = doc.errors[0];
  // The frontmatter starts on line 2 of SKILL.md.
  const at = error.linePos?.[0];
  const fileLine = at ? at.line + 1 : undefined;
  const key = at ? topLevelKey(lines, at.line - 1) : undefined;
  const what = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const hint =
    error.code === 'BLOCK_AS_IMPLICIT_KEY' || error.code === 'MULTILINE_IMPLICIT_KEY'
      ? '; quote a value that holds ": "'
      : '';
  issues.push({
    field: key ?? 'frontmatter',
    rule: `is not valid YAML (${fileLine ? `SKILL.md line ${fileLine}${at ? `, column ${at.col}` : ''}: ` : ''}${what}${hint})`,
    lenient: 'the frontmatter is read line by line as key: value pairs',
  });
  return readLines(lines);
}

/** The top-level key a frontmatter line belongs to (the nearest key line at or above it). */
function topLevelKey(lines: string[], index: number): string | undefined {
  for (let i = Math.min(index, lines.length - 1); i >= 0; i--) {
    const match = KEY_LINE.exec(lines[i]);
    if (match) return match[1];
  }
  return undefined;
}

/** A scalar as written: surrounding quotes removed (`''` inside single quotes is one quote). */
function unquote(value: string): string {
  const text = value.trim();
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  return text;
}

/** Lines of a literal block, without their common indentation. */
function dedent(lines: string[]): string {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines
    .map((l) => l.slice(cut))
    .join('\n')
    .trimEnd();
}

const BLOCK_SCALAR = /^[|>][+-]?\d?[ \t]*(?:#.*)?$/;

/**
 * The lenient reading: each line `key: value` at column 0 is one field, its value everything after
 * the first colon. Indented lines under a key with no value are a map (`  key: value`) or a list
 * (`  - item`); under `|` or `>` they are the lines of a text; under any other value they continue it.
 * Later keys win over earlier ones. Every key is the record's own (see {@link dataRecord}).
 */
export function readLines(lines: string[]): Record<string, unknown> {
  const data = dataRecord<unknown>();
  let key: string | null = null;
  let mode: 'scalar' | 'block-literal' | 'block-folded' | 'open' = 'scalar';
  let parts: string[] = [];
  let map: Record<string, string> | null = null;
  let list: string[] | null = null;

  const finish = () => {
    if (key === null) return;
    if (map) data[key] = map;
    else if (list) data[key] = list;
    else if (mode === 'block-literal') data[key] = dedent(parts);
    else if (mode === 'open') data[key] = parts.length > 0 ? parts.join(' ') : null;
    else data[key] = parts.join(' ');
    key = null;
    map = null;
    list = null;
    parts = [];
  };

  for (const line of lines) {
    const top = /^[^\s#]/.test(line) ? KEY_LINE.exec(line) : null;
    if (top) {
      finish();
      key = top[1].trim();
      const value = top[2] ?? '';
      if (value.trim() === '') mode = 'open';
      else if (BLOCK_SCALAR.test(value.trim())) mode = value.trim().startsWith('|') ? 'block-literal' : 'block-folded';
      else {
        mode = 'scalar';
        parts = [unquote(value)];
      }
      continue;
    }
    if (key === null) continue;
    if (line.trim() === '') {
      if (mode === 'block-literal') parts.push('');
      continue;
    }
    if (/^\s*#/.test(line) && mode !== 'block-literal') continue;
    const indented = /^\s/.test(line);
    if (mode === 'open' && indented && parts.length === 0) {
      const item = /^\s+-(?:\s+(.*))?$/.exec(line);
      if (item && !map) {
        list ??= [];
        list.push(unquote(item[1] ?? ''));
        continue;
      }
      const entry = /^\s+([^\s:#][^:]*?)\s*:(?:\s+(.*)|\s*)$/.exec(line);
      if (entry && !list) {
        map ??= dataRecord<string>();
        map[entry[1]] = unquote(entry[2] ?? '');
        continue;
      }
    }
    if (map || list) continue;
    parts.push(mode === 'block-literal' ? line : line.trim());
  }
  finish();
  return data;
}
