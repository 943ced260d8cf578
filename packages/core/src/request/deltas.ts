/**
 * The request's lifecycle as deltas positioned in the messages (`ModelRequest.lifecycle`), built from
 * the recorded log, the window and the tree. Its cost follows the window and the loaded skills: the
 * log is folded up to the window's start, and nothing here reads the transcript before it.
 */

import { lifecycleText, renderContext, unofferedToolSpec } from '../host/prompt.js';
import type { TreeSnapshot } from '../host/serialize.js';
import { lineChange } from '../lifecycle/context-changes.js';
import { applyEntries, currentSkills, type LifecycleLog, lifecycleChanges } from '../lifecycle/log.js';
import { ownTextOf } from '../parts/message-parts.js';
import type { Message } from '../types/messages.js';
import type { LifecycleDelta, LifecycleEntry, RequestLifecycle, ToolSpec } from '../types/request.js';
import type { AnnouncedSkill } from '../types/session.js';

/** Everything a lifecycle is built from; each value is immutable once read. */
export interface LifecycleInputs {
  snap: TreeSnapshot;
  loaded: readonly string[];
  readToolName: string;
  contextLineLimit: number;
  windowMode: 'sliding' | 'stable';
  /** The log, folded up to `start`. */
  log: LifecycleLog;
  /** Mount counts of the loaded skills now. */
  mounts: ReadonlyMap<string, number>;
  /** Index in the whole transcript of `messages[0]`. */
  start: number;
  messages: Message[];
  /** The read tool and the agent's tools. */
  prefixTools: ToolSpec[];
}

/** The last index of the run of user and tool messages that holds `i`: deltas go after a whole run. */
function runEnd(messages: readonly Message[], i: number): number {
  let j = i;
  while (j + 1 < messages.length && messages[j + 1].role !== 'assistant') j++;
  return j;
}

/** Lines of `lines` not stated in `stated` (counted, so a repeated line is kept once per extra occurrence). */
function notStated(lines: string[], stated: readonly string[]): string[] {
  if (stated.length === 0) return lines;
  const counts = new Map<string, number>();
  for (const line of stated) counts.set(line, (counts.get(line) ?? 0) + 1);
  const out: string[] = [];
  for (const line of lines) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else out.push(line);
  }
  return out.length === lines.length ? lines : out;
}

/** The key of a `line` change: its section and text. */
const lineKey = (skill: string, text: string) => `${skill}\u0000${text}`;

/**
 * A load's message as this layout presents it: without the `line` changes (`contextChanged <skill>
 * added:` lines) of the lines its delta states in full right after (the transcript keeps them; the model reads each
 * line once).
 */
function withoutRestatedLines(message: Message, loads: LifecycleEntry[], limit: number): Message {
  const drop = new Map<string, number>();
  for (const entry of loads) {
    if (entry.type !== 'loaded') continue;
    for (const line of entry.lines) {
      if (line.trim() === '') continue;
      const change = lineChange(entry.skill, line, limit);
      const key = change.kind === 'line' ? lineKey(change.skill, change.text) : '';
      drop.set(key, (drop.get(key) ?? 0) + 1);
    }
  }
  if (drop.size === 0) return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'context-changed') return part;
    const kept = part.changes.filter((change) => {
      if (change.kind !== 'line') return true;
      const key = lineKey(change.skill, change.text);
      const left = drop.get(key) ?? 0;
      if (left === 0) return true;
      drop.set(key, left - 1);
      return false;
    });
    if (kept.length === part.changes.length) return part;
    changed = true;
    return { ...part, changes: kept };
  });
  if (!changed) return message;
  return {
    ...message,
    content: content.filter((part) => part.type !== 'context-changed' || part.changes.length > 0),
  } as Message;
}

/** Builds the request's lifecycle. */
export function buildLifecycle(input: LifecycleInputs): RequestLifecycle {
  const { messages, log, start } = input;
  const n = messages.length;
  if (n === 0) {
    // No message to put a delta after (nothing was said yet): every tool goes with the prefix.
    const tools = [...input.prefixTools];
    for (const skill of currentSkills(input.snap, input.loaded, input.readToolName).values())
      tools.push(...skill.tools);
    const context = renderContext(input.snap, input.loaded);
    return { tools, messages, deltas: [], context, windowMode: input.windowMode };
  }
  const at = new Map<number, LifecycleEntry[]>();
  const put = (after: number, entries: LifecycleEntry[], first = false) => {
    if (entries.length === 0 || after < 0) return;
    const list = at.get(after) ?? [];
    at.set(after, first ? [...entries, ...list] : [...list, ...entries]);
  };

  // The skills loaded where the window starts, re-stated after its first user turn.
  const firstUser = messages.findIndex((m) => m.role !== 'assistant');
  const firstRun = firstUser === -1 ? -1 : runEnd(messages, firstUser);
  let restated: ReadonlyMap<string, AnnouncedSkill> = new Map(log.data.base.map((s) => [s.skill, s]));
  const presented = messages.slice();
  for (const r of log.data.records) {
    if (r.at < start) {
      restated = applyEntries(restated, r.entries);
      continue;
    }
    const local = r.at - start;
    if (local >= n) continue;
    put(runEnd(messages, local), r.entries);
    if (r.entries.some((e) => e.type === 'loaded')) {
      presented[local] = withoutRestatedLines(presented[local], r.entries, input.contextLineLimit);
    }
  }
  put(
    firstRun,
    [...restated.values()].map((s) => ({
      type: 'loaded',
      skill: s.skill,
      lines: s.lines,
      tools: s.tools,
      restated: true,
    })),
    true,
  );

  // What changed since the last recorded message (a read from code, a re-render) goes at the end.
  const current = currentSkills(input.snap, input.loaded, input.readToolName);
  const pending = lifecycleChanges(log, current, input.mounts);
  put(n - 1, pending);
  const announced = pending.length > 0 ? applyEntries(log.announced, pending) : log.announced;

  // Every call in the window names a tool offered at its point: one that was not is added right
  // before the call and removed after its results (the transcript says it was refused).
  const offered = new Set(input.prefixTools.map((t) => t.name));
  const apply = (entries: readonly LifecycleEntry[]) => {
    for (const e of entries) {
      if (e.type === 'loaded') for (const t of e.tools) offered.add(t.name);
      else if (e.type === 'unloaded') for (const t of e.tools) offered.delete(t);
      else {
        for (const t of e.removed) offered.delete(t);
        for (const t of e.added) offered.add(t.name);
      }
    }
  };
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (message.role === 'assistant' && i > 0 && messages[i - 1].role !== 'assistant') {
      const missing = (message.toolCalls ?? []).map((c) => c.name).filter((name) => !offered.has(name));
      const names = [...new Set(missing)];
      if (names.length > 0) {
        const added: LifecycleEntry = { type: 'tools', skill: null, added: names.map(unofferedToolSpec), removed: [] };
        put(i - 1, [added]);
        apply([added]);
        // Removed first at the end of the results, before whatever that point adds.
        if (i + 1 < n) put(runEnd(messages, i + 1), [{ type: 'tools', skill: null, added: [], removed: names }], true);
      }
    }
    const here = at.get(i);
    if (here) apply(here);
  }

  const deltas: LifecycleDelta[] = [...at.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([after, entries]) => ({ after, entries, text: lifecycleText(entries, input.readToolName) }));
  const context = renderContext(input.snap, input.loaded, (name, lines) =>
    notStated(lines, announced.get(name)?.lines ?? []),
  );
  return { tools: input.prefixTools, messages: presented, deltas, context, windowMode: input.windowMode };
}

/**
 * What is wrong with a request's lifecycle, as messages (none when it is sound): the tools callable
 * at its end are the classic request's, each call names a tool offered at its point, deltas follow
 * whole runs of user and tool messages, and the messages differ from the classic ones only by a
 * load's own `contextChanged … added:` lines. Sessions check every request with it when the
 * environment sets `SKILLTREE_CHECK_DELTAS=1` (the lifecycle test suites run once that way).
 */
export function lifecycleProblems(classic: {
  tools: ToolSpec[];
  messages: Message[];
  lifecycle?: RequestLifecycle;
}): string[] {
  const life = classic.lifecycle;
  if (!life) return [];
  const problems: string[] = [];
  const offered = new Map(life.tools.map((t) => [t.name, t]));
  const byAfter = new Map(life.deltas.map((d) => [d.after, d]));
  // Calls before the first user message (a transcript driven by tool calls alone) have no place for a delta.
  const firstUser = life.messages.findIndex((m) => m.role !== 'assistant');
  if (life.messages.length !== classic.messages.length) problems.push('the messages differ in number');
  for (const [i, message] of life.messages.entries()) {
    const original = classic.messages[i];
    if (original && message.role !== original.role) problems.push(`message ${i} changed its role`);
    // Only context changes may differ: the message's own parts (text, files) stay as they were.
    if (original && message.content !== original.content && ownTextOf(message) !== ownTextOf(original)) {
      problems.push(`message ${i} lost more than contextChanged lines`);
    }
    if (message.role === 'assistant' && i > firstUser && firstUser !== -1) {
      for (const call of message.toolCalls ?? []) {
        if (!offered.has(call.name)) problems.push(`message ${i} calls "${call.name}", which is not offered there`);
      }
    }
    const delta = byAfter.get(i);
    if (!delta) continue;
    if (message.role === 'assistant') problems.push(`a delta follows assistant message ${i}`);
    if (life.messages[i + 1] && life.messages[i + 1].role !== 'assistant') {
      problems.push(`the delta after message ${i} splits a run of user and tool messages`);
    }
    for (const e of delta.entries) {
      if (e.type === 'loaded') for (const t of e.tools) offered.set(t.name, t);
      else if (e.type === 'unloaded') for (const t of e.tools) offered.delete(t);
      else {
        for (const t of e.removed) offered.delete(t);
        for (const t of e.added) offered.set(t.name, t);
      }
    }
  }
  const want = classic.tools.map((t) => JSON.stringify(t)).sort();
  const got = [...offered.values()].map((t) => JSON.stringify(t)).sort();
  if (JSON.stringify(want) !== JSON.stringify(got)) {
    const names = (list: string[]) => list.map((t) => JSON.parse(t).name).join(', ');
    problems.push(`the deltas end with tools [${names(got)}], the classic request offers [${names(want)}]`);
  }
  return problems;
}
