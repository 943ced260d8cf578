import { type RenderAgentOptions, renderAgent } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { expect } from 'vitest';
import { OrdersDb } from '../src/db.js';
import { SupportDesk } from '../src/support-desk.js';

// The message readers every example's tests share.
export { changes, ok, own, text } from '@skilltree/test-kit';

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
