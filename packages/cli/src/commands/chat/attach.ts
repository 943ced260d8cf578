/**
 * `/attach PATH` inside `skilltree chat`: files queued for the next message. Each is read as bytes
 * and checked by core with the session's own file limits when it is attached, so a file that would
 * be refused is refused now, with core's reason, and is not queued.
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { FileLimits } from '@skilltree/core';
import { type FilePart, resolveFileLimits, toFilePart } from '@skilltree/core/provider';
import { errorMessage } from '../../kit/errors.js';
import { describeFile } from '../../kit/print.js';

/** The path `/attach` was given: the rest of the line, without surrounding quotes (paths may have spaces). */
export function attachPath(line: string): string {
  const rest = line
    .trim()
    .replace(/^\/attach\b/i, '')
    .trim();
  const quoted = /^(["'])(.*)\1$/.exec(rest);
  return quoted ? quoted[2] : rest;
}

/**
 * Reads `path` (relative to `cwd`) as bytes and checks it as core will when it is sent: its bytes
 * decide its type, with the session's `files` limits. Throws an error that names the path and why.
 */
export async function readAttachment(path: string, cwd: string, limits: FileLimits | undefined): Promise<FilePart> {
  if (path === '') throw new Error('Say which file: /attach PATH (e.g. /attach ./photo.png).');
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(resolve(cwd, path)));
  } catch (error) {
    throw new Error(`Cannot attach ${path}: ${errorMessage(error)}`);
  }
  try {
    return toFilePart({ data: bytes, filename: basename(path) }, resolveFileLimits(limits));
  } catch (error) {
    throw new Error(`Cannot attach ${path}: ${errorMessage(error)}`);
  }
}

/** What `/attach` prints for a queued file: `attached photo.png (image/png, 12 KB)`. */
export function attachedLine(part: FilePart): string {
  return `attached ${describeFile(part)}`;
}
