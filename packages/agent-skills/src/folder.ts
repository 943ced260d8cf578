/**
 * Reading one Agent Skills folder: its `SKILL.md` (frontmatter checked against the specification),
 * and the list of its files. Synchronous, because it runs while the agent's tree renders; cached
 * by the path and `SKILL.md`'s modification time and size. `SKILL.md` is read by the read tool's
 * rules: a regular file inside the folder, bounded in size, opened without blocking.
 */
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CheckedFile, checkInsideSync, RefusedPathError, readCheckedSync } from './checked-paths.js';
import { type FolderFile, formatSize, listFolder } from './folder-listing.js';
import { parseSkillFile, type SkillFolderIssue } from './frontmatter.js';
import { checkFrontmatter, type SkillFrontmatter } from './rules.js';

/** Everything read from one skill folder, as plain (JSON-safe) data. */
export interface SkillFolderInfo extends SkillFrontmatter {
  /** The folder, absolute, as given (symlinks not resolved). */
  path: string;
  /** The folder with every symlink resolved: the boundary the read tool keeps to. */
  realPath: string;
  /** The folder's own name (the last segment of {@link path}). */
  folderName: string;
  /** The `SKILL.md` file, absolute. */
  skillFile: string;
  /** The `SKILL.md` file as warnings name it: relative to the working directory when inside it. */
  displayFile: string;
  /** The Markdown body of `SKILL.md`: the skill's instructions. */
  body: string;
  /** The frontmatter as parsed, unknown keys included (a JSON copy). */
  frontmatter: Record<string, unknown>;
  /** Each rule the folder breaks. Empty for a folder that follows the specification. */
  issues: SkillFolderIssue[];
  /** The issues (and folder problems such as symlinks that leave it) as warning messages. */
  warnings: string[];
  /** The folder's files, sorted; see {@link filesComplete}. */
  files: FolderFile[];
  /** False when the folder holds more files than the listing walks (5,000). */
  filesComplete: boolean;
}

/**
 * The largest `SKILL.md` read, in bytes (256 KB). Its body is the skill's instructions, in every
 * request while the skill is loaded: the specification advises under 500 lines, and puts details
 * in `references/` files that the skill reads when it needs them.
 */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

/** Options of {@link readSkillFolder}. */
export interface ReadSkillFolderOptions {
  /** Throw a {@link SkillFolderError} for a folder that breaks any rule of the specification. Default false. */
  strict?: boolean;
}

/**
 * A folder that strict mode refuses. The message names the `SKILL.md` file, and each field with
 * the rule it breaks; {@link issues} holds them as data.
 */
export class SkillFolderError extends Error {
  override name = 'SkillFolderError';
  /** The `SKILL.md` file, absolute. */
  readonly file: string;
  /** The rules the folder breaks. */
  readonly issues: SkillFolderIssue[];

  /** @internal Use `readSkillFolder` or `loadSkillFolders`; `message` replaces the generated one. */
  constructor(file: string, displayFile: string, issues: SkillFolderIssue[], message?: string) {
    super(
      message ??
        `Agent Skills folder refused (strict mode): ${displayFile} breaks the specification:\n${issues
          .map((i) => `- ${fieldLabel(i.field)} ${i.rule}`)
          .join('\n')}`,
    );
    this.file = file;
    this.issues = issues;
  }
}

function fieldLabel(field: string): string {
  return field === 'frontmatter' || field === 'SKILL.md' ? `the ${field}` : `"${field}"`;
}

/** One issue as a warning message: the file, the field, the rule, and what lenient mode did. */
export function issueMessage(displayFile: string, issue: SkillFolderIssue): string {
  return `${displayFile}: ${fieldLabel(issue.field)} ${issue.rule}${issue.lenient ? `; ${issue.lenient}` : ''}.`;
}

/** A path or `file:` URL as an absolute path (relative paths resolve against the working directory). */
export function toPath(input: string | URL): string {
  if (input instanceof URL) return fileURLToPath(input);
  if (typeof input !== 'string' || input === '') {
    throw new Error(
      `An Agent Skills folder path must be a non-empty string or a file: URL (got ${JSON.stringify(input)}).`,
    );
  }
  return path.resolve(input.startsWith('file:') ? fileURLToPath(input) : input);
}

function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** The name of the folder's skill file: `SKILL.md`, or (a departure) another casing of it. */
function findSkillFile(dir: string, label: string): string | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new Error(`Agent Skills folder not found: ${dir} (working directory: ${process.cwd()}).`);
    if (code === 'ENOTDIR') throw new Error(`Not a folder: ${dir}. Pass the folder that holds SKILL.md.`);
    // The system's message carries the absolute path; name the folder as the caller did.
    if (code === 'ELOOP') {
      throw new Error(
        `Agent Skills folder ${label} is a symlink loop (it leads back to itself). Point it at a real folder.`,
      );
    }
    throw new Error(`Agent Skills folder ${label} cannot be read (${code ?? String(error)}).`);
  }
  if (names.includes('SKILL.md')) return 'SKILL.md';
  return names.find((n) => n.toLowerCase() === 'skill.md') ?? null;
}

/** True when `dir` holds a `SKILL.md` (any casing). Never throws. */
export function hasSkillFile(dir: string): boolean {
  try {
    return findSkillFile(dir, dir) !== null;
  } catch {
    return false;
  }
}

/** A folder as the caller named it (relative stays relative), for messages. */
export function labelOf(input: string | URL, dir: string): string {
  if (typeof input === 'string' && !input.startsWith('file:')) {
    return path.normalize(input).replace(/[\\/]+$/, '') || '.';
  }
  return display(dir);
}

/** What each rule of the read tool means for a `SKILL.md` it refuses: the rule broken, and the fix. */
function skillFileRefusal(error: RefusedPathError): { rule: string; fix: string } {
  switch (error.rule) {
    case 'outside':
      return {
        rule: 'must be a file inside the folder (it is a symlink that leads outside it)',
        fix: 'A folder skill reads only its own files: put the file itself in the folder instead of a link.',
      };
    case 'loop':
      return { rule: 'must be a file (it is a symlink loop)', fix: 'Replace the link with the file.' };
    case 'not-regular':
      return { rule: `must be a regular file (it is ${error.detail})`, fix: 'Replace it with a regular file.' };
    case 'too-large':
      return {
        rule: `must be at most ${formatSize(MAX_SKILL_FILE_BYTES)} (it is ${error.detail})`,
        fix: 'Keep SKILL.md short and move the details into files such as references/, which the skill reads when it needs them.',
      };
    default:
      return { rule: 'changed while it was being read', fix: 'Read the folder again.' };
  }
}

/**
 * A `SKILL.md` that cannot be read safely: refused in both modes (there is nothing to use in its
 * place), as a {@link SkillFolderError} whose message names the file as the caller named the folder.
 */
function refuseSkillFile(error: unknown, skillFile: string, label: string, fileName: string): Error {
  const labelFile = path.join(label, fileName);
  if (!(error instanceof RefusedPathError))
    return new Error(`Agent Skills folder ${label}: ${(error as Error).message}`);
  const { rule, fix } = skillFileRefusal(error);
  const issue: SkillFolderIssue = { field: 'SKILL.md', rule, lenient: 'the folder is left out' };
  return new SkillFolderError(skillFile, labelFile, [issue], `${REFUSED}${labelFile}: the SKILL.md ${rule}. ${fix}`);
}

const REFUSED = 'Agent Skills folder refused: ';

/** The warning for a folder whose `SKILL.md` cannot be read, when lenient `loadSkillFolders` leaves it out. */
export function leftOutWarning(error: SkillFolderError): string {
  return error.message.replace(REFUSED, 'Agent Skills folder left out: ');
}

interface CacheEntry {
  stamp: string;
  info: SkillFolderInfo;
}

const cache = new Map<string, CacheEntry>();

/**
 * Reads an Agent Skills folder: `SKILL.md`'s frontmatter (checked against the specification),
 * its body, and the folder's files. In lenient mode (the default) every departure from the
 * specification becomes a warning and a usable value; with `strict: true` it throws a
 * {@link SkillFolderError}. A missing folder or a folder without `SKILL.md` throws in both modes.
 *
 * Results are cached by path and `SKILL.md`'s modification time and size.
 *
 * @example
 * const info = readSkillFolder('./skills/pdf');
 * info.name; info.description; info.warnings;
 */
export function readSkillFolder(folder: string | URL, options: ReadSkillFolderOptions = {}): SkillFolderInfo {
  const dir = toPath(folder);
  return readFolderAs(dir, labelOf(folder, dir), options);
}

/**
 * {@link readSkillFolder} for a folder named `label` in messages (`loadSkillFolders` names each
 * sub-folder below the folder it was given).
 * @internal
 */
export function readFolderAs(dir: string, label: string, options: ReadSkillFolderOptions = {}): SkillFolderInfo {
  const fileName = findSkillFile(dir, label);
  if (!fileName) throw new Error(`No SKILL.md in ${dir}: an Agent Skills folder holds a SKILL.md file.`);
  const skillFile = path.join(dir, fileName);
  const realPath = realpathSync(dir);
  let checked: CheckedFile;
  try {
    checked = checkInsideSync(realPath, fileName, MAX_SKILL_FILE_BYTES);
  } catch (error) {
    throw refuseSkillFile(error, skillFile, label, fileName);
  }
  const { stats } = checked;
  const stamp = `${fileName}:${checked.real}:${stats.mtimeMs}:${stats.size}:${stats.ino}`;
  let entry = cache.get(dir);
  if (!entry || entry.stamp !== stamp) {
    let text: string;
    try {
      text = readCheckedSync(checked, MAX_SKILL_FILE_BYTES);
    } catch (error) {
      throw refuseSkillFile(error, skillFile, label, fileName);
    }
    entry = { stamp, info: read(dir, realPath, fileName, skillFile, text) };
    cache.set(dir, entry);
  }
  const { info } = entry;
  if (options.strict && info.issues.length > 0)
    throw new SkillFolderError(info.skillFile, info.displayFile, info.issues);
  return info;
}

/**
 * A JSON copy (YAML can hold values JSON cannot, such as `.inf` or a recursive alias), without
 * `__proto__` keys: a copy made with `Object.assign` or a deep merge would set a prototype from one.
 */
function jsonCopy(data: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(data), (key, value) => (key === '__proto__' ? undefined : value)) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}

function read(dir: string, realPath: string, fileName: string, skillFile: string, text: string): SkillFolderInfo {
  const folderName = path.basename(dir);
  const displayFile = display(skillFile);
  const parsed = parseSkillFile(text);
  const { fields, issues: fieldIssues, notes } = checkFrontmatter(parsed.data, folderName, parsed.body);
  const issues = [...parsed.issues, ...fieldIssues];
  if (fileName !== 'SKILL.md') {
    issues.unshift({
      field: 'SKILL.md',
      rule: `must be named exactly "SKILL.md" (found "${fileName}")`,
      lenient: 'read anyway',
    });
  }
  const listing = listFolder(realPath);
  const warnings = [...issues, ...notes].map((issue) => issueMessage(displayFile, issue));
  const folderLabel = display(dir);
  for (const link of listing.escapes) {
    warnings.push(
      `${folderLabel}: "${link}" is a symlink that leads outside the folder; it is not listed and cannot be read.`,
    );
  }
  for (const link of listing.broken) {
    warnings.push(`${folderLabel}: "${link}" is a symlink whose target does not exist; it is not listed.`);
  }
  return {
    ...fields,
    path: dir,
    realPath,
    folderName,
    skillFile,
    displayFile,
    body: parsed.body,
    frontmatter: jsonCopy(parsed.data),
    issues,
    warnings,
    files: listing.files,
    filesComplete: listing.complete,
  };
}
