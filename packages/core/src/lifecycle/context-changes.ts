/**
 * `contextChanged` lines: what the context gained since the last recorded message, written into
 * the transcript so that it outlives the skill that rendered it.
 */
import type { TreeSnapshot } from '../host/serialize.js';
import { CONTEXT_CHANGED, cut, escapeContext } from '../parts/text.js';

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

/** One `contextChanged` line for a context line that appeared, cut to `limit` characters. */
export function addedLine(label: string, line: string, limit: number): string {
  return `${CONTEXT_CHANGED} ${label} added: ${escapeContext(cut(line, limit))}`;
}

/** One `contextChanged` line for a skill that loaded or unloaded. */
export function lifecycleLine(name: string, change: 'loaded' | 'unloaded'): string {
  return `${CONTEXT_CHANGED} ${name} ${change}`;
}

/** One `contextChanged` line, read back: which section, and whether it loaded, unloaded or gained a line. */
export type ContextChange =
  | { kind: 'loaded' | 'unloaded'; skill: string }
  | { kind: 'added'; section: string; text: string };

const LIFECYCLE = new RegExp(`^${CONTEXT_CHANGED} (\\S+) (loaded|unloaded)$`);
const ADDED = new RegExp(`^${CONTEXT_CHANGED} (\\S+) added: `);

/**
 * Reads a line {@link lifecycleLine} or {@link addedLine} wrote (from `splitContextChanges`), or null
 * for anything else. `section` is `agent` or a skill's name; `text` is the (cut, escaped) line.
 *
 * @example
 * parseContextChange('contextChanged notes added: Notes: milk'); // { kind: 'added', section: 'notes', text: 'Notes: milk' }
 */
export function parseContextChange(line: string): ContextChange | null {
  const lifecycle = LIFECYCLE.exec(line);
  if (lifecycle) return { kind: lifecycle[2] as 'loaded' | 'unloaded', skill: lifecycle[1] };
  const added = ADDED.exec(line);
  if (added) return { kind: 'added', section: added[1], text: line.slice(added[0].length) };
  return null;
}

/**
 * The lines of `after` that `before` did not have, in order. A line counts as added when it occurs
 * more often than before (so a repeated line is seen); blank lines never count. This is the diff
 * behind every `contextChanged … added:` line.
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
 * The lines each section gained from `before` to `after`, as `contextChanged` lines. Sections whose
 * line array is unchanged are skipped without reading them.
 */
export function diffSections(before: Sections, after: Sections, limit: number): string[] {
  const out: string[] = [];
  for (const [key, section] of after) {
    const old = before.get(key)?.lines;
    if (old === section.lines) continue;
    for (const line of addedLines(old, section.lines)) out.push(addedLine(section.label, line, limit));
  }
  return out;
}
