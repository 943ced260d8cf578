import { ownTextOf } from '@skilltree/core';
import { type RenderAgentOptions, renderAgent, type TestMessage, type TestToolMessage } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { FilesystemAgent } from '../src/filesystem-agent.js';

export function renderFs(root: string, options: RenderAgentOptions = {}) {
  return renderAgent(<FilesystemAgent root={root} />, options);
}

/** The text of a tool message without its `contextChanged` lines (a part of their own). */
export function own(message: TestToolMessage): string {
  return ownTextOf({ content: message.parts });
}

export function ok(message: TestToolMessage): string {
  if (message.isError) throw new Error(`expected ${message.name} to succeed, got: ${message.content}`);
  return own(message);
}

export function failed(message: TestToolMessage): string {
  if (!message.isError) throw new Error(`expected ${message.name} to fail, got: ${message.content}`);
  return message.content;
}

/** Everything a sequence of messages carried, as one string (the text each one read). */
export function allText(messages: readonly TestMessage[]): string {
  return JSON.stringify(messages);
}
