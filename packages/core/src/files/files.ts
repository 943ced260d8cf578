/**
 * Files that enter a conversation (sent by a user, returned by a tool), checked as hostile input:
 * the bytes decide what a file is (a `.png` that holds HTML is not an image), SVG is never an
 * image, sizes are capped per file, per message and per chat, and nothing remote is fetched, ever
 * (a URL passes on to the provider only for hosts the app allows).
 */
import type { FileInput, FilePart } from '../types/messages.js';
import {
  compatible,
  decodeBase64,
  fromBase64,
  label,
  normalise,
  parseDataUrl,
  sniffMediaType,
  toBase64,
} from './bytes.js';
import { FileRejectedError, type ResolvedFileLimits } from './limits.js';

/** The bytes of a `FilePart` with data (0 for a URL). */
export function fileBytes(part: FilePart): number {
  if (!part.data) return 0;
  const clean = part.data.length;
  const padding = part.data.endsWith('==') ? 2 : part.data.endsWith('=') ? 1 : 0;
  return Math.floor((clean * 3) / 4) - padding;
}

/**
 * One file as a part, checked: its bytes decide its type (a declared type must agree), it is not
 * empty, not larger than the limit, of an accepted type; a remote URL only for an allowed host.
 * Throws a {@link FileRejectedError} naming the file and the rule.
 */
export function toFilePart(input: FileInput | FilePart, limits: ResolvedFileLimits, index = 0): FilePart {
  const who = label(input ?? {}, index);
  if (!input || typeof input !== 'object') throw new FileRejectedError('malformed', `${who} is not a file.`);
  const filename = typeof input.filename === 'string' ? input.filename.slice(0, 255) : undefined;
  const declared = typeof input.mediaType === 'string' && input.mediaType ? normalise(input.mediaType) : null;
  let bytes: Uint8Array;
  let fromUrl: string | null = null;
  const { data, url } = input as FileInput;
  if (data !== undefined && data !== null) {
    if (typeof data === 'string') {
      bytes = data.startsWith('data:')
        ? (() => {
            const parsed = parseDataUrl(data, limits.maxFileBytes, who);
            fromUrl = parsed.mediaType;
            return parsed.bytes;
          })()
        : decodeBase64(data, limits.maxFileBytes, who);
    } else if (data instanceof Uint8Array) bytes = data;
    else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else throw new FileRejectedError('malformed', `${who}: data must be bytes, base64 or a data URL.`);
  } else if (typeof url === 'string') {
    if (url.startsWith('data:')) {
      const parsed = parseDataUrl(url, limits.maxFileBytes, who);
      fromUrl = parsed.mediaType;
      bytes = parsed.bytes;
    } else {
      return remoteFile(url, declared, filename, limits, who);
    }
  } else {
    throw new FileRejectedError('malformed', `${who} has neither data nor url.`);
  }
  if (bytes.length === 0) throw new FileRejectedError('empty', `${who} is empty.`, filename);
  if (bytes.length > limits.maxFileBytes) {
    throw new FileRejectedError(
      'too-large',
      `${who} is ${bytes.length} bytes; a file may have at most ${limits.maxFileBytes} (files.maxFileBytes).`,
      filename,
    );
  }
  const sniffed = sniffMediaType(bytes);
  const claimed = declared ?? fromUrl;
  if (sniffed === 'image/svg+xml' || sniffed === 'text/html') {
    throw new FileRejectedError(
      'type-mismatch',
      `${who} is ${sniffed === 'text/html' ? 'HTML' : 'SVG'}${claimed && claimed !== sniffed ? ` declared as ${claimed}` : ''}; it can carry script and is not accepted.`,
      filename,
    );
  }
  if (!sniffed) {
    throw new FileRejectedError('unsupported-type', `${who}: its bytes are not a type skilltree accepts.`, filename);
  }
  if (claimed && !compatible(claimed, sniffed)) {
    throw new FileRejectedError(
      'type-mismatch',
      `${who} is declared ${claimed}, but its bytes are ${sniffed}.`,
      filename,
    );
  }
  const mediaType = claimed ?? sniffed;
  if (!limits.mediaTypes.includes(mediaType)) {
    throw new FileRejectedError(
      'unsupported-type',
      `${who} is ${mediaType}, which is not accepted (files.mediaTypes: ${limits.mediaTypes.join(', ')}).`,
      filename,
    );
  }
  const part: FilePart = { type: 'file', mediaType, data: toBase64(bytes) };
  if (filename) part.filename = filename;
  return part;
}

function remoteFile(
  url: string,
  declared: string | null,
  filename: string | undefined,
  limits: ResolvedFileLimits,
  who: string,
): FilePart {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FileRejectedError('malformed', `${who} has a URL that is not one.`, filename);
  }
  if (parsed.protocol !== 'https:' || !limits.allowUrlHosts.includes(parsed.hostname.toLowerCase())) {
    throw new FileRejectedError(
      'url-not-allowed',
      `${who}: ${parsed.protocol === 'https:' ? `host ${parsed.hostname} is not in files.allowUrlHosts` : 'only https: URLs are passed on'}; skilltree never fetches a URL.`,
      filename,
    );
  }
  if (!declared || !limits.mediaTypes.includes(declared) || declared === 'image/svg+xml') {
    throw new FileRejectedError('unsupported-type', `${who}: a URL needs an accepted mediaType.`, filename);
  }
  const part: FilePart = { type: 'file', mediaType: declared, url: parsed.href };
  if (filename) part.filename = filename;
  return part;
}

/**
 * Files for one message, checked one by one and together (count and total size), and against what
 * the chat holds already (`chatBytes`). Throws a {@link FileRejectedError} for the first rule broken.
 */
export function toFileParts(
  inputs: readonly (FileInput | FilePart)[],
  limits: ResolvedFileLimits,
  chatBytes = 0,
): FilePart[] {
  if (!Array.isArray(inputs)) throw new FileRejectedError('malformed', 'files must be an array of files.');
  if (inputs.length > limits.maxFilesPerMessage) {
    throw new FileRejectedError(
      'too-many',
      `${inputs.length} files in one message; at most ${limits.maxFilesPerMessage} (files.maxFilesPerMessage).`,
    );
  }
  const parts = inputs.map((input, i) => toFilePart(input, limits, i));
  const total = parts.reduce((n, p) => n + fileBytes(p), 0);
  if (total > limits.maxMessageBytes) {
    throw new FileRejectedError(
      'message-too-large',
      `The files of one message are ${total} bytes; at most ${limits.maxMessageBytes} (files.maxMessageBytes).`,
    );
  }
  checkChatTotal(total, limits, chatBytes);
  return parts;
}

/** File lists {@link checkedFileParts} made: each file checked already, only the chat's total is left. */
const checkedLists = new WeakSet<readonly FilePart[]>();

/**
 * A message's files checked as {@link toFileParts} checks them, but not yet against the chat: for a
 * layer that refuses bad files before it touches the chat (`createSessions`) and hands the list to
 * the turn, which then adds only the chat's total ({@link messageFileParts}). Each file's bytes are
 * so decoded and sniffed once per message.
 */
export function checkedFileParts(inputs: readonly (FileInput | FilePart)[], limits: ResolvedFileLimits): FilePart[] {
  const parts = toFileParts(inputs, limits);
  checkedLists.add(parts);
  return parts;
}

/**
 * The files of the message a turn records: a list from {@link checkedFileParts} is checked against
 * the chat's total only; any other list is checked whole ({@link toFileParts}).
 */
export function messageFileParts(
  inputs: readonly (FileInput | FilePart)[],
  limits: ResolvedFileLimits,
  chatBytes: number,
): FilePart[] {
  if (!checkedLists.has(inputs as readonly FilePart[])) return toFileParts(inputs, limits, chatBytes);
  const parts = inputs as FilePart[];
  checkChatTotal(
    parts.reduce((n, p) => n + fileBytes(p), 0),
    limits,
    chatBytes,
  );
  return parts;
}

/** The chat would hold at most `maxChatBytes` of files with a message's `total` added. */
function checkChatTotal(total: number, limits: ResolvedFileLimits, chatBytes: number): void {
  if (chatBytes + total > limits.maxChatBytes) {
    throw new FileRejectedError(
      'chat-too-large',
      `The chat would hold ${chatBytes + total} bytes of files; at most ${limits.maxChatBytes} (files.maxChatBytes).`,
    );
  }
}

/** Pixel size of a PNG, JPEG, GIF or WebP image from its header, or null. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = sniffMediaType(bytes.subarray(0, 16));
  try {
    if (type === 'image/png' && bytes.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
    if (type === 'image/gif' && bytes.length >= 10) {
      return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
    }
    if (type === 'image/jpeg') {
      let i = 2;
      while (i + 9 < bytes.length) {
        if (bytes[i] !== 0xff) return null;
        const marker = bytes[i + 1];
        const length = view.getUint16(i + 2);
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
        }
        i += 2 + length;
      }
    }
  } catch {}
  return null;
}

/**
 * Estimated input tokens of a file, as the providers document them: an image about
 * width × height / 750 (Anthropic's rule; at most ~1,600 once resized), 1,600 when its size is
 * unknown; a PDF about 1,500 per 100 KB; text at 4 characters per token.
 */
export function estimateFileTokens(part: FilePart): number {
  if (!part.data) return part.mediaType.startsWith('image/') ? 1600 : 1500;
  const size = fileBytes(part);
  if (part.mediaType.startsWith('image/')) {
    const dims = imageSize(fromBase64(part.data.slice(0, 64 * 1024)));
    if (!dims) return 1600;
    return Math.min(1600, Math.max(1, Math.ceil((dims.width * dims.height) / 750)));
  }
  if (part.mediaType === 'application/pdf') return Math.max(1500, Math.ceil((size / 100_000) * 1500));
  return Math.ceil(size / 4);
}

const TOOL_RESULT = Symbol.for('skilltree.toolResult');

/** What a tool returns to give the model files beside its text: made by {@link toolResult}. */
export interface ToolResult {
  readonly [TOOL_RESULT]: true;
  /** Text (strings) and files, in order. */
  readonly content: readonly (string | FileInput | FilePart)[];
}

/**
 * A tool result with files: text and images or documents the model sees, in order. The files are
 * checked like a user's (the session's `files` limits); a refused one makes the call an error result.
 *
 * @example
 * run: async () => toolResult('The page as it looks now:', { data: png, mediaType: 'image/png' })
 */
export function toolResult(...content: (string | FileInput | FilePart)[]): ToolResult {
  return { [TOOL_RESULT]: true, content };
}

/** True for a value {@link toolResult} made. */
export function isToolResult(value: unknown): value is ToolResult {
  return !!value && typeof value === 'object' && (value as ToolResult)[TOOL_RESULT] === true;
}
