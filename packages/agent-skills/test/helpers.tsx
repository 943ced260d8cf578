import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Agent,
  createSession,
  ownTextOf,
  type Session,
  type SessionOptions,
  scriptedModel,
  type ToolMessage,
} from '@skilltree/core';
import type { ReactNode } from 'react';
import { afterAll, afterEach } from 'vitest';
import type { SkillFolderMeta } from '../src/index.js';

/** A fixture folder under test/fixtures. */
export function fixture(...segments: string[]): string {
  return path.join(fileURLToPath(new URL('./fixtures/', import.meta.url)), ...segments);
}

const sessions: Session[] = [];
const temps: string[] = [];

afterEach(() => {
  for (const s of sessions.splice(0)) s.dispose();
});
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A session of `<Agent>{children}</Agent>` on an empty scripted model, disposed after the test. */
export function mount(children: ReactNode, options: SessionOptions = {}): Session {
  const session = createSession(<Agent>{children}</Agent>, { model: scriptedModel([]), ...options });
  sessions.push(session);
  return session;
}

/**
 * Calls a tool as the model would: an assistant message with the call, then the tool's result.
 * `content` is the tool's own text: the `contextChanged` lines recorded with it (the skill
 * loading, say) are a part of their own in `message.content`.
 */
export async function call(
  session: Session,
  name: string,
  input: unknown = {},
): Promise<{ content: string; isError?: boolean; message: ToolMessage }> {
  const [toolCall] = session.addAssistantMessage({ content: '', toolCalls: [{ id: '', name, input }] }).toolCalls!;
  const message = await session.callTool(toolCall);
  const content = ownTextOf(message);
  return message.isError ? { content, isError: true, message } : { content, message };
}

/** The `meta` a folder skill shows inspectors, as the session's view reports it. */
export function folderMeta(session: Session, name: string): SkillFolderMeta {
  const skill = session.view().skills.find((s) => s.name === name);
  if (!skill?.meta) throw new Error(`No skill "${name}" with meta in this session.`);
  return skill.meta as unknown as SkillFolderMeta;
}

/** A fresh temporary folder, removed after the test file; with `from`, a copy of that fixture folder. */
export function tempDir(from?: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-skills-'));
  temps.push(dir);
  if (from) cpSync(from, dir, { recursive: true });
  return dir;
}

/** A new skill folder `name` in a temp folder, holding only its SKILL.md (`description`, no body): its path. */
export function newSkill(name: string, description: string): string {
  const dir = path.join(tempDir(), name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n`);
  return dir;
}
