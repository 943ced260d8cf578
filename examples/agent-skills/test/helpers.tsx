import type { Session, ToolMessage } from '@skilltree/core';
import { type RenderAgentOptions, renderAgent } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { text } from '@skilltree/test-kit';
import { Kitchen } from '../src/kitchen.js';

// The message readers every example's tests share.
export { own, text } from '@skilltree/test-kit';

/** The kitchen agent in a fresh session. */
export function renderKitchen(options: RenderAgentOptions = {}) {
  return renderAgent(<Kitchen />, options);
}

type Agent = ReturnType<typeof renderKitchen>;

/**
 * Reads a skill the way the model does, with a `read_skill` call. Reading `units` waits until the
 * MCP server has listed its tools (the skill suspends until then), so they are offered at once.
 */
export async function read(agent: Agent, name: string): Promise<ToolMessage> {
  const result = await agent.callTool('read_skill', { name });
  if (result.isError) throw new Error(`read_skill ${name} failed: ${text(result)}`);
  return result;
}

/** The process id of the stdio server behind an MCP tool, from the tool's `meta` (what inspectors show). */
export function serverPid(session: Session, tool: string): number {
  const pid = session.view().tools.find((t) => t.name === tool)?.meta?.pid;
  if (typeof pid !== 'number') throw new Error(`tool ${tool} has no pid in its meta: is the units skill loaded?`);
  return pid;
}

/** True while a process with this id runs (signal 0 checks without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
