import { type Message, textOf } from '@skilltree/core';

/** One message as a line (or a few), the way the snippets in these docs print transcripts. */
export function show(message: Message): string {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((c) => `${c.name}(${JSON.stringify(c.input)})`);
    return `assistant: ${[textOf(message), ...calls].filter(Boolean).join(' ')}`;
  }
  if (message.role === 'tool') return `tool ${message.name}${message.isError ? ' (error)' : ''}: ${textOf(message)}`;
  return `user: ${textOf(message)}`;
}
