import type { Message } from '@skilltree/core';

/** One message as a line (or a few), the way the snippets in these docs print transcripts. */
export function show(message: Message): string {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((c) => `${c.name}(${JSON.stringify(c.input)})`);
    return `assistant: ${[message.content, ...calls].filter(Boolean).join(' ')}`;
  }
  if (message.role === 'tool') return `tool ${message.name}${message.isError ? ' (error)' : ''}: ${message.content}`;
  return `user: ${message.content}`;
}
