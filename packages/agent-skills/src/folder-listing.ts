/**
 * Listing a skill folder's own files: a bounded walk that never enters `.git` or `node_modules` and
 * never follows a link out of the folder.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

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
