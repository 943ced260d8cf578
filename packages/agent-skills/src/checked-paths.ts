/**
 * Resolving a path the model gives inside a skill folder (relative only; `..`, absolute paths and
 * symlinks that leave the folder are refused) and opening it so that what was checked is what is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats, statSync } from 'node:fs';
import { type FileHandle, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { contains, formatSize } from './folder-listing.js';

/** Which rule refused a path: see {@link RefusedPathError}. */
export type RefusalRule = 'path' | 'outside' | 'loop' | 'not-regular' | 'too-large' | 'changed';

/** A path the model may not use, with a message that says why. The tool reports it as an error result. */
export class RefusedPathError extends Error {
  override name = 'RefusedPathError';
  /** The rule it breaks, for callers that phrase their own message (a `SKILL.md` refusal). */
  readonly rule: RefusalRule;
  /** What the path is when it is not a regular file (`a named pipe (FIFO)`), or its size when too large. */
  readonly detail: string;

  constructor(message: string, rule: RefusalRule = 'path', detail = '') {
    super(message);
    this.rule = rule;
    this.detail = detail;
  }
}

/**
 * `input`, a path the model (or a folder's own layout) gives relative to a folder, as its segments
 * and the form messages show. Refuses absolute paths, any `..` segment and NUL bytes.
 */
function relativeSegments(input: string): { segments: string[]; display: string } {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new RefusedPathError('A path is required, relative to the skill folder (e.g. "references/REFERENCE.md").');
  }
  if (input.includes('\0')) throw new RefusedPathError('Refused: the path contains a NUL byte.');
  const slashed = input.trim().replace(/\\/g, '/');
  if (path.isAbsolute(input) || slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) {
    throw new RefusedPathError(
      `Refused: "${input}" is an absolute path. Give a path relative to the skill folder (e.g. "references/REFERENCE.md").`,
    );
  }
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) {
    throw new RefusedPathError(`Refused: "${input}" uses "..". Paths stay inside the skill folder.`);
  }
  return { segments, display: segments.join('/') || '.' };
}

/**
 * What a failed `realpath` (or `stat`) of a folder path means, as an error that names the path the
 * way the model gave it: never the machine's absolute path, which the system's message carries.
 */
function pathError(error: unknown, display: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new Error(`No such file in the skill folder: "${display}".`);
  if (code === 'ELOOP') {
    return new RefusedPathError(
      `Refused: "${display}" is a symlink loop (it leads back to itself); it cannot be read.`,
      'loop',
    );
  }
  if (code === 'EACCES' || code === 'EPERM') return new Error(`"${display}" cannot be read: permission denied.`);
  return new Error(`"${display}" cannot be read (${code ?? 'error'}).`);
}

/** The refusal for a real path outside `root`, or nothing when it is inside. */
function checkInside(root: string, real: string, display: string): void {
  if (!contains(root, real)) {
    throw new RefusedPathError(
      `Refused: "${display}" is a symlink that leads outside the skill folder. Only the folder's own files can be read.`,
      'outside',
    );
  }
}

/**
 * The real path of `input`, a path relative to the folder `root` (a real path). Refuses absolute
 * paths, any `..` segment, NUL bytes, symlink loops, and a path whose real location (symlinks
 * resolved) is outside `root`. Throws a plain Error for a path that does not exist.
 */
export async function resolveInside(root: string, input: string): Promise<{ real: string; display: string }> {
  const { segments, display } = relativeSegments(input);
  let real: string;
  try {
    real = await realpath(path.join(root, ...segments));
  } catch (error) {
    throw pathError(error, display);
  }
  checkInside(root, real, display);
  return { real, display };
}

/** What a file that is not a regular file is, for refusals. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a symlink';
  return 'not a regular file';
}

/**
 * The rule every file a folder skill reads keeps, checked before it is opened and again on the
 * opened handle (so a file swapped in between is caught): a regular file (not a named pipe, whose
 * read would wait forever, nor a device such as `/dev/zero`, which never ends), and, with
 * `maxBytes`, at most that large.
 */
export function checkRegular(stats: Stats, display: string, maxBytes?: number): void {
  if (!stats.isFile()) {
    throw new RefusedPathError(
      `Refused: "${display}" is ${kindOf(stats)}, not a regular file. Only the folder's own regular files can be read.`,
      'not-regular',
      kindOf(stats),
    );
  }
  if (maxBytes !== undefined && stats.size > maxBytes) {
    throw new RefusedPathError(
      `Refused: "${display}" is ${formatSize(stats.size)}; at most ${formatSize(maxBytes)} is read.`,
      'too-large',
      formatSize(stats.size),
    );
  }
}

/**
 * How a folder file is opened: read-only, without following a symlink in the last segment (the
 * path is a real path already; a link there now was swapped in), and without waiting for a writer
 * should it have become a named pipe since it was checked.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The same file: what was checked by path is what was opened. */
function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function swapped(display: string): RefusedPathError {
  return new RefusedPathError(`Refused: "${display}" changed while it was being read; read it again.`, 'changed');
}

/** Opens a checked folder file (see {@link checkRegular}) and checks the opened handle again. */
export async function openChecked(real: string, display: string, checked: Stats): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw swapped(display);
    throw pathError(error, display);
  }
  try {
    const stats = await handle.stat();
    checkRegular(stats, display);
    if (!sameFile(checked, stats)) throw swapped(display);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A folder file that passed the checks by path, to be read with {@link readCheckedSync}. */
export interface CheckedFile {
  /** The real path, inside the folder. */
  real: string;
  /** The path relative to the folder, as messages show it. */
  display: string;
  /** What `stat` said when it was checked. */
  stats: Stats;
}

/**
 * Checks a folder's file by path, synchronously (a `SKILL.md` is read while the tree renders), by
 * the same rules as the read tool: a path relative to `root` (a real path) whose real location is
 * inside it, a regular file, at most `maxBytes`. Throws a {@link RefusedPathError} (or, for a
 * missing file, a plain Error) that names `input`, never the machine's absolute path.
 */
export function checkInsideSync(root: string, input: string, maxBytes: number): CheckedFile {
  const { segments, display } = relativeSegments(input);
  let real: string;
  let stats: Stats;
  try {
    real = realpathSync(path.join(root, ...segments));
    stats = statSync(real);
  } catch (error) {
    throw pathError(error, display);
  }
  checkInside(root, real, display);
  checkRegular(stats, display, maxBytes);
  return { real, display, stats };
}

/**
 * Reads a file {@link checkInsideSync} passed, whole: opened without blocking and checked again
 * once open (the same file, still regular), and never more than `maxBytes`, however it grew.
 */
export function readCheckedSync(file: CheckedFile, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(file.real, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw swapped(file.display);
    throw pathError(error, file.display);
  }
  try {
    const stats = fstatSync(fd);
    checkRegular(stats, file.display, maxBytes);
    if (!sameFile(file.stats, stats)) throw swapped(file.display);
    // One byte more than its size: a file that grows while it is read is caught, not read on and on.
    const buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) break;
      length += n;
    }
    if (length > stats.size) throw swapped(file.display);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole of a checked file as bytes, when it has at most `maxBytes` (null when it has more): for
 * an image or a PDF that the read tool returns as a file part. Opened as every read is (no symlink
 * swapped in between the check and the read).
 */
export async function readCheckedBytes(file: CheckedFile, maxBytes: number): Promise<Uint8Array | null> {
  const handle = await openChecked(file.real, file.display, file.stats);
  try {
    const size = (await handle.stat()).size;
    if (size > maxBytes) return null;
    const bytes = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}
