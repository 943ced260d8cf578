/**
 * Usage estimated from characters, where no provider reports it: the scripted model's usage (so
 * cost lines, the Cost view and budgets work offline) and a budget's look-ahead at the next request.
 * One estimate everywhere: 4 characters per token (`estimateTokens`), the one the token window uses.
 */

import { estimateFileTokens } from '../files/files.js';
import { textOf } from '../parts/message-parts.js';
import { nestsWithin, TOO_DEEP_INPUT } from '../parts/tool-input-depth.js';
import { estimateTokens } from '../transcript/window.js';
import type { AssistantMessage, Message } from '../types/messages.js';
import type { ModelResponse, Usage } from '../types/model.js';
import type { AppendOnlyItem, ModelRequest, SystemNote, ToolSpec } from '../types/request.js';
import { placeContext } from './place-context.js';

function messageText(message: Message): string {
  if (message.role === 'assistant') {
    const calls = message.toolCalls?.map((c) => `${c.id} ${c.name} ${JSON.stringify(c.input ?? {})}`).join('\n');
    let reasoning = '';
    for (const part of message.content) {
      if (part.type === 'reasoning')
        reasoning += `${part.text}${Object.values(part.providerData ?? {})
          .filter((value) => typeof value === 'string')
          .join('')}\n`;
    }
    return `assistant\n${reasoning}${textOf(message)}${calls ? `\n${calls}` : ''}`;
  }
  if (message.role === 'tool') return `tool ${message.toolCallId} ${message.name}\n${textOf(message)}`;
  return `user\n${textOf(message)}`;
}

/** `JSON.stringify(schema)` by schema object: schemas are made once per zod schema (or `jsonSchema()`) and never change. */
const schemaJsons = new WeakMap<object, string>();

/**
 * `JSON.stringify(spec.inputSchema)`, stringified once per schema object (undefined when there is
 * none, as `JSON.stringify` says). Offered tools keep their schema objects across requests and
 * re-renders, so a step stringifies no schema it stringified before.
 */
export function inputSchemaJson(spec: ToolSpec): string | undefined {
  const schema: unknown = spec.inputSchema;
  if (schema === null || typeof schema !== 'object') return JSON.stringify(schema);
  let json = schemaJsons.get(schema);
  if (json === undefined) {
    json = JSON.stringify(schema);
    schemaJsons.set(schema, json);
  }
  return json;
}

/** A tool as the estimate reads it: `name: description {schema}`. */
export function specText(spec: ToolSpec): string {
  return `${spec.name}: ${spec.description} ${inputSchemaJson(spec)}`;
}

/** What the estimate knows of a message, valid while its `content` and `toolCalls` are the ones it was made from. */
interface MessageEstimate {
  content: unknown;
  toolCalls: unknown;
  /** `messageText(message).length`. */
  chars: number;
  /** Tokens of the files it carries. */
  files: number;
}

/**
 * Estimates by message. A recorded message is never changed (a new version is a new object), so a
 * step flattens only the messages it has not seen: the request's estimate costs in proportion to
 * the window, and each message's text is read once.
 */
const estimates = new WeakMap<object, MessageEstimate>();

function estimateOf(message: Message): MessageEstimate {
  const known = estimates.get(message);
  if (known && known.content === message.content && known.toolCalls === (message as AssistantMessage).toolCalls) {
    return known;
  }
  let files = 0;
  if (Array.isArray(message.content)) {
    for (const part of message.content) if (part.type === 'file') files += estimateFileTokens(part);
  }
  const value: MessageEstimate = {
    content: message.content,
    toolCalls: (message as AssistantMessage).toolCalls,
    chars: messageText(message).length,
    files,
  };
  estimates.set(message, value);
  return value;
}

/**
 * A recorded message as the estimate counts it: its characters and the tokens of its files, each
 * worked out once per message.
 */
export function messageEstimate(message: Message): { chars: number; files: number } {
  return estimateOf(message);
}

/** Characters of the tools as the estimate flattens them, one per line. */
function toolsChars(tools: readonly ToolSpec[]): number {
  let n = Math.max(0, tools.length - 1);
  for (const spec of tools) n += specText(spec).length;
  return n;
}

/** Characters of an append-only note as the estimate flattens it. */
function noteText(note: SystemNote): string {
  return `system\n${note.text}${note.addedTools.map((t) => `\n+${specText(t)}`).join('')}${note.removedTools.map((n) => `\n-${n}`).join('')}`;
}

/** The request's parts as the estimate reads them, for both ways of counting. */
function flattenable(request: ModelRequest): {
  tools: readonly ToolSpec[];
  system: string;
  items: readonly AppendOnlyItem[];
  fresh: number;
} {
  const ao = request?.appendOnly;
  if (ao && Array.isArray(ao.items)) {
    // What an append-only model receives: the first request's tools and system, then the items.
    return { tools: ao.tools, system: ao.system, items: ao.items, fresh: -1 };
  }
  // A hand-made request (a test calling generate directly) may lack parts: estimate what is there.
  const whole: ModelRequest = {
    system: typeof request?.system === 'string' ? request.system : '',
    context: typeof request?.context === 'string' ? request.context : '',
    messages: Array.isArray(request?.messages) ? request.messages : [],
    tools: Array.isArray(request?.tools) ? request.tools : [],
    contextPlacement: request?.contextPlacement === 'system' ? 'system' : 'end',
  };
  const placed = placeContext(whole);
  // The message that carries the context is made for this request (none when it went to the system prompt).
  return {
    tools: whole.tools,
    system: placed.system,
    items: placed.messages,
    fresh: placed.placed === 'system' ? -1 : placed.placed,
  };
}

/**
 * The request as a provider receives it, flattened to text in the order providers cache it: tools,
 * the system prompt, then the messages, with `<current_context>` placed as the request says.
 */
export function requestText(request: ModelRequest): string {
  const { tools, system, items } = flattenable(request);
  const texts = items.map((item) =>
    item.role === 'system' ? noteText(item as SystemNote) : messageText(item as Message),
  );
  return [tools.map(specText).join('\n'), system, ...texts].join('\n\n');
}

/**
 * `requestText(request).length`, counted without building the text: each message's length is
 * known from an earlier step (only the message carrying the placed context is new every request).
 */
export function requestChars(request: ModelRequest): number {
  const { tools, system, items, fresh } = flattenable(request);
  // `join` reads a missing system prompt as ''.
  let n = toolsChars(tools) + (system == null ? 0 : String(system).length);
  items.forEach((item, i) => {
    if (item.role === 'system') n += noteText(item as SystemNote).length;
    // The message that carries the placed context is made for this request: not worth keeping.
    else if (i === fresh) n += messageText(item as Message).length;
    else n += estimateOf(item as Message).chars;
  });
  // The separators: a blank line between the tools, the system prompt and each item.
  return n + 2 * (items.length + 1);
}

/** Estimated input tokens of `request`: `estimateTokens(requestText(request))` and its files, counted incrementally. */
export function estimateRequestTokens(request: ModelRequest): number {
  // `estimateTokens` of a text of this many characters.
  return Math.ceil(requestChars(request) / 4) + fileTokens(request);
}

/** Estimated tokens of the files a request carries (images by their size, as providers bill them). */
function fileTokens(request: ModelRequest): number {
  const items = request?.appendOnly?.items ?? (Array.isArray(request?.messages) ? request.messages : []);
  let n = 0;
  for (const item of items) if (item.role !== 'system') n += estimateOf(item as Message).files;
  return n;
}

/**
 * Estimated output tokens of a response: its text and its tool calls, plus `moreChars` characters
 * of output streamed beside them (reasoning, billed as output by every provider, and a tool call's
 * input cut off before the call was whole), at 4 characters per token.
 */
export function estimateResponseTokens(response: Pick<ModelResponse, 'text' | 'toolCalls'>, moreChars = 0): number {
  let text = response.text;
  for (const call of response.toolCalls) text += `\n${call?.name} ${inputText(call?.input)}`;
  return estimateTokens(text) + (moreChars > 0 ? Math.ceil(moreChars / 4) : 0);
}

/** A call's input as JSON for counting; input too deep (or circular) to serialize counts as its placeholder. */
function inputText(input: unknown): string {
  if (!nestsWithin(input)) return TOO_DEEP_INPUT;
  try {
    return JSON.stringify(input ?? {}) ?? '';
  } catch {
    return '';
  }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * An estimator of usage for one conversation: input and output at 4 characters per token, and cache
 * reads as the prefix this request shares with the previous one (what a provider's prefix cache
 * could read at best). Cache writes are not estimated. Every result has `estimated: true`.
 */
export function usageEstimator(): (
  request: ModelRequest,
  response: Pick<ModelResponse, 'text' | 'toolCalls'>,
) => Usage {
  let previous: string | null = null;
  return (request, response) => {
    const text = requestText(request);
    const inputTokens = estimateTokens(text) + fileTokens(request);
    const usage: Usage = { inputTokens, outputTokens: estimateResponseTokens(response), estimated: true };
    if (previous !== null) usage.cacheReadTokens = Math.min(inputTokens, Math.floor(commonPrefix(previous, text) / 4));
    previous = text;
    return usage;
  };
}
