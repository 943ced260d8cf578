/**
 * OpenAI's documented limits and types for file inputs, checked while a request body is built, so
 * that a file the API would refuse fails before anything is sent (an error naming the file, its
 * size, the limit and the fix), and a file of a type the API does not take is described in text
 * instead of being sent to get a 400.
 *
 * Sources: OpenAI's guide "Images and vision" (image input requirements: PNG, JPEG, WEBP and
 * non-animated GIF; up to 20 MB per image, 50 MB of image bytes and 500 images per request), the
 * guide "File inputs" / "PDF files" (up to 100 pages and 32 MB of total file content per request,
 * across the file inputs; Chat Completions takes PDF files only, and no file by URL), and the SDK's
 * types (`input_audio` in Chat Completions user messages, `wav` or `mp3`; the Responses API's input
 * content has no audio).
 */
import {
  describeFile,
  type FilePart,
  fileBytes,
  fileKind,
  type ModelAccepts,
  modelReads,
} from '@skilltree/core/provider';
import { ModelError } from './errors.js';

const MB = 1024 * 1024;

/** OpenAI's documented limits on the files of one request (see the module's sources). */
export const OPENAI_FILE_LIMITS = {
  /** Bytes of one image. */
  imageBytes: 20 * MB,
  /** Bytes of all images of one request. */
  requestImageBytes: 50 * MB,
  /** Images in one request. */
  requestImages: 500,
  /** Bytes of all other file content (PDFs, documents) of one request. */
  requestFileBytes: 32 * MB,
  /** PDF pages in one request, across its files. */
  requestPdfPages: 100,
} as const;

/** The image types OpenAI takes (a GIF only when it is not animated). */
export const OPENAI_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** The audio formats Chat Completions takes as `input_audio`, by media type. */
export const OPENAI_AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
};

/** A GIF with more than one frame (the Netscape looping extension, or a second image descriptor). */
export function animatedGif(data: string): boolean {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.includes('NETSCAPE2.0')) return true;
  // A frame starts with an image descriptor (0x2C) right after a graphic control extension block.
  let frames = 0;
  for (let i = bytes.indexOf(0x21); i !== -1 && i + 8 < bytes.length; i = bytes.indexOf(0x21, i + 1)) {
    if (bytes[i + 1] === 0xf9 && bytes[i + 2] === 4 && bytes[i + 7] === 0 && bytes[i + 8] === 0x2c) frames++;
    if (frames > 1) return true;
  }
  return false;
}

/**
 * The pages of a PDF, counted as its page objects (`/Type /Page`). A PDF whose page objects are
 * compressed inside object streams shows none: it counts 0 and only its size is checked.
 */
export function pdfPages(data: string): number {
  const text = Buffer.from(data, 'base64').toString('latin1');
  return text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

const name = (file: FilePart) => (file.filename ? `"${file.filename}"` : `a ${file.mediaType} file`);

/** The files of one request as they are added to its body: counted against OpenAI's limits. */
export class OpenAIFileBudget {
  #images = 0;
  #imageBytes = 0;
  #fileBytes = 0;
  #pages = 0;

  /** `api`: which API the request goes to, for the error's words. */
  constructor(readonly api: 'Responses' | 'Chat Completions') {}

  #fail(text: string): never {
    throw new ModelError(`openai: ${text}`, { provider: 'openai', kind: 'other' });
  }

  /** Counts an image by its bytes; throws past a limit. */
  image(file: FilePart): void {
    const L = OPENAI_FILE_LIMITS;
    const bytes = fileBytes(file);
    if (bytes > L.imageBytes) {
      this.#fail(
        `image ${name(file)} is ${bytes} bytes; OpenAI takes at most ${L.imageBytes} bytes (20 MB) per image. Send a smaller image (resize it), or lower the session's files.maxFileBytes to refuse such files when they are sent.`,
      );
    }
    this.#images++;
    this.#imageBytes += bytes;
    if (this.#images > L.requestImages) {
      this.#fail(
        `image ${name(file)} is image ${this.#images} of the request; OpenAI takes at most ${L.requestImages} images per request. Send fewer images, or fewer messages per request (maxTranscriptMessages).`,
      );
    }
    if (this.#imageBytes > L.requestImageBytes) {
      this.#fail(
        `with image ${name(file)} (${bytes} bytes) the request's images come to ${this.#imageBytes} bytes; OpenAI takes at most ${L.requestImageBytes} bytes (50 MB) of images per request. Send smaller images, or fewer messages per request (maxTranscriptMessages) so that older images leave the window.`,
      );
    }
  }

  /** Counts a file other than an image (a PDF: its pages too); throws past a limit. */
  file(file: FilePart): void {
    const L = OPENAI_FILE_LIMITS;
    const bytes = fileBytes(file);
    this.#fileBytes += bytes;
    if (this.#fileBytes > L.requestFileBytes) {
      const alone = bytes === this.#fileBytes;
      this.#fail(
        `${alone ? `file ${name(file)} is ${bytes} bytes` : `with file ${name(file)} (${bytes} bytes) the request's files come to ${this.#fileBytes} bytes`}; OpenAI takes at most ${L.requestFileBytes} bytes (32 MB) of file content per request. Send a smaller file (split the PDF), fewer messages per request (maxTranscriptMessages), or lower the session's files.maxFileBytes to refuse such files when they are sent.`,
      );
    }
    if (file.mediaType !== 'application/pdf' || file.data === undefined) return;
    const pages = pdfPages(file.data);
    this.#pages += pages;
    if (this.#pages > L.requestPdfPages) {
      this.#fail(
        `${pages === this.#pages ? `PDF ${name(file)} has ${pages} pages` : `with PDF ${name(file)} (${pages} pages) the request's PDFs come to ${this.#pages} pages`}; OpenAI takes at most ${L.requestPdfPages} PDF pages per request. Split the PDF, or send fewer messages per request (maxTranscriptMessages).`,
      );
    }
  }
}

/** What an adapter does with a file: send it as this kind, or send the text that describes it instead. */
export type FilePlan = { send: 'image' | 'file' | 'audio' } | { describe: string };

/**
 * What a file becomes in a request to `api` for a model that reads `accepts`: an image of a type
 * OpenAI takes, a file (any by bytes, or by URL, on Responses; a PDF by bytes on Chat Completions),
 * audio (WAV or MP3 bytes, Chat Completions, a model that hears), or else the line describing it.
 * Files sent are counted by `budget` (which throws past a limit).
 */
export function planFile(file: FilePart, accepts: ModelAccepts | undefined, budget: OpenAIFileBudget): FilePlan {
  const kind = fileKind(file.mediaType);
  const chat = budget.api === 'Chat Completions';
  const describe = (why: string): FilePlan => ({ describe: describeFile(file, why) });
  if (kind === 'audio' && !chat) return describe('the Responses API takes no audio');
  if (kind === 'image' || kind === 'pdf' || kind === 'audio') {
    if (!modelReads(accepts, kind)) {
      return describe(
        `this model cannot ${kind === 'audio' ? 'hear audio' : `read ${kind === 'pdf' ? 'PDFs' : 'images'}`}`,
      );
    }
  }
  if (kind === 'image') {
    if (!OPENAI_IMAGE_TYPES.includes(file.mediaType)) {
      return describe('OpenAI takes PNG, JPEG, WebP and non-animated GIF images only');
    }
    if (file.mediaType === 'image/gif' && file.data !== undefined && animatedGif(file.data)) {
      return describe('OpenAI takes no animated GIFs');
    }
    if (file.data !== undefined) budget.image(file);
    return { send: 'image' };
  }
  if (kind === 'audio') {
    if (!OPENAI_AUDIO_FORMATS[file.mediaType] || file.data === undefined) {
      return describe('OpenAI takes WAV or MP3 audio by its bytes only');
    }
    return { send: 'audio' };
  }
  if (chat && file.mediaType !== 'application/pdf') return describe('Chat Completions takes PDF files only');
  if (chat && file.data === undefined) return describe('Chat Completions takes no file by URL');
  if (file.data !== undefined) budget.file(file);
  return { send: 'file' };
}
