import {
  Agent,
  createSession,
  ownTextOf,
  type Session,
  type SessionOptions,
  Skill,
  type ToolMessage,
  textOf,
} from '@skilltree/core';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
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

/** Runs a tool call as the model would: an assistant message with the call, then its result. */
export async function call(session: Session, name: string, input: unknown = {}): Promise<ToolMessage> {
  const [toolCall] = session.addAssistantMessage({ content: '', toolCalls: [{ id: '', name, input }] }).toolCalls!;
  return session.callTool(toolCall);
}

/**
 * Reads a skill as the model would (`read_skill`). The session waits while the skill suspends, so
 * when this resolves its MCP servers have listed their tools (or failed).
 */
export async function read(session: Session, skill = 'tools'): Promise<ToolMessage> {
  const result = await call(session, 'read_skill', { name: skill });
  if (result.isError) throw new Error(textOf(result));
  return result;
}

export function toolNamesOf(session: Session): string[] {
  return session.request().tools.map((t) => t.name);
}

/** The lines of a skill's part of `<current_context>`, as the model reads them. */
export function linesOf(session: Session, skill = 'tools'): string[] {
  return session
    .view()
    .sections.filter((s) => s.skill === skill)
    .flatMap((s) => s.lines.map((l) => l.text));
}

/** A tool's `meta` prop, as inspectors see it. */
export function metaOf(session: Session, tool: string): Record<string, unknown> | undefined {
  return session.view().tools.find((t) => t.name === tool)?.meta;
}

/** The text of a tool result without the `contextChanged` lines recorded with it. */
export function ownText(message: ToolMessage): string {
  return ownTextOf(message);
}

/** The text of a tool result as the model reads it (its `contextChanged` lines included). */
export function fullText(message: ToolMessage): string {
  return textOf(message);
}

/**
 * Reads the "tools" skill of a server that fails: the read's result ends with `failure` as a
 * context line, `failure` is the one line of the skill, no tool of the server is offered, and the
 * session goes on (another skill still reads). Returns the read's result.
 */
export async function readFailedServer(session: Session, failure: string): Promise<ToolMessage> {
  const result = await read(session);
  expect(fullText(result).split('\n').at(-1)).toBe(`contextChanged tools added: ${failure}`);
  expect(linesOf(session, 'tools')).toEqual([failure]);
  expect(toolNamesOf(session)).toEqual(['read_skill']);
  expect((await call(session, 'read_skill', { name: 'other' })).isError).toBeUndefined();
  return result;
}
