/**
 * The one place this package reads or writes a message's text. Messages are lists of typed parts
 * (see `docs/messages.md`); what an eval scores and shows is the text a model reads, which core's
 * `textOf` gives.
 */
import { textOf as coreTextOf, type Message, type UserMessage } from '@skilltree/core';
import { type AssistantPart, type ModelResponse, partsText, textContent } from '@skilltree/core/provider';

/**
 * A message's text as the model reads it: its text parts, then its `contextChanged` lines (for a
 * tool result, what the tool returned and what the context gained). Reasoning is not text; a file
 * reads as `[file: name]`.
 */
export function textOf(message: Message): string {
  return coreTextOf(message);
}

/** A user message holding `text`, in the shape core's requests carry. */
export function userMessage(text: string): UserMessage {
  return { role: 'user', content: textContent(text) };
}

/** The text of a model's response: its `text`, else the text of its parts (reasoning left out). */
export function responseText(response: ModelResponse): string {
  if (typeof response.text === 'string' && response.text !== '') return response.text;
  const content = (response as { content?: unknown }).content;
  if (!Array.isArray(content)) return typeof response.text === 'string' ? response.text : '';
  // Only well-formed text parts count: a judge's reply is read, never trusted to be a valid response.
  const parts = content.filter(
    (part): part is AssistantPart =>
      !!part && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string',
  );
  return partsText(parts);
}
