/**
 * The frontmatter rules of the Agent Skills specification, and what lenient mode does with a
 * field that breaks one. Each broken rule is one {@link SkillFolderIssue}.
 */
import { TOOL_NAME } from '@skilltree/core/provider';
import type { SkillFolderIssue } from './frontmatter.js';
import { usableSkillName } from './names.js';

/** The fields the Agent Skills specification defines. Any other key is reported as unknown. */
export const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

/** The specification's length limits, in characters (Unicode code points). */
export const LIMITS = { name: 64, description: 1024, compatibility: 500 } as const;

/** The fields of a `SKILL.md` frontmatter, as checked and (in lenient mode) repaired. */
export interface SkillFrontmatter {
  /**
   * The skill's name: the frontmatter's `name`; in lenient mode, when that is missing or not a
   * name skilltree accepts (`^[a-zA-Z0-9_-]{1,64}$`), the folder name (cleaned the same way).
   */
  name: string;
  /**
   * The catalog line: the frontmatter's `description` with runs of whitespace made one space, and,
   * in lenient mode, cut to 1,024 characters (its last one `…`) when it is longer.
   */
  description: string;
  license?: string;
  compatibility?: string;
  /** String keys to string values (lenient mode turns other scalar values into strings). */
  metadata: Record<string, string>;
  /** `allowed-tools`, split on whitespace. Informational: skilltree does not enforce it. */
  allowedTools: string[];
}

const fmt = new Intl.NumberFormat('en-US');
const length = (text: string) => [...text].length;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function quote(text: string, max = 80): string {
  const chars = [...text];
  return JSON.stringify(chars.length > max ? `${chars.slice(0, max).join('')}…` : text);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The name rules that do not depend on the folder (lowercase letters, digits, hyphens; length). */
export function nameProblems(name: string): string[] {
  const problems: string[] = [];
  const n = length(name);
  if (n > LIMITS.name) problems.push(`must be at most ${LIMITS.name} characters (got ${n})`);
  const bad = [...name].filter((c) => c !== '-' && !(/[\p{L}\p{N}]/u.test(c) && c.toLowerCase() === c));
  if (bad.length > 0) {
    problems.push(
      `may contain only lowercase letters, digits and hyphens (got ${quote(name)}, with ${[...new Set(bad)]
        .map((c) => JSON.stringify(c))
        .join(' ')})`,
    );
  }
  if (name.startsWith('-') || name.endsWith('-'))
    problems.push(`must not start or end with a hyphen (got ${quote(name)})`);
  if (name.includes('--')) problems.push(`must not contain two hyphens in a row (got ${quote(name)})`);
  return problems;
}

/** The first line of the body that reads as a sentence (headings lose their `#`s), for a missing description. */
function firstLine(body: string): string {
  for (const raw of body.split('\n')) {
    const line = oneLine(raw.replace(/^#+\s*/, ''));
    if (line !== '') return [...line].slice(0, 200).join('');
  }
  return '';
}

/**
 * Checks a frontmatter against the specification. Returns the fields to use (repaired the lenient
 * way where a rule is broken), one issue per broken rule, and notes: what skilltree had to change
 * in a folder that follows the specification (warnings in both modes, never a refusal).
 */
export function checkFrontmatter(
  data: Record<string, unknown>,
  folderName: string,
  body: string,
): { fields: SkillFrontmatter; issues: SkillFolderIssue[]; notes: SkillFolderIssue[] } {
  const issues: SkillFolderIssue[] = [];
  const issue = (field: string, rule: string, lenient: string) => issues.push({ field, rule, lenient });

  // name
  let written = '';
  const rawName = data.name;
  const nameIssues: SkillFolderIssue[] = [];
  if (rawName === undefined || rawName === null || (typeof rawName === 'string' && rawName.trim() === '')) {
    nameIssues.push({ field: 'name', rule: 'is required', lenient: '' });
  } else if (!isScalar(rawName)) {
    nameIssues.push({ field: 'name', rule: `must be a string (got ${describe(rawName)})`, lenient: '' });
  } else {
    if (typeof rawName !== 'string') {
      nameIssues.push({ field: 'name', rule: `must be a string (got ${describe(rawName)})`, lenient: '' });
    }
    written = oneLine(String(rawName)).normalize('NFKC');
    for (const problem of nameProblems(written)) nameIssues.push({ field: 'name', rule: problem, lenient: '' });
    if (written !== folderName.normalize('NFKC')) {
      nameIssues.push({
        field: 'name',
        rule: `must equal the folder name ${quote(folderName)} (got ${quote(written)})`,
        lenient: '',
      });
    }
  }
  // The name to list: the written one if skilltree accepts it as a skill name, else the folder's.
  const name =
    written !== '' && usableSkillName(written) === written
      ? written
      : usableSkillName(oneLine(folderName).normalize('NFKC') || 'skill');
  for (const nameIssue of nameIssues) {
    nameIssue.lenient = name === written ? 'used as written' : `the skill is listed as ${quote(name)}`;
    issues.push(nameIssue);
  }
  // A name the specification allows (lowercase letters of any script) that skilltree does not.
  const notes: SkillFolderIssue[] = [];
  if (nameIssues.length === 0 && name !== written) {
    notes.push({
      field: 'name',
      rule: `${quote(written)} is not a skill name skilltree accepts (${TOOL_NAME.source})`,
      lenient: `the skill is listed as ${quote(name)}`,
    });
  }

  // description
  let description = '';
  const rawDescription = data.description;
  if (rawDescription === undefined || rawDescription === null) {
    issue('description', 'is required', '');
  } else if (!isScalar(rawDescription)) {
    issue('description', `must be a string (got ${describe(rawDescription)})`, '');
  } else {
    if (typeof rawDescription !== 'string') {
      issue('description', `must be a string (got ${describe(rawDescription)})`, 'read as text');
    }
    description = oneLine(String(rawDescription));
    if (description === '') issue('description', 'must not be empty', '');
    const n = length(description);
    if (n > LIMITS.description) {
      // Every request's catalog carries the description: a folder does not get to make it longer.
      description = `${[...description].slice(0, LIMITS.description - 1).join('')}…`;
      issue(
        'description',
        `must be at most ${fmt.format(LIMITS.description)} characters (got ${fmt.format(n)})`,
        `cut to ${fmt.format(LIMITS.description)} characters, the last one "…"`,
      );
    }
  }
  if (description === '') {
    const fallback = firstLine(body);
    description = fallback || `Agent Skill from the folder "${folderName}"`;
    const last = issues.at(-1);
    if (last?.field === 'description' && last.lenient === '') {
      last.lenient = fallback ? `the body's first line is used: ${quote(fallback)}` : `${quote(description)} is used`;
    }
  }

  // license
  let license: string | undefined;
  if (data.license !== undefined && data.license !== null) {
    if (typeof data.license === 'string') license = data.license;
    else if (isScalar(data.license)) {
      license = String(data.license);
      issue('license', `must be a string (got ${describe(data.license)})`, 'read as text');
    } else issue('license', `must be a string (got ${describe(data.license)})`, 'ignored');
  }

  // compatibility
  let compatibility: string | undefined;
  if (data.compatibility !== undefined && data.compatibility !== null) {
    if (!isScalar(data.compatibility)) {
      issue('compatibility', `must be a string (got ${describe(data.compatibility)})`, 'ignored');
    } else {
      if (typeof data.compatibility !== 'string') {
        issue('compatibility', `must be a string (got ${describe(data.compatibility)})`, 'read as text');
      }
      const text = String(data.compatibility).trim();
      const n = length(text);
      if (n === 0) issue('compatibility', 'must be 1 to 500 characters when given (got an empty value)', 'ignored');
      else {
        compatibility = text;
        if (n > LIMITS.compatibility) {
          issue(
            'compatibility',
            `must be at most ${LIMITS.compatibility} characters (got ${fmt.format(n)})`,
            'used as written',
          );
        }
      }
    }
  }

  // metadata
  const metadata: Record<string, string> = {};
  if (data.metadata !== undefined && data.metadata !== null) {
    const raw = data.metadata;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      issue('metadata', `must be a map of string keys to string values (got ${describe(raw)})`, 'ignored');
    } else {
      for (const [key, value] of Object.entries(raw)) {
        if (key === '__proto__') {
          // Assigning it would replace the map's prototype, not add a key.
          issue(`metadata.${key}`, 'is not a key skilltree accepts', 'ignored');
        } else if (typeof value === 'string') metadata[key] = value;
        else if (isScalar(value)) {
          metadata[key] = String(value);
          issue(`metadata.${key}`, `must be a string (got ${describe(value)}; quote it)`, 'read as text');
        } else if (value === null) {
          issue(`metadata.${key}`, 'must be a string (got null)', 'ignored');
        } else {
          metadata[key] = JSON.stringify(value);
          issue(`metadata.${key}`, `must be a string (got ${describe(value)})`, 'kept as JSON text');
        }
      }
    }
  }

  // allowed-tools
  let allowedTools: string[] = [];
  const rawTools = data['allowed-tools'];
  if (rawTools !== undefined && rawTools !== null) {
    if (typeof rawTools === 'string') allowedTools = rawTools.split(/\s+/).filter(Boolean);
    else if (Array.isArray(rawTools) && rawTools.every(isScalar)) {
      allowedTools = rawTools.map(String);
      issue('allowed-tools', 'must be a space-separated string (got a list)', 'read as the list it is');
    } else issue('allowed-tools', `must be a space-separated string (got ${describe(rawTools)})`, 'ignored');
  }

  // unknown keys
  for (const key of Object.keys(data)) {
    if (!(SPEC_FIELDS as readonly string[]).includes(key)) {
      issue(key, 'is not a field of the Agent Skills specification', 'ignored');
    }
  }

  const fields: SkillFrontmatter = { name, description, metadata, allowedTools };
  if (license !== undefined) fields.license = license;
  if (compatibility !== undefined) fields.compatibility = compatibility;
  return { fields, issues, notes };
}
