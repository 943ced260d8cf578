import { FileRejectedError } from './limits.js';
import { markupOf } from './markup.js';

export const label = (input: { filename?: string }, index: number) =>
  input.filename ? `File "${input.filename}"` : `File ${index + 1}`;

/** What the bytes are, by their first bytes (and, for text, by being UTF-8 without NUL). */
export function sniffMediaType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  // A RIFF container (`RIFF`, its size, then four letters that name what it holds).
  const riff = (kind: string) =>
    starts(0x52, 0x49, 0x46, 0x46) && [...kind].every((c, i) => bytes[8 + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (riff('WEBP')) return 'image/webp';
  if (riff('WAVE')) return 'audio/wav';
  // MP3: an ID3 tag, or an MPEG audio Layer III frame header (11 sync bits, then layer bits 01).
  if (starts(0x49, 0x44, 0x33) || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe6) === 0xe2)) return 'audio/mpeg';
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'application/zip';
  if (starts(0x1f, 0x8b)) return 'application/gzip';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 64 * 1024));
  } catch {
    // A multi-byte character cut at the 64 KB mark is still text: decode what precedes it.
    if (bytes.length <= 64 * 1024) return null;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 64 * 1024 - 4));
    } catch {
      return null;
    }
  }
  if (text.includes('\u0000')) return null;
  const head = text.slice(0, 1024).trimStart().toLowerCase();
  if (/<svg[\s>]/.test(head) || (head.startsWith('<?xml') && head.includes('<svg'))) return 'image/svg+xml';
  if (/^<(!doctype html|html|head|body|script|iframe)[\s>]/.test(head)) return 'text/html';
  // HTML or SVG further in: after a comment or an XML declaration, XHTML, a `<meta>` refresh, or
  // active markup anywhere in the text (Markdown's `<img onerror=…>`), read over the whole file.
  const markup = markupOf(bytes.length <= 64 * 1024 ? text : new TextDecoder('utf-8').decode(bytes));
  if (markup) return markup === 'svg' ? 'image/svg+xml' : 'text/html';
  return 'text/plain';
}

/** Whether bytes sniffed as `sniffed` may be sent as `declared`. */
export function compatible(declared: string, sniffed: string): boolean {
  if (declared === sniffed) return true;
  // Text formats are text to the bytes: only their being text can be checked.
  return (
    sniffed === 'text/plain' &&
    (declared.startsWith('text/') || declared === 'application/json') &&
    declared !== 'text/html'
  );
}

/** Other names in use for the types skilltree knows. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
};

export const normalise = (mediaType: string) => {
  const type = mediaType.split(';')[0].trim().toLowerCase();
  return ALIASES[type] ?? type;
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

// Node has Buffer; a browser bundle (the playground) has atob/btoa.
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Base64 text as bytes (the text is checked by the caller). */
export function fromBase64(text: string): Uint8Array {
  if (NodeBuffer) return new Uint8Array(NodeBuffer.from(text, 'base64'));
  const binary = atob(text.length % 4 === 0 ? text : text.slice(0, text.length - (text.length % 4)));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Bytes as base64 text. */
export function toBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function decodeBase64(text: string, limit: number, who: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 4 === 1 || !BASE64.test(clean)) {
    throw new FileRejectedError('malformed', `${who} is not valid base64.`);
  }
  // Refused before decoding: a huge string costs nothing more than its length.
  if (Math.floor((clean.length * 3) / 4) > limit + 3) {
    throw new FileRejectedError('too-large', `${who} is larger than ${limit} bytes (files.maxFileBytes).`);
  }
  return fromBase64(clean);
}

/** A `data:` URL's media type and bytes, or a clear refusal. */
export function parseDataUrl(url: string, limit: number, who: string): { mediaType: string | null; bytes: Uint8Array } {
  const comma = url.indexOf(',');
  const match = /^data:([^,;]*)((?:;[^,;=]+=[^,;]*)*)(;base64)?$/i.exec(comma === -1 ? url : url.slice(0, comma));
  if (comma === -1 || !match) throw new FileRejectedError('malformed', `${who} has a malformed data URL.`);
  const payload = url.slice(comma + 1);
  const mediaType = match[1] ? normalise(match[1]) : null;
  if (match[3]) return { mediaType, bytes: decodeBase64(payload, limit, who) };
  if (payload.length > limit * 3) {
    throw new FileRejectedError('too-large', `${who} is larger than ${limit} bytes (files.maxFileBytes).`);
  }
  try {
    return { mediaType, bytes: new TextEncoder().encode(decodeURIComponent(payload)) };
  } catch {
    throw new FileRejectedError('malformed', `${who} has a malformed data URL.`);
  }
}
