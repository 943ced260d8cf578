import type { ToolMessage } from '@skilltree/core';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';

/** The text of a tool message without its `contextChanged` lines. */
export function own(message: { content: string }): string {
  return message.content
    .split('\n')
    .filter((line) => !line.startsWith('contextChanged'))
    .join('\n');
}

export function ok(message: ToolMessage): string {
  if (message.isError) throw new Error(`expected ${message.name} to succeed, got: ${message.content}`);
  return own(message);
}
