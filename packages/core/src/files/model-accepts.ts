/**
 * What a model reads of the files in a request. A file of a kind the model does not read
 * (`Model.accepts`) is sent as one line of text describing it, instead of being sent to get a 400
 * or silently dropped. The line depends only on the file (its kind, name, type and size), so every
 * request carries the same bytes for it and an append-only prefix stays byte-identical.
 */

import type { FilePart, Message, ToolResultPart, UserPart } from '../types/messages.js';
import type { ModelAccepts } from '../types/model.js';
import { fileBytes } from './files.js';

/** What a file is to a model: an image, a PDF, audio, or another file (text, which every model reads). */
export type FileKind = 'image' | 'pdf' | 'audio' | 'file';

/** The kind of a file of `mediaType`. */
export function fileKind(mediaType: string): FileKind {
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType === 'application/pdf') return 'pdf';
  if (mediaType.startsWith('audio/')) return 'audio';
  return 'file';
}

/** `512 B`, `12 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const KIND_WORD: Record<FileKind, string> = { image: 'image', pdf: 'PDF', audio: 'audio', file: 'file' };

/**
 * One line of text that stands for a file a model is not sent: its kind, name, media type and size
 * (when its bytes are known), and why.
 *
 * @example
 * describeFile({ type: 'file', mediaType: 'image/jpeg', data, filename: 'photo.jpg' }, 'this model cannot read images');
 * // '[image photo.jpg, image/jpeg, 1.2 MB: this model cannot read images]'
 */
export function describeFile(file: FilePart, reason: string): string {
  const name = file.filename ? ` ${file.filename}` : '';
  const size = file.data !== undefined ? `, ${formatBytes(fileBytes(file))}` : '';
  return `[${KIND_WORD[fileKind(file.mediaType)]}${name}, ${file.mediaType}${size}: ${reason}]`;
}

/** Whether a model with `accepts` reads files of `kind`: images and PDFs unless it says not, audio only if it says so. */
export function modelReads(accepts: ModelAccepts | undefined, kind: FileKind): boolean {
  if (kind === 'image') return accepts?.images !== false;
  if (kind === 'pdf') return accepts?.pdf !== false;
  if (kind === 'audio') return accepts?.audio === true;
  return true;
}

const REASON: Record<Exclude<FileKind, 'file'>, string> = {
  image: 'this model cannot read images',
  pdf: 'this model cannot read PDFs',
  audio: 'this model cannot hear audio',
};

const KINDS = ['image', 'pdf', 'audio'] as const;

/** The kinds a model with `accepts` does not read, in a fixed order. */
function unread(accepts: ModelAccepts | undefined): Exclude<FileKind, 'file'>[] {
  return KINDS.filter((kind) => !modelReads(accepts, kind));
}

/** Described messages by original, for the kinds they were described for: the same object every request. */
const described = new WeakMap<Message, { key: string; content: unknown; value: Message }>();

type FileHolder = UserPart | ToolResultPart;

/** Whether `content` holds a file of one of `kinds`. A plain loop: it runs for every message of every request. */
function holdsUnread(content: readonly FileHolder[], kinds: readonly string[]): boolean {
  for (let i = 0; i < content.length; i++) {
    const part = content[i];
    if (part.type === 'file' && kinds.includes(fileKind(part.mediaType))) return true;
  }
  return false;
}

/** `message` with the files of `kinds` described, or `message` itself when it has none. */
function describeMessage(message: Message, kinds: readonly string[], key: string): Message {
  if (message.role === 'assistant') return message;
  const content = message.content as FileHolder[];
  if (!holdsUnread(content, kinds)) return message;
  const cached = described.get(message);
  if (cached?.key === key && cached.content === message.content) return cached.value;
  const out: FileHolder[] = [];
  for (const part of content) {
    const kind = part.type === 'file' ? fileKind(part.mediaType) : null;
    if (part.type !== 'file' || !kind || kind === 'file' || !kinds.includes(kind)) {
      out.push(part);
      continue;
    }
    // On a line of its own after the text before it, as the model reads `contextChanged` lines.
    const before = out.at(-1);
    const newline = before && before.type !== 'file' ? '\n' : '';
    out.push({ type: 'text', text: `${newline}${describeFile(part, REASON[kind])}` });
  }
  const value = { ...message, content: out } as Message;
  described.set(message, { key, content: message.content, value });
  return value;
}

/** The result of {@link describeUnread}. */
export interface DescribedMessages<M> {
  /** The messages, each file the model does not read replaced by its description (the input array when there were none). */
  messages: M[];
  /** Whether any file was described. */
  described: boolean;
}

/**
 * `messages` as a model with `accepts` is sent them: in user messages and tool results, each file
 * of a kind it does not read replaced by a text part describing it ({@link describeFile}). Other
 * items (assistant messages, a session's notes) pass through. The transcript is not changed.
 */
export function describeUnread<M extends { role: string }>(
  messages: readonly M[],
  accepts: ModelAccepts | undefined,
): DescribedMessages<M> {
  const kinds = unread(accepts);
  if (kinds.length === 0) return { messages: messages as M[], described: false };
  const key = kinds.join(',');
  // The copy is made at the first message that changes: a window without such files (most) is
  // read once and not copied.
  let out: M[] | null = null;
  for (let i = 0; i < messages.length; i++) {
    const item = messages[i];
    const next =
      item.role === 'user' || item.role === 'tool'
        ? (describeMessage(item as unknown as Message, kinds, key) as unknown as M)
        : item;
    if (out) out.push(next);
    else if (next !== item) {
      out = messages.slice(0, i);
      out.push(next);
    }
  }
  return out ? { messages: out, described: true } : { messages: messages as M[], described: false };
}

/**
 * What a session says, once, when it first sends a model a file described instead: which kinds
 * the model does not read, and what to do.
 */
export function describedWarning(modelName: string | undefined, accepts: ModelAccepts | undefined): string {
  const words = unread(accepts).map((kind) => (kind === 'image' ? 'images' : kind === 'pdf' ? 'PDFs' : 'audio'));
  const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
  return `${modelName ?? 'The model'} does not take ${list}: each such file is sent to it as a line of text describing it (the transcript keeps the file). Use a model that takes them, or set the model's accepts if it does.`;
}
