/**
 * What the playground shows beyond core's view of the session (which it gets as is): per-step
 * timeline entries and reload summaries. Context lines always come from the
 * view's sections, and line diffs from core's `addedLines` (the diff behind `contextChanged`):
 * nothing here parses the `<current_context>` string.
 */
import type { ModelRequest, SessionView } from '@skilltree/core';
import { addedLines } from '@skilltree/core/provider';
import { type PlaceContext, prefixChange, type RequestPrefix, requestPrefix } from './prefix-change.js';
import type { TimelineEntry } from './protocol.js';

export type { PlaceContext } from './prefix-change.js';

/** Context lines per section of a view: `null` is the agent's part, a name a loaded skill's. */
export type SectionLines = Map<string | null, string[]>;

/** The context lines of `view`, by section. */
export function sectionLines(view: SessionView): SectionLines {
  return new Map(view.sections.map((section) => [section.skill, section.lines.map((line) => line.text)]));
}

/** Lines each section of `after` gained over the same section of `before`, in order. */
function gained(before: SectionLines, after: SectionLines): string[] {
  const out: string[] = [];
  for (const [skill, lines] of after) out.push(...addedLines(before.get(skill), lines));
  return out;
}

/**
 * The request as a provider receives it, in cache order: tools, system, then messages with the
 * context placed (an append-only request: its fixed tools and system, then its items).
 */
export function linearize(request: ModelRequest, place: PlaceContext): string {
  return linearizePrefix(requestPrefix(request, place));
}

function linearizePrefix(prefix: RequestPrefix): string {
  const parts = [JSON.stringify(prefix.tools), prefix.system];
  for (const item of prefix.list) parts.push(JSON.stringify(item));
  return parts.join('\n');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Builds one timeline entry per model request, each compared with the previous request. */
export class Timeline {
  entries: TimelineEntry[] = [];
  #previous: { text: string; tools: string[]; lines: SectionLines; prefix: RequestPrefix } | null = null;
  #loaded: string[] = [];
  #unloaded: string[] = [];

  skillLoaded(name: string): void {
    this.#loaded.push(name);
  }

  skillUnloaded(name: string): void {
    this.#unloaded.push(name);
  }

  /** Records `request`, whose context lines (by section) are `lines`. */
  request(
    request: ModelRequest,
    lines: SectionLines,
    info: { turn: number; step: number; transcript: number; generation: number },
    place: PlaceContext,
  ): TimelineEntry {
    const prefix = requestPrefix(request, place);
    const text = linearizePrefix(prefix);
    const tools = request.tools.map((t) => t.name);
    const prev = this.#previous;
    const added = gained(prev?.lines ?? new Map(), lines);
    const removed = prev ? gained(lines, prev.lines) : [];
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
      appendOnly: prefix.appendOnly,
      prefixChange: prev ? prefixChange(prev.prefix, prefix) : null,
      reasoning: [],
    };
    this.#loaded = [];
    this.#unloaded = [];
    this.#previous = { text, tools, lines, prefix };
    this.entries.push(entry);
    return entry;
  }

  /**
   * Records a reasoning block the model returned in the latest step: its readable text ('' when
   * the provider hides it). Only the text: signatures and encrypted reasoning stay on the server.
   */
  reasoning(text: string): void {
    this.entries.at(-1)?.reasoning.push(text);
  }

  reset(): void {
    this.entries = [];
    this.#previous = null;
    this.#loaded = [];
    this.#unloaded = [];
  }
}

const cut = (line: string) => (line.length > 120 ? `${line.slice(0, 120)}…` : line);

/** What differs between the session's view before and after a reload, in words. */
export function describeReload(before: SessionView | null, after: SessionView | null): string[] {
  const changes: string[] = [];
  const skillsBefore = new Map((before?.skills ?? []).map((s) => [s.name, s]));
  const skillsAfter = new Map((after?.skills ?? []).map((s) => [s.name, s]));
  for (const name of skillsAfter.keys()) if (!skillsBefore.has(name)) changes.push(`skill "${name}" added`);
  for (const name of skillsBefore.keys()) if (!skillsAfter.has(name)) changes.push(`skill "${name}" removed`);
  for (const [name, skill] of skillsAfter) {
    const old = skillsBefore.get(name);
    if (old && old.description !== skill.description) changes.push(`skill "${name}": description changed`);
  }
  const toolsBefore = new Map((before?.tools ?? []).map((t) => [t.name, t]));
  const toolsAfter = new Map((after?.tools ?? []).map((t) => [t.name, t]));
  for (const name of toolsAfter.keys()) if (!toolsBefore.has(name)) changes.push(`tool ${name} added`);
  for (const name of toolsBefore.keys()) if (!toolsAfter.has(name)) changes.push(`tool ${name} removed`);
  for (const [name, tool] of toolsAfter) {
    const old = toolsBefore.get(name);
    if (!old) continue;
    if (old.description !== tool.description) changes.push(`tool ${name}: description changed`);
    if (JSON.stringify(old.inputSchema) !== JSON.stringify(tool.inputSchema))
      changes.push(`tool ${name}: input schema changed`);
  }
  if (before && after && !before.blocked && !after.blocked && before.system !== after.system) {
    changes.push('system prompt changed');
  }
  const linesBefore = before ? sectionLines(before) : new Map();
  const linesAfter = after ? sectionLines(after) : new Map();
  const added = gained(linesBefore, linesAfter);
  const removed = gained(linesAfter, linesBefore);
  for (const line of added.slice(0, 5)) changes.push(`context + ${cut(line)}`);
  if (added.length > 5) changes.push(`context: ${added.length - 5} more lines added`);
  for (const line of removed.slice(0, 5)) changes.push(`context − ${cut(line)}`);
  if (removed.length > 5) changes.push(`context: ${removed.length - 5} more lines removed`);
  if (changes.length === 0) changes.push('no change to the prompt or the tools');
  return changes;
}
