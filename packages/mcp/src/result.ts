/**
 * Turning an MCP `tools/call` result into a tool result: text content as text, images, audio and
 * embedded resources that carry their bytes (or text) as file parts (the session describes a file
 * in text to a model that does not take its kind: audio, to most), other content as one short
 * placeholder line each, `structuredContent` when there is no text.
 */
import { type FileInput, FileRejectedError, type ToolResult, toolResult } from '@skilltree/core';
import { type FilePart, fileBytes, formatBytes, resolveFileLimits, toFilePart } from '@skilltree/core/provider';

/** One content block of a `tools/call` result, as loosely as servers send it. */
interface Block {
  type?: unknown;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
}

/** The bytes a base64 string holds. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `512 B`, `12 KB`, `3.4 MB` (core's, so a size reads the same everywhere). */
export { formatBytes };

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function placeholder(kind: string, parts: (string | undefined)[]): string {
  const shown = parts.filter((p): p is string => p !== undefined);
  return shown.length > 0 ? `[${kind}: ${shown.join(', ')}]` : `[${kind}]`;
}

function blockText(block: Block): { text: string; isText: boolean } {
  switch (block.type) {
    case 'text':
      return { text: typeof block.text === 'string' ? block.text : '', isText: true };
    case 'image':
    case 'audio': {
      const size = typeof block.data === 'string' ? formatBytes(base64Bytes(block.data)) : undefined;
      return { text: placeholder(block.type, [str(block.mimeType), size]), isText: false };
    }
    case 'resource': {
      const r = block.resource ?? {};
      const size =
        typeof r.text === 'string'
          ? formatBytes(Buffer.byteLength(r.text))
          : typeof r.blob === 'string'
            ? formatBytes(base64Bytes(r.blob))
            : undefined;
      return { text: placeholder('resource', [str(r.uri), str(r.mimeType), size]), isText: false };
    }
    case 'resource_link':
      return {
        text: placeholder('resource link', [str(block.uri), str(block.name), str(block.mimeType)]),
        isText: false,
      };
    default:
      return {
        text: placeholder(`${typeof block.type === 'string' ? block.type : 'unknown'} content`, []),
        isText: false,
      };
  }
}

/**
 * The text a tool result carries for an MCP `tools/call` result: text blocks joined by newlines,
 * one placeholder line per other block (`[image: image/png, 12 KB]`), and the JSON of
 * `structuredContent` when the result has no text. A result with nothing in it reads `(no content)`.
 *
 * @example
 * formatToolResult({ content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] });
 * // 'hi\n[image: image/png, 8 B]'
 */
export function formatToolResult(result: unknown): string {
  const r = (result ?? {}) as { content?: unknown; structuredContent?: unknown; toolResult?: unknown };
  const lines: string[] = [];
  let hasText = false;
  for (const block of Array.isArray(r.content) ? (r.content as Block[]) : []) {
    if (!block || typeof block !== 'object') continue;
    const { text, isText } = blockText(block);
    if (isText) {
      if (text === '') continue;
      hasText = true;
    }
    lines.push(text);
  }
  if (!hasText && r.structuredContent !== undefined && r.structuredContent !== null) {
    lines.unshift(JSON.stringify(r.structuredContent));
  }
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of `content`.
  if (lines.length === 0 && r.toolResult !== undefined) lines.push(JSON.stringify(r.toolResult));
  return lines.length > 0 ? lines.join('\n') : '(no content)';
}

/** A file's name from a resource URI: its last path segment (`file:///data/report.pdf` → `report.pdf`). */
function fileName(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  const last = uri.split(/[/\\]/).filter(Boolean).at(-1);
  if (!last) return undefined;
  try {
    return decodeURIComponent(last).slice(0, 255);
  } catch {
    return last.slice(0, 255);
  }
}

/**
 * The file a block carries, as core takes it, or null: an `image` or `audio` with base64 `data`
 * and a `mimeType`, or an embedded `resource` with a `blob` (base64) or `text` and a `mimeType`.
 * Resource links carry nothing (a link is never fetched).
 */
function fileOf(block: Block): FileInput | null {
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string' && str(block.mimeType)) {
    return { data: block.data, mediaType: block.mimeType as string };
  }
  if (block.type !== 'resource' || !block.resource) return null;
  const r = block.resource;
  const filename = fileName(r.uri);
  const named = filename ? { filename } : {};
  if (typeof r.blob === 'string' && str(r.mimeType)) return { data: r.blob, mediaType: r.mimeType as string, ...named };
  if (typeof r.text === 'string' && r.text !== '') {
    // Text travels as its UTF-8 bytes; without a type, it is plain text.
    const data = Buffer.from(r.text, 'utf8').toString('base64');
    return { data, mediaType: str(r.mimeType) ?? 'text/plain', ...named };
  }
  return null;
}

/**
 * What a session takes as the result of an MCP `tools/call`: text blocks as text (joined by
 * newlines), each image, audio clip or embedded resource that carries its bytes or text as a file
 * part with its media type (the model sees it: an image as an image, a PDF or text file as a
 * document, WAV or MP3 audio as audio where the model takes audio; a model that does not take a
 * kind is sent a line describing the file instead), and a placeholder line for what is not sent
 * (resource links, content of an unknown type, and a file that skilltree does not accept: e.g. SVG,
 * which can carry script, audio other than WAV and MP3, or past the default file limits). Without
 * files, it is the text of {@link formatToolResult}.
 *
 * The files are checked as a user's are (their bytes decide their type); the session checks them
 * again against its own `files` limits, and refuses the result with a reason when one breaks them.
 *
 * @example
 * toToolResult({ content: [{ type: 'text', text: 'The chart:' }, { type: 'image', data: png, mimeType: 'image/png' }] });
 * // toolResult('The chart:', { data: png, mediaType: 'image/png' })
 */
export function toToolResult(result: unknown): string | ToolResult {
  const r = (result ?? {}) as { content?: unknown };
  const blocks = Array.isArray(r.content) ? (r.content as Block[]) : [];
  const limits = resolveFileLimits();
  const files: FilePart[] = [];
  let bytes = 0;
  const kept: Block[] = [];
  for (const block of blocks) {
    const input = block && typeof block === 'object' ? fileOf(block) : null;
    if (!input) {
      kept.push(block);
      continue;
    }
    let part: FilePart | null = null;
    try {
      part = toFilePart(input, limits, files.length);
    } catch (error) {
      if (!(error instanceof FileRejectedError)) throw error;
    }
    // Past the default limits of one result, a file is left to its placeholder line.
    if (!part || files.length >= limits.maxFilesPerMessage || bytes + fileBytes(part) > limits.maxMessageBytes) {
      kept.push(block);
      continue;
    }
    bytes += fileBytes(part);
    files.push(part);
  }
  if (files.length === 0) return formatToolResult(result);
  const rest = { ...(result as object), content: kept } as { content: Block[] };
  // Only files: no "(no content)" line beside them.
  const text = kept.length === 0 && !hasTextBesides(result) ? '' : formatToolResult(rest);
  return text === '' ? toolResult(...files) : toolResult(text, ...files);
}

/** Whether a result with no content blocks left still says something (`structuredContent`, old `toolResult`). */
function hasTextBesides(result: unknown): boolean {
  const r = (result ?? {}) as { structuredContent?: unknown; toolResult?: unknown };
  return (r.structuredContent !== undefined && r.structuredContent !== null) || r.toolResult !== undefined;
}
