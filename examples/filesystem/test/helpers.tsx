import type { Message, ToolMessage } from '@skilltree/core';
import { type RenderAgentOptions, renderAgent } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { FilesystemAgent } from '../src/filesystem-agent.js';

export function renderFs(root: string, options: RenderAgentOptions = {}) {
  return renderAgent(<FilesystemAgent root={root} />, options);
}

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

export function failed(message: ToolMessage): string {
  if (!message.isError) throw new Error(`expected ${message.name} to fail, got: ${message.content}`);
  return message.content;
}

/** Everything a sequence of requests carried, as one string. */
export function allText(messages: readonly Message[]): string {
  return JSON.stringify(messages);
}
