import { ownTextOf } from '@skilltree/core';
import type { TestToolMessage } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';

/** The text of a tool message without its `contextChanged` lines (a part of their own). */
export function own(message: TestToolMessage): string {
  return ownTextOf({ content: message.parts });
}

export function ok(message: TestToolMessage): string {
  if (message.isError) throw new Error(`expected ${message.name} to succeed, got: ${message.content}`);
  return own(message);
}
