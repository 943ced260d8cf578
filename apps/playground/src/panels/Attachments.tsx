/**
 * Files in the chat: the file parts of a message (a user's attachments, what a tool returned) and
 * the files picked for the next message. An image with its bytes shows as a thumbnail; any other
 * file (or an image by URL, which the page does not fetch) as a chip with its name, media type and
 * size. Core has checked every file part in the transcript: SVG and HTML never get here.
 */

import { formatBytes } from '../format.js';
import type { FilePart, Message, SendFile } from '../protocol.js';

/** A file picked for the next message, read as a data URL. */
export interface PendingFile {
  name: string;
  /** What the browser says it is (from the name); core checks it against the bytes. */
  mediaType: string;
  size: number;
  dataUrl: string;
}

/** The file parts of a message, in order. */
export function filesOf(message: Pick<Message, 'content'>): FilePart[] {
  return message.content.flatMap((part) => (part.type === 'file' ? [part] : []));
}

/** The message's text parts only (files show as attachments, `contextChanged` lines apart). */
export function textPartsOf(message: Pick<Message, 'content'>): string {
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Bytes of base64 text, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** What `POST /api/send` takes for a picked file. */
export function toSendFile(file: PendingFile): SendFile {
  return { data: file.dataUrl, filename: file.name, ...(file.mediaType ? { mediaType: file.mediaType } : {}) };
}

/** Reads picked files as data URLs. */
export function readPicked(files: Iterable<File>): Promise<PendingFile[]> {
  return Promise.all(
    [...files].map(
      (file) =>
        new Promise<PendingFile>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () =>
            resolve({ name: file.name, mediaType: file.type, size: file.size, dataUrl: String(reader.result) });
          reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}.`));
          reader.readAsDataURL(file);
        }),
    ),
  );
}

function Chip({ name, mediaType, size }: { name: string; mediaType: string; size: number | null }) {
  return (
    <span className="attachment-chip">
      <span className="attachment-name">{name}</span>
      <span className="attachment-meta">
        {mediaType || 'unknown type'}
        {size === null ? '' : `, ${formatBytes(size)}`}
      </span>
    </span>
  );
}

/** A message's file parts: thumbnails for images with bytes, chips for the rest. */
export function Attachments({ parts }: { parts: FilePart[] }) {
  if (parts.length === 0) return null;
  return (
    <div className="attachments">
      {parts.map((part, i) => {
        const name = part.filename ?? (part.url ? part.url.split('/').pop() || part.url : 'file');
        const size = part.data ? base64Bytes(part.data) : null;
        const image = part.mediaType.startsWith('image/') && part.data;
        return (
          <figure
            // biome-ignore lint/suspicious/noArrayIndexKey: a committed message's parts never reorder
            key={i}
            className={`attachment${image ? ' attachment-image' : ''}`}
            data-attachment={name}
            data-media-type={part.mediaType}
          >
            {image ? <img src={`data:${part.mediaType};base64,${part.data}`} alt={name} /> : null}
            <figcaption>
              <Chip name={name} mediaType={part.mediaType} size={size} />
            </figcaption>
          </figure>
        );
      })}
    </div>
  );
}

/** The files picked for the next message, each with a button that drops it. */
export function PendingFiles({ files, onRemove }: { files: PendingFile[]; onRemove(index: number): void }) {
  if (files.length === 0) return null;
  return (
    <ul className="pending-files" aria-label="Files to send">
      {files.map((file, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is short-lived; a removal re-keys it
        <li key={i} className="attachment" data-pending={file.name}>
          {file.mediaType.startsWith('image/') ? <img src={file.dataUrl} alt={file.name} /> : null}
          <Chip name={file.name} mediaType={file.mediaType} size={file.size} />
          <button type="button" className="ghost" aria-label={`Remove ${file.name}`} onClick={() => onRemove(i)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
