import { type Message as CoreMessage, type ToolMessage as CoreToolMessage, textOf } from '@skilltree/core';
import type { TestMessage, TestToolMessage } from '@skilltree/testing';
import { type RenderAgentOptions, renderAgent } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { FilesystemAgent } from '../src/filesystem-agent.js';

/** A message as a test gets it: a view from the agent handle (`content` is text) or core's (parts). */
type Message = CoreMessage | TestMessage;
type ToolMessage = CoreToolMessage | TestToolMessage;

/** The text a model read of a message, whichever shape it comes in. */
export function text(message: Message): string {
  return typeof message.content === 'string' ? message.content : textOf(message as CoreMessage);
}

export function renderFs(root: string, options: RenderAgentOptions = {}) {
  return renderAgent(<FilesystemAgent root={root} />, options);
}

/** The text of a tool message without its `contextChanged` lines. */
export function own(message: Message): string {
  return text(message)
    .split('\n')
    .filter((line) => !line.startsWith('contextChanged'))
    .join('\n');
}

export function ok(message: ToolMessage): string {
  if (message.isError) throw new Error(`expected ${message.name} to succeed, got: ${text(message)}`);
  return own(message);
}

export function failed(message: ToolMessage): string {
  if (!message.isError) throw new Error(`expected ${message.name} to fail, got: ${text(message)}`);
  return text(message);
}

/** Everything a sequence of requests carried, as one string. */
export function allText(messages: readonly Message[]): string {
  return JSON.stringify(messages);
}
