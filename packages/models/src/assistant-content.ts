/**
 * An assistant message as one adapter's wire content, walked once for the adapters that send it
 * as a list of parts (Anthropic's blocks, the AI SDK's prompt parts): text and reasoning in order,
 * reasoning only where the adapter says it replays, then one entry per tool call. The chain ends
 * in `unmappedPart`, so a new assistant part kind fails to compile here until it is mapped.
 */
import type { AssistantMessage, ReasoningPart, ToolCall } from '@skilltree/core/provider';
import { toolInputObject } from './tool-input.js';
import { unmappedPart } from './unmapped-part.js';

/** How one adapter writes each kind of an assistant message's content. */
export interface AssistantWire<T> {
  /** The adapter as a user writes it (`anthropic()`), for the error on a part it does not map. */
  adapter: string;
  /** Whether this reasoning part goes back to the model (core's `replaysTo`, and what the adapter needs of it). */
  replays(part: ReasoningPart): boolean;
  /** A non-empty run of text. */
  text(text: string): T;
  /** A reasoning part that replays. */
  reasoning(part: ReasoningPart): T;
  /** A tool call, its input as an object (a string input parsed, anything else `{}`). */
  toolCall(call: ToolCall, input: Record<string, unknown>): T;
}

/** The content of an assistant message as `wire` writes it. */
export function assistantContent<T>(message: AssistantMessage, wire: AssistantWire<T>): T[] {
  const out: T[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text) out.push(wire.text(part.text));
    } else if (part.type === 'reasoning') {
      if (wire.replays(part)) out.push(wire.reasoning(part));
    } else unmappedPart(part, wire.adapter);
  }
  for (const call of message.toolCalls ?? []) out.push(wire.toolCall(call, toolInputObject(call.input)));
  return out;
}
