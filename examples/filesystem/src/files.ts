/**
 * File operations inside a {@link Sandbox}. Every path goes through `sandbox.resolve`; the
 * results name files relative to the sandbox root, never by their absolute path.
 */
import type { Dirent } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from './sandbox.js';

/** Lines `read_file` returns at most per call. */
export const MAX_LINES = 400;
/** Bytes a file may have to be read, searched or edited. */
export const MAX_BYTES = 512 * 1024;
/** Directories the walk never enters. */
const SKIP_DIRS = new Set(['.git', 'node_modules']);

function isBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0);
}

async function readText(sandbox: Sandbox, real: string, input: string): Promise<string> {
  const info = await stat(real);
  if (info.isDirectory()) throw new Error(`"${input}" is a directory: use list_dir.`);
  if (info.size > MAX_BYTES)
    throw new Error(`"${input}" is ${info.size} bytes; files above ${MAX_BYTES} bytes are not read.`);
  const buffer = await readFile(real);
  if (isBinary(buffer)) throw new Error(`"${sandbox.display(real)}" is a binary file.`);
  return buffer.toString('utf8');
}

export async function listDir(sandbox: Sandbox, input: string): Promise<string> {
  const real = await sandbox.resolve(input);
  const entries = await readdir(real, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const lines: string[] = [];
  for (const entry of entries) {
    const full = path.join(real, entry.name);
    if (entry.isSymbolicLink()) {
      const target = await realpath(full).catch(() => null);
      lines.push(
        target && sandbox.contains(target)
          ? `${entry.name} -> ${sandbox.display(target)}`
          : `${entry.name} (symlink to outside the sandbox; cannot be used)`,
      );
    } else if (entry.isDirectory()) lines.push(`${entry.name}/`);
    else lines.push(`${entry.name} (${(await lstat(full)).size} bytes)`);
  }
  const where = sandbox.display(real);
  return lines.length === 0 ? `${where} is empty.` : `${where}:\n${lines.join('\n')}`;
}

export async function readLines(sandbox: Sandbox, input: string, from = 1, to?: number): Promise<string> {
  const real = await sandbox.resolve(input);
  const text = await readText(sandbox, real, input);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = Math.max(1, from);
  const last = Math.min(lines.length, to ?? lines.length, first + MAX_LINES - 1);
  const name = sandbox.display(real);
  if (lines.length === 0) return `${name} is empty.`;
  if (first > lines.length) return `${name} has ${lines.length} lines; line ${first} is past the end.`;
  const body = lines.slice(first - 1, last).map((line, i) => `${first + i}\t${line}`);
  const more = last < lines.length ? `\n(${lines.length - last} more lines: read from line ${last + 1}.)` : '';
  return `${name}, lines ${first}-${last} of ${lines.length}:\n${body.join('\n')}${more}`;
}

/** Every file under `start` (real, inside), as real paths; symlinks are followed only to files inside the sandbox. */
async function walk(sandbox: Sandbox, start: string, limit = 5000): Promise<string[]> {
  const out: string[] = [];
  const queue = [start];
  while (queue.length > 0 && out.length < limit) {
    const dir = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) queue.push(full);
      } else if (entry.isFile()) {
        out.push(full);
      } else if (entry.isSymbolicLink()) {
        // Never walk into linked directories (cycles, escapes); take linked files that stay inside.
        const target = await realpath(full).catch(() => null);
        if (target && sandbox.contains(target) && (await stat(target)).isFile()) out.push(full);
      }
    }
  }
  return out;
}

/** A glob (`*`, `**`, `?`) as a RegExp over `/`-separated relative paths. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export async function findFiles(sandbox: Sandbox, pattern: string, max = 200): Promise<string> {
  // A pattern without a slash matches file names anywhere, as `find -name` does.
  const byName = !pattern.includes('/');
  const regex = globToRegExp(pattern);
  const hits = (await walk(sandbox, sandbox.root))
    .map((file) => sandbox.display(file))
    .filter((rel) => regex.test(byName ? rel.slice(rel.lastIndexOf('/') + 1) : rel));
  if (hits.length === 0) return `No files match ${pattern}.`;
  const shown = hits.slice(0, max);
  const more = hits.length > max ? `\n(${hits.length - max} more; narrow the pattern.)` : '';
  return `${hits.length} file${hits.length === 1 ? '' : 's'} match ${pattern}:\n${shown.join('\n')}${more}`;
}

export async function grep(
  sandbox: Sandbox,
  pattern: string,
  input = '.',
  { ignoreCase = false, max = 50 }: { ignoreCase?: boolean; max?: number } = {},
): Promise<string> {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new Error(`Invalid regular expression ${pattern}: ${(error as Error).message}`);
  }
  const real = await sandbox.resolve(input);
  const files = (await stat(real)).isDirectory() ? await walk(sandbox, real) : [real];
  const hits: string[] = [];
  let total = 0;
  for (const file of files) {
    const info = await stat(file);
    if (info.size > MAX_BYTES) continue;
    const buffer = await readFile(file);
    if (isBinary(buffer)) continue;
    const lines = buffer.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i])) continue;
      total++;
      if (hits.length < max) hits.push(`${sandbox.display(file)}:${i + 1}: ${lines[i].trim().slice(0, 200)}`);
    }
  }
  const where = sandbox.display(real) === '.' ? 'the sandbox' : sandbox.display(real);
  if (total === 0) return `No matches for /${pattern}/${ignoreCase ? 'i' : ''} in ${where}.`;
  const more = total > max ? `\n(${total - max} more matches; narrow the search.)` : '';
  return `${total} match${total === 1 ? '' : 'es'}:\n${hits.join('\n')}${more}`;
}

/** What an edit replaced: the file's text before, or null when the edit created it. */
export interface Before {
  real: string;
  path: string;
  before: string | null;
}

export async function writeText(sandbox: Sandbox, input: string, content: string): Promise<Before> {
  const real = await sandbox.resolve(input, { mustExist: false });
  let before: string | null = null;
  try {
    before = await readText(sandbox, real, input);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(real), { recursive: true });
  await writeFile(real, content);
  return { real, path: sandbox.display(real), before };
}

export async function replaceText(sandbox: Sandbox, input: string, old: string, next: string): Promise<Before> {
  if (old === '') throw new Error('"old" must not be empty: quote the exact text to replace.');
  const real = await sandbox.resolve(input);
  const before = await readText(sandbox, real, input);
  const count = before.split(old).length - 1;
  if (count === 0)
    throw new Error(`The text to replace is not in ${sandbox.display(real)}. Read the file and quote it exactly.`);
  if (count > 1) {
    throw new Error(
      `The text to replace occurs ${count} times in ${sandbox.display(real)}; quote more of it so it occurs once.`,
    );
  }
  await writeFile(
    real,
    before.replace(old, () => next),
  );
  return { real, path: sandbox.display(real), before };
}

/** Puts a file back as it was before an edit (deletes it when the edit created it). */
export async function restore(sandbox: Sandbox, edit: Before): Promise<void> {
  // The real path was checked when the edit ran; check again, since links may have changed since.
  const real = await sandbox.resolve(edit.path, { mustExist: false });
  if (edit.before === null) await rm(real, { force: true });
  else await writeFile(real, edit.before);
}
