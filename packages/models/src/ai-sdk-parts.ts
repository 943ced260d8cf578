/**
 * Message parts through the AI SDK's language model specification, both ways: files as `file` prompt
 * parts (and as tool-result content), and reasoning as `reasoning` parts whose provider metadata
 * carries what the provider needs to take it back: `@ai-sdk/anthropic`'s `signature` /
 * `redactedData`, `@ai-sdk/openai`'s `itemId` / `reasoningEncryptedContent`.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import {
  type AssistantPart,
  type FilePart,
  type Message,
  type ReasoningPart,
  renderParts,
  type ToolResultPart,
  type UserPart,
} from '@skilltree/core/provider';
import { toolInputObject } from './tool-input.js';

type Prompt = LanguageModelV3Message[];
type UserContent = Extract<LanguageModelV3Message, { role: 'user' }>['content'];
type AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];
type ToolResultOutput = Extract<
  Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>['output'];

/** Who a call goes to: the provider's name in provider metadata, the model id, the specification version. */
export interface AiSdkTarget {
  /** The provider metadata key, e.g. `anthropic` for `anthropic.messages`, `openai` for `openai.responses`. */
  provider: string;
  modelId: string;
  /** `v2` models take tool-result files as `media` content; `v3` and later as `file-data` / `image-data`. */
  version: string;
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
 * Whether a reasoning part goes back to `target`: only to the provider and model that produced it
 * (a signature or an encrypted item is bound to them), as with the native adapters.
 */
export function replaysTo(part: ReasoningPart, target: AiSdkTarget): boolean {
  return part.provider === target.provider && part.model === target.modelId;
}

/** A reasoning part as a prompt `reasoning` part, with the provider options its provider reads. */
function reasoningPromptPart(part: ReasoningPart): Extract<AssistantContent[number], { type: 'reasoning' }> {
  const meta: Record<string, string> = {};
  if (part.signature !== undefined) meta.signature = part.signature;
  if (part.redactedData !== undefined) meta.redactedData = part.redactedData;
  if (part.itemId !== undefined) meta.itemId = part.itemId;
  if (part.encryptedContent !== undefined) meta.reasoningEncryptedContent = part.encryptedContent;
  return {
    type: 'reasoning',
    text: part.text,
    ...(Object.keys(meta).length > 0 ? { providerOptions: { [part.provider]: meta } } : {}),
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
  const content: AssistantContent = [];
  for (const part of message.content as AssistantPart[]) {
    if (part.type === 'text') {
      if (part.text) content.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning' && replaysTo(part, target)) content.push(reasoningPromptPart(part));
  }
  for (const call of message.toolCalls ?? []) {
    content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: toolInputObject(call.input) });
  }
  prompt.push({ role: 'assistant', content });
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A reasoning part from the AI SDK (a `reasoning` content part, or a streamed one's text and merged
 * provider metadata): the provider is the metadata key that carries reasoning fields (else the
 * model's own), its fields copied byte-exact.
 */
export function reasoningFromSdk(text: string, providerMetadata: unknown, target: AiSdkTarget): ReasoningPart {
  let provider = target.provider;
  let meta: Record<string, unknown> = {};
  if (providerMetadata && typeof providerMetadata === 'object') {
    const entries = Object.entries(providerMetadata as Record<string, unknown>);
    const fields = ['signature', 'redactedData', 'itemId', 'reasoningEncryptedContent'];
    const found =
      entries.find(
        ([, v]) => v && typeof v === 'object' && fields.some((f) => str((v as Record<string, unknown>)[f])),
      ) ?? entries.find(([k]) => k === target.provider);
    if (found) {
      provider = found[0];
      meta = (found[1] ?? {}) as Record<string, unknown>;
    }
  }
  const part: ReasoningPart = { type: 'reasoning', provider, model: target.modelId, text };
  const signature = str(meta.signature);
  const redactedData = str(meta.redactedData);
  const itemId = str(meta.itemId);
  const encrypted = str(meta.reasoningEncryptedContent);
  if (signature !== undefined) part.signature = signature;
  if (redactedData !== undefined) part.redactedData = redactedData;
  if (itemId !== undefined) part.itemId = itemId;
  if (encrypted !== undefined) part.encryptedContent = encrypted;
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
