/**
 * The catalog's two faces: listed in the system prompt, or searched with the `search_skills` tool.
 * Which one an agent uses is read from its `<Agent>` props and the number of skills, so every
 * layer that builds or checks a request reads the same answer from the same snapshot.
 */
import type { ToolSpec } from '../types/request.js';
import { sameShape } from './catalog-view.js';
import type { SkillEntry, TreeSnapshot } from './serialize.js';

export { catalogListLimit, DEFAULT_CATALOG_LIST_LIMIT } from './catalog-mode.js';

/** The built-in tool that searches the catalog in search mode. Follows the tool-name rule (§2). */
export const SEARCH_TOOL_NAME = 'search_skills';
/** How many matches a search returns when the model gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 5;
/** The most matches one search returns, whatever limit the model asks for. */
export const MAX_SEARCH_LIMIT = 50;

/** The catalog modes `<Agent catalog>` accepts. */
export const CATALOG_MODES: readonly string[] = ['list', 'search', 'auto'];

/**
 * Whether the catalog is searched (else listed): `catalog="search"`, or `"auto"` over the list limit.
 * Decided when the snapshot is built (`snap.searched`), so asking costs nothing per request.
 */
export function searching(snap: TreeSnapshot): boolean {
  return snap.searched;
}

/** Whether `<Skill pinned>` keeps this skill in the system prompt in search mode. */
export function isPinned(skill: SkillEntry): boolean {
  return skill.node.props.pinned === true;
}

/** One catalog line: `- name — description`. */
export function catalogLine(skill: { name: string; description: string }): string {
  return `- ${skill.name}${skill.description ? ` — ${skill.description}` : ''}`;
}

/**
 * The system prompt's catalog section. Listed: every skill. Searched: how to find skills, then the
 * pinned ones; it names no count, so a skill added or removed later changes nothing in it.
 */
export function catalogSection(snap: TreeSnapshot, readToolName: string, maxLoadedSkills: number): string {
  const unload = `At most ${maxLoadedSkills} stay loaded; reading another unloads the least recently read.`;
  if (!searching(snap)) {
    let out = `## Skills\nCall ${readToolName} with a skill's name to load its instructions and tools. ${unload}`;
    for (const skill of snap.skills) out += `\n${catalogLine(skill)}`;
    return out;
  }
  let out =
    `## Skills\nMore skills exist than are listed here. Call ${SEARCH_TOOL_NAME} with what you need, in a few words, ` +
    `to find them; then call ${readToolName} with a skill's name to load its instructions and tools. ${unload}`;
  const pinned = snap.pinned;
  if (pinned.length > 0) out += `\nAlways available:\n${pinned.map(catalogLine).join('\n')}`;
  return out;
}

/**
 * Whether two snapshots give the same catalog section (same mode; same listed skills). Two snapshots
 * of one catalog shape (tree-update.ts) give the same section: O(1). Else, searched, it reads the
 * pinned skills each snapshot gathered when it was built: O(pinned), whatever the catalog's size;
 * listed, the section names every skill, so it compares them all.
 */
export function sameCatalog(a: TreeSnapshot, b: TreeSnapshot): boolean {
  if (a.searched !== b.searched) return false;
  // One shape (a commit changed only what some skills render): the same section, listed or searched.
  if (sameShape(a.skillsByName, b.skillsByName)) return true;
  const x = a.searched ? a.pinned : a.skills;
  const y = b.searched ? b.pinned : b.skills;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i] && (x[i].name !== y[i].name || x[i].description !== y[i].description)) return false;
  }
  return true;
}

const searchSpec: ToolSpec = {
  name: SEARCH_TOOL_NAME,
  description:
    'Find skills by what you need. Returns matching skills, best first, one per line: the name, then what it does. Load one with its exact name.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you need, in a few words (the task, a tool, a file type).' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        description: `How many matches to return. Default ${DEFAULT_SEARCH_LIMIT}.`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

/** The spec of the built-in search tool (one object, so requests share it). */
export function searchToolSpec(): ToolSpec {
  return searchSpec;
}

/** Whether `name` is a built-in tool of this snapshot: the read tool, or the search tool in search mode. */
export function isBuiltinTool(snap: TreeSnapshot, name: string, readToolName: string): boolean {
  if (snap.skillCount === 0) return false;
  return name === readToolName || (name === SEARCH_TOOL_NAME && searching(snap));
}
