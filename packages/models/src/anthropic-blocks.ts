/**
 * Message parts as Messages API content blocks, and back: text, files (`image` / `document`, also
 * inside `tool_result`), the recorded `contextChanged` lines (the same text the model read before
 * parts existed), and reasoning (`thinking` / `redacted_thinking`, byte-exact, replayed only to the
 * model that produced it).
 */
import type Anthropic from '@anthropic-ai/sdk';
import {
  describeFile,
  type FilePart,
  type Message,
  type ReasoningPart,
  type ReasoningSource,
  renderParts,
  replaysTo,
  type ToolResultPart,
  type UserPart,
} from '@skilltree/core/provider';
import { assistantContent } from './assistant-content.js';
import { ModelError } from './errors.js';
import { dataOf } from './reasoning-source.js';

/** A content block as the adapter sends it (the beta types are a superset of these). */
export type Block = Anthropic.ContentBlockParam;
type ResultContent = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>;

/** The provider name reasoning parts carry when this adapter produced them. */
export const PROVIDER = 'anthropic';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** `data:<type>;base64,<data>` read back, or undefined for any other URL. */
function dataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1], data: match[2] } : undefined;
}

/** Anthropic's documented limits per file: 5 MB per image, 32 MB per PDF (the whole request's cap). */
export const ANTHROPIC_FILE_LIMITS = { image: 5 * 1024 * 1024, pdf: 32 * 1024 * 1024 } as const;

/**
 * A file over Anthropic's limit for its type fails before the request is sent, naming the file, its
 * size and the limit (instead of the API's 400 after the upload).
 */
function checkFileLimit(file: FilePart, mediaType: string, data: string): void {
  const limit = IMAGE_TYPES.includes(mediaType)
    ? ANTHROPIC_FILE_LIMITS.image
    : mediaType === 'application/pdf'
      ? ANTHROPIC_FILE_LIMITS.pdf
      : null;
  if (limit === null) return;
  const bytes = Math.floor((data.length * 3) / 4);
  if (bytes <= limit) return;
  throw new ModelError(
    `anthropic: ${fileLabel(file)} is ${bytes} bytes; Anthropic takes at most ${limit} bytes per ${IMAGE_TYPES.includes(mediaType) ? 'image' : 'PDF'}. Send a smaller file (resize the image, split the PDF), or lower the session's files.maxFileBytes to refuse such files when they are sent.`,
    { provider: 'anthropic', kind: 'other' },
  );
}

/** What a model reads for a file it cannot be sent: the same words `textOf` uses. */
function fileLabel(file: FilePart): string {
  return `[file: ${file.filename || file.mediaType}]`;
}

/**
 * A file as a block: an image (`image/jpeg`, `png`, `gif`, `webp`) as an `image` block, a PDF or
 * plain text as a `document` block (titled with the file's name), by bytes or by URL (a `data:` URL
 * is sent as bytes). Audio and other image types are described in a text block (the API takes
 * neither); anything else (a type the API does not read, or text by URL) is a text block naming
 * the file, as the model would read it through any adapter.
 */
export function fileBlock(
  file: FilePart,
): Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam | Anthropic.TextBlockParam {
  const inline =
    file.data !== undefined ? { mediaType: file.mediaType, data: file.data } : file.url ? dataUrl(file.url) : undefined;
  if (inline) checkFileLimit(file, inline.mediaType, inline.data);
  const url = inline ? undefined : file.url;
  const mediaType = inline?.mediaType ?? file.mediaType;
  const title = file.filename ? { title: file.filename } : {};
  if (IMAGE_TYPES.includes(mediaType)) {
    if (inline) {
      return {
        type: 'image',
        source: {
          type: 'base64',
          media_type: mediaType as Anthropic.Base64ImageSource['media_type'],
          data: inline.data,
        },
      };
    }
    if (url) return { type: 'image', source: { type: 'url', url } };
  }
  if (mediaType === 'application/pdf') {
    if (inline)
      return {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: inline.data },
        ...title,
      };
    if (url) return { type: 'document', source: { type: 'url', url }, ...title };
  }
  if (mediaType === 'text/plain' && inline) {
    const data = Buffer.from(inline.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data }, ...title };
  }
  // Said, not sent to get a 400: the API takes no audio, and only these image types.
  if (mediaType.startsWith('audio/')) return { type: 'text', text: describeFile(file, 'Anthropic takes no audio') };
  if (mediaType.startsWith('image/')) {
    return { type: 'text', text: describeFile(file, 'Anthropic takes JPEG, PNG, GIF and WebP images only') };
  }
  return { type: 'text', text: fileLabel(file) };
}

/**
 * The blocks of a user message or a tool result, from core's `renderParts`: each run of text (with
 * the `contextChanged` lines after the text before them, each on its own line: the text a model read
 * before messages had parts) as one text block, each file as its block. Empty text is left out.
 */
export function contentBlocks(parts: readonly (UserPart | ToolResultPart)[]): Block[] {
  return renderParts(parts).map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : fileBlock(part)));
}

/**
 * A tool result's `content`: a string when it is text only (as before parts: the same bytes), else
 * its blocks (text, images, documents).
 */
export function toolResultContent(parts: readonly ToolResultPart[]): string | ResultContent {
  const blocks = contentBlocks(parts);
  if (blocks.every((b) => b.type === 'text')) return blocks.map((b) => (b as Anthropic.TextBlockParam).text).join('');
  return blocks as ResultContent;
}

/**
 * Whether `part` is replayed to `source`: where core's `replaysTo` says (the same provider, endpoint
 * and model), and only with the payload this adapter wrote (a signature, or redacted data).
 */
export function replays(part: ReasoningPart, source: ReasoningSource): boolean {
  const data = part.providerData;
  return (
    replaysTo(part, source) && (dataOf(data, 'signature') !== undefined || dataOf(data, 'redactedData') !== undefined)
  );
}

/** A reasoning part as the block it came from: `redacted_thinking` with its data, else `thinking` with its signature. */
export function reasoningBlock(
  part: ReasoningPart,
): Anthropic.ThinkingBlockParam | Anthropic.RedactedThinkingBlockParam {
  const redacted = dataOf(part.providerData, 'redactedData');
  if (redacted !== undefined) return { type: 'redacted_thinking', data: redacted };
  return { type: 'thinking', thinking: part.text, signature: dataOf(part.providerData, 'signature') ?? '' };
}

/**
 * A transcript message as blocks. An assistant message: its reasoning and text parts in order
 * (reasoning only when `replays` says so), then a `tool_use` per call. A tool result: one
 * `tool_result` block (`is_error` from `isError`). A user message: {@link contentBlocks}.
 */
export function messageBlocks(message: Message, source: ReasoningSource): Block[] {
  if (message.role === 'user') return contentBlocks(message.content);
  if (message.role === 'tool') {
    return [
      {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: toolResultContent(message.content),
        ...(message.isError ? { is_error: true } : {}),
      },
    ];
  }
  return assistantContent<Block>(message, {
    adapter: 'anthropic()',
    replays: (part) => replays(part, source),
    text: (text) => ({ type: 'text', text }),
    reasoning: reasoningBlock,
    toolCall: (call, input) => ({ type: 'tool_use', id: call.id, name: call.name, input }),
  });
}

/** Whether a block may carry `cache_control` (thinking blocks may not). */
export function markable(block: { type: string }): boolean {
  return block.type !== 'thinking' && block.type !== 'redacted_thinking';
}
