import type { Session } from '@skilltree/core';
import { type Message as CoreMessage, type ToolMessage as CoreToolMessage, textOf } from '@skilltree/core';
import type { TestMessage, TestToolMessage } from '@skilltree/testing';
import { type RenderAgentOptions, renderAgent } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { Kitchen } from '../src/kitchen.js';

/** A message as a test gets it: a view from the agent handle (`content` is text) or core's (parts). */
type Message = CoreMessage | TestMessage;
type ToolMessage = CoreToolMessage | TestToolMessage;

/** The text a model read of a message, whichever shape it comes in. */
export function text(message: Message): string {
  return typeof message.content === 'string' ? message.content : textOf(message as CoreMessage);
}

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

/** The text of a tool message without its `contextChanged` lines. */
export function own(message: Message): string {
  return text(message)
    .split('\n')
    .filter((line) => !line.startsWith('contextChanged'))
    .join('\n');
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
