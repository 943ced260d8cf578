/**
 * File limits with their defaults, and the error a refused file is.
 */
import type { FileLimits } from '../types/messages.js';

/** The limits with their defaults filled in. */
export type ResolvedFileLimits = Required<FileLimits>;

const MB = 1024 * 1024;

/** The media types accepted by default. */
export const DEFAULT_MEDIA_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
  'audio/wav',
  'audio/mpeg',
];

/** `limits` with defaults for what it leaves out; a limit that is not a positive number is refused. */
export function resolveFileLimits(limits: FileLimits = {}): ResolvedFileLimits {
  const size = (name: keyof FileLimits, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`files.${name} must be a positive number (got ${String(value)}).`);
    }
    return Math.floor(value);
  };
  return {
    maxFileBytes: size('maxFileBytes', limits.maxFileBytes, 20 * MB),
    maxFilesPerMessage: size('maxFilesPerMessage', limits.maxFilesPerMessage, 10),
    maxMessageBytes: size('maxMessageBytes', limits.maxMessageBytes, 32 * MB),
    maxChatBytes: size('maxChatBytes', limits.maxChatBytes, 100 * MB),
    mediaTypes: (limits.mediaTypes ?? DEFAULT_MEDIA_TYPES).map((t) => t.toLowerCase()),
    allowUrlHosts: (limits.allowUrlHosts ?? []).map((h) => h.toLowerCase()),
  };
}

/** Why a file was refused: one code per rule, for servers to answer with the right status. */
export type FileRejection =
  | 'malformed'
  | 'empty'
  | 'too-large'
  | 'too-many'
  | 'message-too-large'
  | 'chat-too-large'
  | 'type-mismatch'
  | 'unsupported-type'
  | 'url-not-allowed';

/** A file that broke a rule. Nothing was recorded: the chat is as it was. */
export class FileRejectedError extends Error {
  override readonly name = 'FileRejectedError';
  constructor(
    readonly code: FileRejection,
    message: string,
    readonly filename?: string,
  ) {
    super(message);
  }
}
