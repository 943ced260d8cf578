/**
 * Turns a live session into the JSON the playground shows: the tree with owners, the catalog,
 * per-step timeline entries and reload summaries.
 */
import type { ModelRequest, SessionView } from '@skilltree/core';
import type { LineView, SkillView, TimelineEntry, ToolView, TreeView } from './protocol.js';

/** `placeContext` from the session's own core (passed in so that one core instance is used). */
export type PlaceContext = (req: ModelRequest) => { system: string; messages: ModelRequest['messages'] };

function toolView(tool: SessionView['tools'][number]): ToolView {
  return { name: tool.name, description: tool.description, owner: tool.owner, skill: tool.skill };
}

/** JSON-safe copy of a value: functions and elements become short descriptions, cycles are cut. */
export function jsonSafe(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'undefined') return undefined;
  if (typeof value === 'function') return `ƒ ${value.name || 'anonymous'}()`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value !== 'object') return String(value);
  if (seen.has(value)) return '[circular]';
  if (depth > 8) return '[…]';
  seen.add(value);
  if ((value as { $$typeof?: unknown }).$$typeof) return '[React element]';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map)
    return Object.fromEntries([...value].map(([k, v]) => [String(k), jsonSafe(v, depth + 1, seen)]));
  if (value instanceof Set) return [...value].map((v) => jsonSafe(v, depth + 1, seen));
  if (Array.isArray(value)) return value.map((v) => jsonSafe(v, depth + 1, seen) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const safe = jsonSafe(v, depth + 1, seen);
    if (safe !== undefined) out[key] = safe;
  }
  return out;
}

/** The host tree as the Tree panel shows it, from core's view of the session. */
export function treeView(view: SessionView): TreeView {
  const lines = (skill: string | null): LineView[] =>
    (view.sections.find((section) => section.skill === skill)?.lines ?? []).map((l) => ({
      line: l.text,
      kind: l.kind,
      owner: l.owner,
    }));
  const tools = (skill: string | null) =>
    view.tools.filter((tool) => tool.skill === skill && tool.owner !== 'skilltree').map(toolView);
  return {
    agent: {
      props: view.agent.props,
      instructions: view.agent.instructions,
      lines: lines(null),
      tools: tools(null),
    },
    skills: view.skills.map((skill) => ({
      name: skill.name,
      description: skill.description,
      owner: skill.owner,
      state: skill.state,
      lines: skill.state === 'unloaded' ? [] : lines(skill.name),
      tools: tools(skill.name),
    })),
    problems: view.problems.map((problem) => problem.message),
  };
}

/** The catalog as the Skills panel shows it. */
export function skillViews(view: SessionView): SkillView[] {
  return view.skills.map((skill) => ({
    name: skill.name,
    description: skill.description,
    state: skill.state,
    mounts: skill.mounts,
    lru: view.loadedSkills.indexOf(skill.name),
    owner: skill.owner,
  }));
}

/** The request as a provider receives it, in cache order: tools, system, then messages with the context placed. */
export function linearize(request: ModelRequest, place: PlaceContext): string {
  const placed = place(request);
  const parts = [JSON.stringify(request.tools), placed.system];
  for (const message of placed.messages) parts.push(JSON.stringify(message));
  return parts.join('\n');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Lines of `after` that are not in `before`, counted as multisets. */
export function addedLines(before: readonly string[], after: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of before) counts.set(line, (counts.get(line) ?? 0) + 1);
  const out: string[] = [];
  for (const line of after) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else if (line.trim() !== '') out.push(line);
  }
  return out;
}

/** Context lines without the section markup. */
export function contentLines(context: string): string[] {
  return context.split('\n').filter((line) => !/^<\/?(current_context|skill|agent)\b[^>]*>$/.test(line.trim()));
}

/** Builds one timeline entry per model request, each compared with the previous request. */
export class Timeline {
  entries: TimelineEntry[] = [];
  #previous: { text: string; tools: string[]; lines: string[] } | null = null;
  #loaded: string[] = [];
  #unloaded: string[] = [];

  skillLoaded(name: string): void {
    this.#loaded.push(name);
  }

  skillUnloaded(name: string): void {
    this.#unloaded.push(name);
  }

  request(
    request: ModelRequest,
    info: { turn: number; step: number; transcript: number; generation: number },
    place: PlaceContext,
  ): TimelineEntry {
    const text = linearize(request, place);
    const tools = request.tools.map((t) => t.name);
    const lines = contentLines(request.context);
    const prev = this.#previous;
    const added = addedLines(prev?.lines ?? [], lines);
    const removed = prev ? addedLines(lines, prev.lines) : [];
    const prefixChars = prev ? commonPrefix(prev.text, text) : 0;
    const entry: TimelineEntry = {
      turn: info.turn,
      step: info.step,
      at: Date.now(),
      loaded: this.#loaded,
      unloaded: this.#unloaded,
      toolsAdded: tools.filter((t) => !prev?.tools.includes(t)),
      toolsRemoved: prev ? prev.tools.filter((t) => !tools.includes(t)) : [],
      linesAdded: added.length,
      linesRemoved: removed.length,
      lineSamples: added.slice(0, 5).map((line) => (line.length > 160 ? `${line.slice(0, 160)}…` : line)),
      bytes: Buffer.byteLength(text),
      prefixBytes: Buffer.byteLength(text.slice(0, prefixChars)),
      messages: request.messages.length,
      transcript: info.transcript,
      generation: info.generation,
    };
    this.#loaded = [];
    this.#unloaded = [];
    this.#previous = { text, tools, lines };
    this.entries.push(entry);
    return entry;
  }

  reset(): void {
    this.entries = [];
    this.#previous = null;
    this.#loaded = [];
    this.#unloaded = [];
  }
}

/** What differs between the tree before and after a reload, in words. */
export function describeReload(
  before: { request: ModelRequest | null; tree: TreeView | null },
  after: { request: ModelRequest | null; tree: TreeView | null },
): string[] {
  const changes: string[] = [];
  const skillsBefore = new Map((before.tree?.skills ?? []).map((s) => [s.name, s]));
  const skillsAfter = new Map((after.tree?.skills ?? []).map((s) => [s.name, s]));
  for (const name of skillsAfter.keys()) if (!skillsBefore.has(name)) changes.push(`skill "${name}" added`);
  for (const name of skillsBefore.keys()) if (!skillsAfter.has(name)) changes.push(`skill "${name}" removed`);
  for (const [name, skill] of skillsAfter) {
    const old = skillsBefore.get(name);
    if (old && old.description !== skill.description) changes.push(`skill "${name}": description changed`);
  }
  const toolsBefore = new Map((before.request?.tools ?? []).map((t) => [t.name, t]));
  const toolsAfter = new Map((after.request?.tools ?? []).map((t) => [t.name, t]));
  for (const name of toolsAfter.keys()) if (!toolsBefore.has(name)) changes.push(`tool ${name} added`);
  for (const name of toolsBefore.keys()) if (!toolsAfter.has(name)) changes.push(`tool ${name} removed`);
  for (const [name, tool] of toolsAfter) {
    const old = toolsBefore.get(name);
    if (!old) continue;
    if (old.description !== tool.description) changes.push(`tool ${name}: description changed`);
    if (JSON.stringify(old.inputSchema) !== JSON.stringify(tool.inputSchema))
      changes.push(`tool ${name}: input schema changed`);
  }
  if (before.request && after.request && before.request.system !== after.request.system) {
    changes.push('system prompt changed');
  }
  const linesBefore = contentLines(before.request?.context ?? '');
  const linesAfter = contentLines(after.request?.context ?? '');
  const added = addedLines(linesBefore, linesAfter);
  const removed = addedLines(linesAfter, linesBefore);
  for (const line of added.slice(0, 5))
    changes.push(`context + ${line.length > 120 ? `${line.slice(0, 120)}…` : line}`);
  if (added.length > 5) changes.push(`context: ${added.length - 5} more lines added`);
  for (const line of removed.slice(0, 5))
    changes.push(`context − ${line.length > 120 ? `${line.slice(0, 120)}…` : line}`);
  if (removed.length > 5) changes.push(`context: ${removed.length - 5} more lines removed`);
  if (changes.length === 0) changes.push('no change to the prompt or the tools');
  return changes;
}
