/**
 * The rule a provider holds every transcript to: each tool call answered by exactly one result,
 * before the next user message. Tests that stop a turn midway check it still holds.
 */
import type { Message } from '@skilltree/core';

/** Every tool call in `messages` has exactly one result after it, before the next user message. */
export function transcriptIsValid(messages: Message[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) open.add(call.id);
    if (m.role === 'tool' && !open.delete(m.toolCallId)) return false;
    if (m.role === 'user' && open.size > 0) return false;
  }
  return open.size === 0;
}
