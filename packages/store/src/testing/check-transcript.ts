/** The transcript rule every stored chat keeps, as a check tests run on what a store holds. */
import type { Message } from '@skilltree/core';

/**
 * Problems with a transcript, or an empty list when it is valid: every tool result answers a call
 * of the assistant message before it, no call is left without its result when the next user or
 * assistant message comes, and tool-call ids are unique.
 */
export function checkTranscript(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let open = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!open.delete(m.toolCallId)) problems.push(`#${i}: result for ${m.toolCallId}, which no open call made`);
      return;
    }
    if (open.size > 0) problems.push(`#${i}: ${m.role} message while ${[...open].join(', ')} had no result`);
    open = new Set();
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) {
        if (seen.has(call.id)) problems.push(`#${i}: tool call id ${call.id} used twice`);
        seen.add(call.id);
        open.add(call.id);
      }
    }
  });
  if (open.size > 0) problems.push(`the last calls (${[...open].join(', ')}) have no result`);
  return problems;
}
