import { type Message as CoreMessage, type ToolMessage as CoreToolMessage, textOf } from '@skilltree/core';
import type { TestMessage, TestToolMessage } from '@skilltree/testing';
import { type RenderAgentOptions, renderAgent } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { expect } from 'vitest';
import { OrdersDb } from '../src/db.js';
import { SupportDesk } from '../src/support-desk.js';

/** A message as a test gets it: a view from the agent handle (`content` is text) or core's (parts). */
type Message = CoreMessage | TestMessage;
type ToolMessage = CoreToolMessage | TestToolMessage;

/** The text a model read of a message, whichever shape it comes in. */
export function text(message: Message): string {
  return typeof message.content === 'string' ? message.content : textOf(message as CoreMessage);
}

/** The desk over a fresh copy of the seed data; returns the database too, to check what tools wrote. */
export function renderDesk(options: RenderAgentOptions = {}) {
  const db = new OrdersDb();
  const agent = renderAgent(<SupportDesk db={db} />, options);
  return { agent, db };
}

type Agent = ReturnType<typeof renderDesk>['agent'];

/**
 * Reads a skill the way the model does, with a `read_skill` call, so that the load's
 * `contextChanged` lines land in that call's result (and not in the next tool's).
 */
export async function read(agent: Agent, name: string) {
  return agent.callTool('read_skill', { name });
}

/** Reads `account` and identifies Dana Whitfield, the customer of the demo. */
export async function identifyDana(agent: Agent) {
  await read(agent, 'account');
  const result = await agent.callTool('identify_customer', { email: 'dana.whitfield@example.com' });
  expect(result.isError).toBeFalsy();
  return result;
}

/** The `contextChanged` lines of a tool or user message. */
export function changes(message: Message): string[] {
  return text(message)
    .split('\n')
    .filter((line) => line.startsWith('contextChanged'));
}

/** The text of a tool message without its `contextChanged` lines. */
export function own(message: Message): string {
  return text(message)
    .split('\n')
    .filter((line) => !line.startsWith('contextChanged'))
    .join('\n');
}

/** The tool's own text, after checking the call succeeded. */
export function ok(message: ToolMessage): string {
  if (message.isError) throw new Error(`expected ${message.name} to succeed, got: ${text(message)}`);
  return own(message);
}
