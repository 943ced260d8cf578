import { contextChangesOf, type Message, ownTextOf } from '@skilltree/core';
import { type RenderAgentOptions, renderAgent, type TestMessage, type TestToolMessage } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { expect } from 'vitest';
import { OrdersDb } from '../src/db.js';
import { SupportDesk } from '../src/support-desk.js';

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

/** A message as core records it (its parts), from a test's view of it or from core itself. */
function parts(message: Message | TestMessage): Pick<Message, 'content'> {
  return { content: typeof message.content === 'string' ? (message as TestMessage).parts : message.content };
}

/** The `contextChanged` lines of a tool or user message (a part of their own, never parsed from text). */
export function changes(message: Message | TestMessage): string[] {
  return contextChangesOf(parts(message));
}

/** The text of a tool message without its `contextChanged` lines. */
export function own(message: Message | TestMessage): string {
  return ownTextOf(parts(message));
}

/** The tool's own text, after checking the call succeeded. */
export function ok(message: TestToolMessage): string {
  if (message.isError) throw new Error(`expected ${message.name} to succeed, got: ${message.content}`);
  return own(message);
}
