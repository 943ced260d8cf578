import { Agent, createSession, type Session, type SessionOptions, Skill } from '@skilltree/core';
import type { ReactNode } from 'react';
import { until } from './fixtures/server.js';

export { until };

/** An agent with one skill, "tools", that renders `children`, and an unrelated skill to push it out. */
export function agentWith(children: ReactNode, options: SessionOptions = {}): Session {
  return createSession(
    <Agent maxLoadedSkills={1}>
      <Skill name="tools" description="MCP tools">
        {children}
      </Skill>
      <Skill name="other" description="Something else">
        {null}
      </Skill>
    </Agent>,
    options,
  );
}

/**
 * Reads a skill as the model would (\`read_skill\`) and waits until its MCP servers answered (listed their tools or failed).
 *
 * Core settles React work after a read but does not yet wait for a suspended skill, so this polls
 * (bounded) until the skill's subtree has committed without a "connecting…" line.
 */
export async function readAndWait(session: Session, skill = 'tools', timeout = 10_000): Promise<void> {
  const read = await call(session, 'read_skill', { name: skill });
  if (read.isError) throw new Error(read.content);
  await session.settled();
  await until(
    () => {
      const entry = session.inspect().skillsByName.get(skill);
      if (!entry) return false;
      const committed = entry.lines.length > 0 || entry.tools.length > 0;
      return committed && !entry.lines.some((line) => line.includes('connecting…'));
    },
    `skill "${skill}" to list its MCP tools`,
    timeout,
  );
  await session.settled();
}

export function toolNamesOf(session: Session): string[] {
  return session.request().tools.map((t) => t.name);
}

/** Runs a tool call as the model would: an assistant message with the call, then its result. */
export async function call(session: Session, name: string, input: unknown = {}) {
  const [toolCall] = session.addAssistantMessage({ content: '', toolCalls: [{ id: '', name, input }] }).toolCalls!;
  return session.callTool(toolCall);
}
