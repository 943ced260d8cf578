/**
 * The one place this package reads or writes a message's text. Core's `Message.content` is a string
 * today and becomes a list of typed parts; these helpers read both, so that change lands here only.
 */
import type { Message, ModelResponse, UserMessage } from '@skilltree/core';

/** The text parts of a content value, joined: a string as it is, a list of parts by their `text`. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => part && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('');
}

/** A message's text (for a tool result, what the tool returned, `contextChanged` lines included). */
export function textOf(message: Message): string {
  return contentText((message as { content?: unknown }).content);
}

/** A user message holding `text`, in the shape core's requests carry. */
export function userMessage(text: string): UserMessage {
  return { role: 'user', content: text };
}

/** The text of a model's response (its `text`, else its text parts). */
export function responseText(response: ModelResponse): string {
  const r = response as { text?: unknown; parts?: unknown };
  if (typeof r.text === 'string' && r.text !== '') return r.text;
  return contentText(r.parts) || (typeof r.text === 'string' ? r.text : '');
}
