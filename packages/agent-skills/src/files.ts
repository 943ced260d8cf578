/**
 * A skill folder's own files: listing them, resolving a path the model gives (relative only; `..`,
 * absolute paths and symlinks that leave the folder are refused), and reading a text file a window
 * at a time without loading it whole.
 */
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { TextScanner } from './text-scan.js';

/** One file of a folder listing. */
export interface FolderFile {
  /** Relative to the folder, `/`-separated. */
  path: string;
  /** Bytes. */
  size: number;
}

/** What {@link listFolder} found. */
export interface FolderListing {
  /** Files, sorted by path; at most `maxEntries`. */
  files: FolderFile[];
  /** False when the walk stopped at `maxEntries`: the folder holds more files than `files`. */
  complete: boolean;
  /** Symlinks that lead outside the folder (not listed, cannot be read), relative paths. */
  escapes: string[];
  /** Symlinks whose target does not exist, relative paths. */
  broken: string[];
}

/** Directories the listing never enters. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/** Files a folder walk visits at most; a folder with more is listed as incomplete. */
export const MAX_WALK = 5000;

/** True when `target` (absolute, real) is `root` or inside it. */
export function contains(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Every file under `root` (a real path), sorted, skipping `.git` and `node_modules`. Symlinks are
 * followed only while they stay inside `root`. Synchronous: it runs while rendering.
 */
export function listFolder(root: string, under = '', maxEntries = MAX_WALK): FolderListing {
  const out: FolderListing = { files: [], complete: true, escapes: [], broken: [] };
  const visited = new Set<string>();
  const walk = (dir: string, rel: string): void => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!out.complete) return;
      const full = path.join(dir, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(full);
        } catch {
          out.broken.push(relPath);
          continue;
        }
        if (!contains(root, target)) {
          out.escapes.push(relPath);
          continue;
        }
        const info = statSync(target);
        isDir = info.isDirectory();
        isFile = info.isFile();
      }
      if (isDir) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(full, relPath);
      } else if (isFile) {
        if (out.files.length >= maxEntries) {
          out.complete = false;
          return;
        }
        let size = 0;
        try {
          size = statSync(full).size;
        } catch {}
        out.files.push({ path: relPath, size });
      }
    }
  };
  walk(under ? path.join(root, under) : root, under.split(path.sep).join('/'));
  out.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

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
async function openChecked(real: string, display: string, checked: Stats): Promise<FileHandle> {
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

/** A window of a text file's lines, from {@link readTextWindow}. */
export type TextWindow =
  | {
      kind: 'binary';
      size: number;
      /** Set when the file starts as text: where its binary data starts (before the window asked for). */
      from?: BinaryStart;
    }
  | {
      kind: 'text';
      /** The lines shown, joined with `\n` (a trailing `\r` is dropped from each). */
      text: string;
      /** 1-based number of the first line shown. */
      first: number;
      /** 1-based number of the last line shown (`first - 1` when none was). */
      last: number;
      /** The line to read on from, or null when the window reached the end of the file. */
      next: number | null;
      /** True when line `last` alone was longer than `maxBytes` and was cut. */
      cutLine: boolean;
      /** Lines in the file, when the read reached its end. */
      totalLines: number | null;
      /** Bytes in the file. */
      size: number;
      /** Set when the window stops where the file's binary data starts (the rest is not text). */
      binaryFrom: BinaryStart | null;
    };

/** Where a file that starts as text stops being text. */
export interface BinaryStart {
  /** 1-based number of the line that holds the first byte that is not text. */
  line: number;
  /** Its offset in the file. */
  byte: number;
}

/** Bytes read from disk per step. */
const CHUNK = 64 * 1024;
/** A file with a byte that is not text in its first this many bytes is binary, whatever follows. */
const HEAD = 8 * 1024;

/**
 * Reads lines `offset`… of a text file (checked by path with {@link checkRegular}; the opened
 * handle is checked again): at most `limit` lines and `maxBytes` bytes of text. Reads the file a
 * chunk at a time and stops as soon as the window is full, so a large file costs only
 * the part up to the window. Every byte read is checked to be text ({@link TextScanner}): a file
 * that is not text in its first 8 KB is binary; one that is, and stops being text later, is read
 * up to the line where it stops (`binaryFrom`), never past it.
 */
export async function readTextWindow(
  file: CheckedFile,
  { offset = 1, limit, maxBytes }: { offset?: number; limit: number; maxBytes: number },
): Promise<TextWindow> {
  const handle = await openChecked(file.real, file.display, file.stats);
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(CHUNK);
    const decoder = new TextDecoder('utf-8');
    const out: string[] = [];
    let outBytes = 0;
    let line = 1;
    let pending = '';
    let position = 0;
    let cutLine = false;
    /** The current line has text that was dropped (it lies before the window). */
    let skippedText = false;

    const scanner = new TextScanner();
    /** Where the text stops, once a read reached it. */
    let binaryFrom: BinaryStart | null = null;
    const done = (next: number | null, totalLines: number | null = null): TextWindow => ({
      kind: 'text',
      text: out.join('\n'),
      first: offset,
      last: offset + out.length - 1,
      next,
      cutLine,
      totalLines,
      size,
      binaryFrom,
    });

    /** Adds one complete line; returns a window when it is full. */
    const add = (raw: string, more: () => boolean): TextWindow | null => {
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line < offset) {
        line++;
        return null;
      }
      const bytes = Buffer.byteLength(text) + (out.length > 0 ? 1 : 0);
      if (outBytes + bytes > maxBytes) {
        if (out.length === 0) {
          out.push(cutToBytes(text, maxBytes));
          cutLine = true;
          line++;
          return done(more() ? line : null);
        }
        return done(line);
      }
      out.push(text);
      outBytes += bytes;
      line++;
      if (out.length >= limit) return done(more() ? line : null);
      return null;
    };

    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      const bad = bytesRead > 0 ? scanner.scan(buffer.subarray(0, bytesRead), position) : scanner.end();
      if (bad !== -1) {
        if (bad < HEAD) return { kind: 'binary', size };
        // The text stops at `bad`: the lines that end before it are text; the one it is in is not.
        pending += decoder.decode(buffer.subarray(0, Math.max(0, bad - position)), { stream: true });
        let start = 0;
        for (let nl = pending.indexOf('\n', start); nl !== -1; nl = pending.indexOf('\n', start)) {
          const text = pending.slice(start, nl);
          start = nl + 1;
          // A window that fills here says where to read on; that read finds the binary data.
          const window = add(text, () => true);
          if (window) return window;
        }
        binaryFrom = { line, byte: bad };
        return out.length === 0 ? { kind: 'binary', size, from: binaryFrom } : done(null);
      }
      position += bytesRead;
      const eof = bytesRead === 0;
      pending += eof ? decoder.decode() : decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      let start = 0;
      for (let nl = pending.indexOf('\n', start); nl !== -1; nl = pending.indexOf('\n', start)) {
        const text = pending.slice(start, nl);
        start = nl + 1;
        skippedText = false;
        const window = add(text, () => start < pending.length || position < size);
        if (window) return window;
      }
      pending = pending.slice(start);
      if (line < offset) {
        // Inside a line before the window: its text is not needed, only where it ends.
        if (pending !== '') skippedText = true;
        pending = '';
      } else if (Buffer.byteLength(pending) + outBytes > maxBytes + 1) {
        // The window cannot take this line whole, wherever it ends.
        if (out.length === 0) {
          out.push(cutToBytes(pending, maxBytes));
          cutLine = true;
          // Skip to the end of the cut line.
          const next = await skipLine(handle, position, buffer);
          line++;
          return done(next === null ? null : line);
        }
        return done(line);
      }
      if (eof) {
        if (skippedText) line++;
        if (pending !== '') {
          const window = add(pending, () => false);
          if (window) return window;
        }
        return done(null, line - 1);
      }
    }
  } finally {
    await handle.close();
  }
}

/** Finds the end of the current line from `position`; returns the offset after it, or null at end of file. */
async function skipLine(handle: FileHandle, position: number, buffer: Buffer): Promise<number | null> {
  let at = position;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
    if (bytesRead === 0) return null;
    const nl = buffer.subarray(0, bytesRead).indexOf(10);
    if (nl !== -1) {
      const after = at + nl + 1;
      const { bytesRead: more } = await handle.read(buffer, 0, 1, after);
      return more > 0 ? after : null;
    }
    at += bytesRead;
  }
}

/** The longest prefix of `text` that fits in `max` UTF-8 bytes, without a broken character at the end. */
function cutToBytes(text: string, max: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= max) return text;
  return bytes
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

/** Size in a short human form: `812 B`, `12.3 KB`, `4.0 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The files of `dir` (a real directory inside `root`), relative to `root`, as lines. */
export async function listDirectory(root: string, dir: string, maxEntries: number): Promise<string[]> {
  const rel = path.relative(root, dir);
  const info = await stat(dir);
  if (!info.isDirectory()) return [];
  const listing = listFolder(root, rel, maxEntries);
  const lines = listing.files.map((f) => `${f.path} (${formatSize(f.size)})`);
  if (!listing.complete) lines.push(`… more files not listed (the first ${maxEntries} are shown).`);
  return lines;
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
