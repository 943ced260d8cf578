/**
 * Message parts through the AI SDK's language model specification, both ways: files as `file` prompt
 * parts (and as tool-result content), and reasoning as `reasoning` parts whose provider metadata
 * carries what the provider needs to take it back (`@ai-sdk/anthropic`'s `signature` /
 * `redactedData`, `@ai-sdk/openai`'s `itemId` / `reasoningEncryptedContent`): kept as the part's
 * opaque `providerData`, and sent back as provider options only to this adapter's source.
 */
import type { LanguageModelV3Message, SharedV3ProviderOptions as SharedProviderOptions } from '@ai-sdk/provider';
import {
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

type Prompt = LanguageModelV3Message[];
type UserContent = Extract<LanguageModelV3Message, { role: 'user' }>['content'];
type AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];
type ToolResultOutput = Extract<
  Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>['output'];

/**
 * Who a call goes to: the provider's name in provider metadata, the model id, the specification
 * version, and the adapter's source (as its reasoning parts name it).
 */
export interface AiSdkTarget {
  /** The provider metadata key, e.g. `anthropic` for `anthropic.messages`, `openai` for `openai.responses`. */
  provider: string;
  modelId: string;
  /** `v2` models take tool-result files as `media` content; `v3` and later as `file-data` / `image-data`. */
  version: string;
  /** The adapter as its reasoning parts name it: reasoning goes back only where `replaysTo` says. */
  source: ReasoningSource;
}

/** The key a provider's metadata goes under: the part of `provider` before the first dot. */
export function metadataKey(provider: string): string {
  return provider.split('.')[0] || provider;
}

/** A file as a prompt `file` part: its bytes (base64) or its URL. */
function filePart(file: FilePart): Extract<UserContent[number], { type: 'file' }> {
  const data = file.data !== undefined ? file.data : new URL(file.url ?? '');
  return { type: 'file', mediaType: file.mediaType, data, ...(file.filename ? { filename: file.filename } : {}) };
}

/** A user message's content: text runs (the `contextChanged` lines after the text, as a model reads them) and files. */
function userContent(parts: readonly UserPart[]): UserContent {
  return renderParts(parts).map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : filePart(p)));
}

/**
 * A tool result's output: `text` (or `error-text`) when it is text only, as before parts; with
 * files, `content` with text and each file (`v2`: `media`; later: `image-data` / `file-data`, or
 * `image-url` / `file-url` for a file known by URL).
 */
function toolOutput(parts: readonly ToolResultPart[], isError: boolean | undefined, version: string): ToolResultOutput {
  const rendered = renderParts(parts);
  if (rendered.every((p) => p.type === 'text')) {
    const value = rendered.map((p) => (p as { text: string }).text).join('');
    return isError ? { type: 'error-text', value } : { type: 'text', value };
  }
  const value = rendered.map((p) => {
    if (p.type === 'text') return { type: 'text' as const, text: p.text };
    const image = p.mediaType.startsWith('image/');
    if (version === 'v2') {
      // v2's only file shape in tool results: bytes and a media type (a URL is named in text).
      if (p.data === undefined) return { type: 'text' as const, text: `[file: ${p.filename || p.mediaType}]` };
      return { type: 'media', data: p.data, mediaType: p.mediaType } as never;
    }
    if (p.data !== undefined) {
      return image
        ? { type: 'image-data' as const, data: p.data, mediaType: p.mediaType }
        : {
            type: 'file-data' as const,
            data: p.data,
            mediaType: p.mediaType,
            ...(p.filename ? { filename: p.filename } : {}),
          };
    }
    return image
      ? { type: 'image-url' as const, url: p.url ?? '' }
      : { type: 'file-url' as const, url: p.url ?? '', mediaType: p.mediaType };
  });
  return { type: 'content', value };
}

/**
 * A reasoning part as a prompt `reasoning` part: its payload is the provider options it came with
 * (`{ anthropic: { signature } }`, `{ openai: { itemId, reasoningEncryptedContent } }`), sent back as
 * they were.
 */
function reasoningPromptPart(part: ReasoningPart): Extract<AssistantContent[number], { type: 'reasoning' }> {
  const options = part.providerData as SharedProviderOptions | undefined;
  return {
    type: 'reasoning',
    text: part.text,
    ...(options && Object.keys(options).length > 0 ? { providerOptions: options } : {}),
  };
}

/** Appends a transcript message to `prompt`, as the AI SDK itself would send it. */
export function appendMessage(prompt: Prompt, message: Message, target: AiSdkTarget): void {
  if (message.role === 'user') {
    prompt.push({ role: 'user', content: userContent(message.content) });
    return;
  }
  if (message.role === 'tool') {
    const part = {
      type: 'tool-result' as const,
      toolCallId: message.toolCallId,
      toolName: message.name,
      output: toolOutput(message.content, message.isError, target.version),
    };
    // Results of one assistant message share one tool message, as the AI SDK itself sends them.
    const last = prompt[prompt.length - 1];
    if (last?.role === 'tool') last.content.push(part);
    else prompt.push({ role: 'tool', content: [part] });
    return;
  }
  const content = assistantContent<AssistantContent[number]>(message, {
    adapter: 'aiSdk()',
    replays: (part) => replaysTo(part, target.source),
    text: (text) => ({ type: 'text', text }),
    reasoning: reasoningPromptPart,
    toolCall: (call, input) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input }),
  });
  prompt.push({ role: 'assistant', content });
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The provider metadata fields that carry what a provider needs to take its reasoning back. */
const REASONING_META = ['signature', 'redactedData', 'itemId', 'reasoningEncryptedContent'];

/**
 * A reasoning part from the AI SDK (a `reasoning` content part, or a streamed one's text and merged
 * provider metadata), of this adapter's source: its payload is the metadata entry that carries
 * reasoning fields (else the model's own), those fields copied byte-exact under their key, which is
 * what the provider reads back as provider options.
 */
export function reasoningFromSdk(text: string, providerMetadata: unknown, target: AiSdkTarget): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', ...target.source, text };
  if (!providerMetadata || typeof providerMetadata !== 'object') return part;
  const entries = Object.entries(providerMetadata as Record<string, unknown>);
  const found =
    entries.find(
      ([, v]) => v && typeof v === 'object' && REASONING_META.some((f) => str((v as Record<string, unknown>)[f])),
    ) ?? entries.find(([k]) => k === target.provider);
  if (!found) return part;
  const meta = (found[1] ?? {}) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const field of REASONING_META) {
    const value = str(meta[field]);
    if (value !== undefined) fields[field] = value;
  }
  if (Object.keys(fields).length > 0) part.providerData = { [found[0]]: fields };
  return part;
}

/** Provider metadata of a stream's parts for one reasoning block, merged (a later non-empty value wins). */
export function mergeMetadata(into: Record<string, Record<string, unknown>>, from: unknown): void {
  if (!from || typeof from !== 'object') return;
  for (const [key, value] of Object.entries(from as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    into[key] ??= {};
    const target = into[key];
    for (const [field, v] of Object.entries(value as Record<string, unknown>)) {
      if (v != null && v !== '') target[field] = v;
    }
  }
}
