/**
 * Checking a restored lifecycle log before anything is sent from it. A log comes from outside (a
 * snapshot's JSON, a store's record): well-formed, it can still be wrong — a tool removal of a tool
 * never added, a skill loaded twice, lines the skill never rendered. Sent as is, it would make an
 * invalid request (a provider refuses it, on every turn of the chat) or put text the app never
 * wrote into system messages. So a restored log must be one the session could have recorded: it is
 * replayed from its base against the transcript and the tree, and the first rule it breaks is the
 * answer. A session drops such a log and states its loaded skills again with its next message, as
 * for a snapshot without a log.
 */

import { SEARCH_TOOL_NAME, searching } from '../host/catalog.js';
import { isOffered } from '../host/prompt.js';
import type { TreeSnapshot } from '../host/serialize.js';
import { contextChangesOf } from '../parts/message-parts.js';
import { isToolName } from '../parts/tool-name.js';
import type { Message } from '../types/messages.js';
import type { LifecycleEntry, ToolSpec } from '../types/request.js';
import type { LifecycleLogData } from '../types/session.js';
import { lineChange } from './context-changes.js';

/** What a restored log is checked against. */
export interface LogCheckInputs {
  /** The tree as restored: its loaded skills are mounted. */
  snap: TreeSnapshot;
  readToolName: string;
  /** The session's `contextLineLimit`: how much of a line its `contextChanged … added:` line keeps. */
  contextLineLimit: number;
  /** The restored transcript: its messages from index `start` of the whole transcript on. */
  messages: readonly Message[];
  start: number;
}

/** A skill as the log has announced it so far, and which of its lines were proven. */
interface Announced {
  tools: string[];
}

/** The key of a `line` change in {@link LineCheck.recorded}: its section and text. */
const lineKey = (skill: string, text: string) => `${skill}\u0000${text}`;

/** What the log says a skill stated, and why it may. */
interface LineCheck {
  snap: TreeSnapshot;
  limit: number;
  /** Every `line` change of the restored transcript, by {@link lineKey}. */
  recorded: ReadonlySet<string>;
  /** Lines of each skill already proven in this log. */
  proven: Map<string, Set<string>>;
}

/**
 * Whether `line` of skill `skill` is one the app rendered: the skill renders it now, or the
 * transcript records it (its `contextChanged <skill> added:` line, which keeps the first
 * `contextLineLimit` characters), or the log stated it for that skill before. Blank lines say
 * nothing.
 */
function provenLine(check: LineCheck, skill: string, line: string): boolean {
  if (line.trim() === '') return true;
  if (check.proven.get(skill)?.has(line)) return true;
  const now = check.snap.skillsByName.get(skill)?.lines ?? [];
  const change = lineChange(skill, line, check.limit);
  const recorded = change.kind === 'line' && check.recorded.has(lineKey(change.skill, change.text));
  if (!now.includes(line) && !recorded) return false;
  const lines = check.proven.get(skill) ?? new Set<string>();
  check.proven.set(skill, lines.add(line));
  return true;
}

/** The first problem with a skill's statement (its name, lines and tools), or null. */
function statementProblem(
  check: LineCheck,
  offered: ReadonlyMap<string, string>,
  skill: string,
  lines: readonly string[],
  tools: readonly ToolSpec[],
): string | null {
  if (!check.snap.skillsByName.has(skill)) return `skill "${skill}" is not in the agent`;
  const line = lines.find((l) => !provenLine(check, skill, l));
  if (line !== undefined) {
    return `a line of skill "${skill}" that it does not render and the transcript does not record: ${JSON.stringify(line.slice(0, 80))}`;
  }
  return toolsProblem(offered, tools);
}

/** The first problem with tools a statement adds: a name outside the rule, or one already offered. */
function toolsProblem(offered: ReadonlyMap<string, string>, tools: readonly ToolSpec[]): string | null {
  const names = new Set<string>();
  for (const tool of tools) {
    if (!isToolName(tool.name)) return `a tool named ${JSON.stringify(tool.name)}, which is not a tool name`;
    if (offered.has(tool.name) || names.has(tool.name)) return `tool "${tool.name}" added while it is already offered`;
    names.add(tool.name);
  }
  return null;
}

/** Applies one entry to the announced skills and offered tools; returns its problem, or null. */
function applyEntry(
  check: LineCheck,
  announced: Map<string, Announced>,
  offered: Map<string, string>,
  entry: LifecycleEntry,
): string | null {
  if (entry.skill === null) return 'a tool change outside any skill (never recorded)';
  const skill = announced.get(entry.skill);
  if (entry.type === 'loaded') {
    if (skill) return `skill "${entry.skill}" loaded while it is already loaded`;
    const problem = statementProblem(check, offered, entry.skill, entry.lines, entry.tools);
    if (problem) return problem;
    announced.set(entry.skill, { tools: entry.tools.map((t) => t.name) });
    for (const tool of entry.tools) offered.set(tool.name, entry.skill);
    return null;
  }
  if (!skill)
    return `skill "${entry.skill}" ${entry.type === 'unloaded' ? 'unloaded' : 'changed its tools'} while it is not loaded`;
  if (entry.type === 'unloaded') {
    const same = entry.tools.length === skill.tools.length && entry.tools.every((t) => skill.tools.includes(t));
    if (!same) return `skill "${entry.skill}" unloaded with other tools than it has`;
    announced.delete(entry.skill);
    for (const name of skill.tools) offered.delete(name);
    return null;
  }
  for (const name of entry.removed) {
    if (!skill.tools.includes(name)) return `a removal of tool "${name}", which skill "${entry.skill}" never added`;
    skill.tools = skill.tools.filter((t) => t !== name);
    offered.delete(name);
  }
  const problem = toolsProblem(offered, entry.added);
  if (problem) return problem;
  for (const tool of entry.added) {
    skill.tools.push(tool.name);
    offered.set(tool.name, entry.skill);
  }
  return null;
}

/**
 * The first rule a restored lifecycle log breaks, in words, or null when the session could have
 * recorded it: every record sits on a user or tool message of the transcript; a skill is loaded
 * only while it is not, unloaded (with exactly its tools) or changed only while it is; a tool is
 * added only under a free name (never the read tool's or an agent tool's) and removed only by the
 * skill that added it; and every line it states for a skill is one the skill renders now, or one
 * the transcript records it added.
 */
export function lifecycleLogProblem(data: LifecycleLogData, input: LogCheckInputs): string | null {
  const { snap, messages, start } = input;
  const end = start + messages.length;
  if (data.baseAt > end) return `it starts at message ${data.baseAt}, past the end of the transcript (${end})`;
  const recorded = new Set<string>();
  // Only the runtime records context changes (in user and tool messages), as typed parts.
  for (const message of messages) {
    for (const change of contextChangesOf(message))
      if (change.kind === 'line') recorded.add(lineKey(change.skill, change.text));
  }
  const check: LineCheck = { snap, limit: input.contextLineLimit, recorded, proven: new Map() };

  // The tools no skill can add: the read tool (and the search tool, in search mode) and the agent's own.
  const offered = new Map<string, string>([[input.readToolName, '']]);
  if (searching(snap)) offered.set(SEARCH_TOOL_NAME, '');
  for (const tool of snap.tools)
    if (tool.skill === null && isOffered(snap, tool, input.readToolName)) offered.set(tool.name, '');
  const announced = new Map<string, Announced>();
  for (const s of data.base) {
    if (announced.has(s.skill)) return `skill "${s.skill}" is stated twice where the log starts`;
    const problem = statementProblem(check, offered, s.skill, s.lines, s.tools);
    if (problem) return problem;
    announced.set(s.skill, { tools: s.tools.map((t) => t.name) });
    for (const tool of s.tools) offered.set(tool.name, s.skill);
  }
  for (const record of data.records) {
    if (record.at >= end) return `a record at message ${record.at}, past the end of the transcript (${end})`;
    const message = record.at >= start ? messages[record.at - start] : undefined;
    if (message && message.role === 'assistant') return `a record at message ${record.at}, which the model wrote`;
    for (const entry of record.entries) {
      const problem = applyEntry(check, announced, offered, entry);
      if (problem) return problem;
    }
  }
  return null;
}
