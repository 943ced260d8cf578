/**
 * Context changes: what the context gained since the last recorded message, recorded in the
 * transcript (as typed changes; the model reads them as `contextChanged` lines) so that it outlives
 * the skill that rendered it.
 */
import type { TreeSnapshot } from '../host/serialize.js';
import { cut, escapeContext } from '../parts/text.js';
import type { ContextChange } from '../types/messages.js';

/** Context lines per section: `agent` and each loaded skill. Arrays are shared with the snapshot. */
export type Sections = Map<string, { label: string; lines: readonly string[] }>;

const AGENT_KEY = '\u0000agent';

/** The sections of `<current_context>` as they are now. */
export function captureSections(snap: TreeSnapshot, loaded: readonly string[]): Sections {
  const sections: Sections = new Map();
  sections.set(AGENT_KEY, { label: 'agent', lines: snap.agentLines });
  for (const name of loaded) {
    const skill = snap.skillsByName.get(name);
    if (skill) sections.set(name, { label: name, lines: skill.lines });
  }
  return sections;
}

/**
 * The change for a context line that appeared in section `label`: its text as the model reads it,
 * cut to `limit` characters and with section tags escaped.
 */
export function lineChange(label: string, line: string, limit: number): ContextChange {
  return { kind: 'line', skill: label, text: escapeContext(cut(line, limit)) };
}

/** The change for a skill that loaded or unloaded. */
export function skillChange(name: string, kind: 'loaded' | 'unloaded'): ContextChange {
  return { kind, skill: name };
}

/**
 * The lines of `after` that `before` did not have, in order. A line counts as added when it occurs
 * more often than before (so a repeated line is seen); blank lines never count. This is the diff
 * behind every `line` change.
 */
export function addedLines(before: readonly string[] | undefined, after: readonly string[]): string[] {
  const counts = new Map<string, number>();
  if (before) for (const line of before) counts.set(line, (counts.get(line) ?? 0) + 1);
  const out: string[] = [];
  for (const line of after) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else if (line.trim() !== '') out.push(line);
  }
  return out;
}

/**
 * The lines each section gained from `before` to `after`, as `line` changes. Sections whose line
 * array is unchanged are skipped without reading them.
 */
export function diffSections(before: Sections, after: Sections, limit: number): ContextChange[] {
  const out: ContextChange[] = [];
  for (const [key, section] of after) {
    const old = before.get(key)?.lines;
    if (old === section.lines) continue;
    for (const line of addedLines(old, section.lines)) out.push(lineChange(section.label, line, limit));
  }
  return out;
}
