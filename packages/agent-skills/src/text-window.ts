/** Reading a text file a window of lines at a time, without loading it whole, and stopping where it stops being text. */
import type { FileHandle } from 'node:fs/promises';
import { type CheckedFile, openChecked } from './checked-paths.js';
import { TextScanner } from './text-scan.js';

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
