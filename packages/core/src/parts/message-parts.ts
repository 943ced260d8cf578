/**
 * Typed message parts: building them, and reading a message's text the way a model reads it. One
 * place knows how parts render as text, so every layout and every surface agrees.
 */

import type {
  AssistantPart,
  ContextChange,
  ContextChangedPart,
  FilePart,
  Message,
  MessagePart,
  TextPart,
  ToolResultPart,
} from '../types/messages.js';
import type { ModelResponse } from '../types/model.js';
import { cleanReasoning } from './reasoning.js';
import { CONTEXT_CHANGED, wellFormed } from './text.js';

/**
 * The line a model reads for a context change: the one place these lines are written, so every
 * request, layout and surface shows the same bytes.
 *
 * @example
 * contextChangeLine({ kind: 'loaded', skill: 'notes' }); // 'contextChanged notes loaded'
 * contextChangeLine({ kind: 'line', skill: 'notes', text: 'Notes: milk' }); // 'contextChanged notes added: Notes: milk'
 */
export function contextChangeLine(change: ContextChange): string {
  return change.kind === 'line'
    ? `${CONTEXT_CHANGED} ${change.skill} added: ${change.text}`
    : `${CONTEXT_CHANGED} ${change.skill} ${change.kind}`;
}

/** A text part. */
export const textPart = (text: string): TextPart => ({ type: 'text', text });

/** `text` as a content list: one text part, or none for empty text. */
export function textContent(text: string): TextPart[] {
  return text === '' ? [] : [textPart(text)];
}

/** What an adapter sends for a list of parts: text runs (merged as a model reads them) and files. */
export type RenderedPart = TextPart | FilePart;

/**
 * The parts as a provider receives them: adjacent text and `contextChanged` lines merged into one
 * text (each line on a line of its own, after the text before it), files kept in place, reasoning
 * left out (adapters send reasoning from the parts themselves). Empty text is dropped.
 */
export function renderParts(parts: readonly MessagePart[]): RenderedPart[] {
  const out: RenderedPart[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') out.push(textPart(text));
    text = '';
  };
  for (const part of parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'context-changed') {
      const lines = part.changes.map(contextChangeLine).join('\n');
      text = text === '' ? lines : `${text}\n${lines}`;
    } else if (part.type === 'file') {
      flush();
      out.push(part);
    }
  }
  flush();
  return out;
}

/**
 * The text of a list of parts as a model reads it: text parts in order, each `contextChanged` line
 * on a line of its own after the text before it, a file as `[file: name]`. Reasoning is not text.
 */
export function partsText(parts: readonly MessagePart[]): string {
  let out = '';
  for (const part of renderParts(parts))
    out += part.type === 'text' ? part.text : `[file: ${part.filename ?? part.mediaType}]`;
  return out;
}

/**
 * A message's text exactly as a model reads it (what `content` held before messages had parts):
 * its text, then its `contextChanged` lines. Reasoning is left out; a file reads as `[file: name]`.
 *
 * @example
 * textOf({ role: 'user', content: [{ type: 'text', text: 'hi' }] }); // 'hi'
 */
export function textOf(message: Pick<Message, 'content'>): string {
  return partsText(message.content);
}

/** The message's own text, without its `contextChanged` lines. */
export function ownTextOf(message: Pick<Message, 'content'>): string {
  return partsText(message.content.filter((part) => part.type !== 'context-changed'));
}

/** The context changes recorded with a message, in order. */
export function contextChangesOf(message: Pick<Message, 'content'>): ContextChange[] {
  const out: ContextChange[] = [];
  for (const part of message.content) if (part.type === 'context-changed') out.push(...part.changes);
  return out;
}

/** `parts` with the context changes after them (as a part of their own), when there are any. */
export function withContextChanges<P extends MessagePart>(
  parts: P[],
  changes: readonly ContextChange[],
): (P | ContextChangedPart)[] {
  return changes.length === 0 ? parts : [...parts, { type: 'context-changed', changes: [...changes] }];
}

/** The reasoning parts of an assistant message, in order. */
export function reasoningOf(message: Pick<Message, 'content'>) {
  return message.content.filter(
    (part): part is Extract<AssistantPart, { type: 'reasoning' }> => part.type === 'reasoning',
  );
}

/** Tool result parts from a tool's text output. */
export const resultContent = (text: string): ToolResultPart[] => textContent(text);

/**
 * The parts of a response: its `content` checked (text made well-formed, reasoning via
 * {@link cleanReasoning}, anything else left out), or its `text` as one part for a model that
 * returns only text.
 */
export function cleanContent(response: Pick<ModelResponse, 'text' | 'content'>): AssistantPart[] {
  if (!Array.isArray(response.content)) {
    return textContent(typeof response.text === 'string' ? wellFormed(response.text) : '');
  }
  const out: AssistantPart[] = [];
  for (const part of response.content as unknown[]) {
    if (part === null || typeof part !== 'object') continue;
    const type = (part as { type?: unknown }).type;
    if (type === 'text' && typeof (part as TextPart).text === 'string') {
      const text = wellFormed((part as TextPart).text);
      const last = out.at(-1);
      if (last?.type === 'text') last.text += text;
      else if (text !== '') out.push(textPart(text));
    } else if (type === 'reasoning') {
      const reasoning = cleanReasoning(part);
      if (reasoning) out.push(reasoning);
    }
  }
  return out;
}
