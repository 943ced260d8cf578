/**
 * The `search_skills` tool and the closest-name hints of `read_skill`: each session keeps one
 * catalog index, brought up to the latest tree right before it is asked (so a catalog change costs
 * nothing until the next search, and then only the skills that changed).
 */
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, SEARCH_TOOL_NAME } from '../host/catalog.js';
import { type CatalogIndex, catalogIndexOf } from '../host/catalog-index.js';
import type { TreeSnapshot } from '../host/serialize.js';
import { shown } from '../parts/text.js';
import { errorMessage, type SessionState, tree } from '../state/state.js';
import type { SkillMatch, SkillRanker } from '../types/catalog.js';
import { decodeInput, type ToolOutcome } from './tool-call.js';

/** The session's catalog index, in step with its tree. */
export function catalogIndex(state: SessionState, snap: TreeSnapshot = tree(state)): CatalogIndex {
  const index = catalogIndexOf(state);
  index.sync(snap);
  return index;
}

function invalid(message: string): ToolOutcome {
  return { content: `Invalid input for tool "${SEARCH_TOOL_NAME}": ${message}`, isError: true, kind: 'invalid-input' };
}

/** The model's search: checks `{ query, limit? }`, ranks (the app's ranker, else the index) and lists the matches. */
export async function searchFromModel(state: SessionState, raw: unknown): Promise<ToolOutcome> {
  const decoded = decodeInput(SEARCH_TOOL_NAME, raw);
  if (typeof decoded === 'string') return { content: decoded, isError: true, kind: 'invalid-input' };
  const input = (decoded.input ?? {}) as { query?: unknown; limit?: unknown };
  if (typeof input.query !== 'string' || input.query.trim() === '') {
    return invalid('query: expected what you need, in a few words (a non-empty string).');
  }
  let limit = DEFAULT_SEARCH_LIMIT;
  if (input.limit !== undefined) {
    if (typeof input.limit !== 'number' || !Number.isInteger(input.limit) || input.limit < 1) {
      return invalid(`limit: expected a whole number from 1 to ${MAX_SEARCH_LIMIT}.`);
    }
    limit = Math.min(input.limit, MAX_SEARCH_LIMIT);
  }
  const query = input.query.trim();
  const snap = tree(state);
  const index = catalogIndex(state, snap);
  const ranker = snap.agentProps.skillSearch as SkillRanker | undefined;
  let matches: readonly (string | SkillMatch)[];
  if (typeof ranker === 'function') {
    try {
      matches = await ranker(query, index.skills(), { limit, rank: (q, n) => index.search(q, n) });
    } catch (error) {
      return { content: `Tool "${SEARCH_TOOL_NAME}" failed: ${errorMessage(error)}`, isError: true, kind: 'threw' };
    }
  } else {
    matches = index.search(query, limit);
  }
  const lines: string[] = [];
  const listed = new Set<string>();
  for (const match of Array.isArray(matches) ? matches : []) {
    if (lines.length >= limit) break;
    const name = typeof match === 'string' ? match : match?.name;
    const skill = typeof name === 'string' ? snap.skillsByName.get(name) : undefined;
    if (!skill || listed.has(skill.name)) continue;
    listed.add(skill.name);
    lines.push(`${skill.name}${skill.description ? ` — ${skill.description}` : ''}`);
  }
  if (lines.length === 0) {
    return {
      content: `No skill matches "${shown(query)}". Search again with other words: the task, a tool or a file type.`,
      isError: false,
    };
  }
  return { content: lines.join('\n'), isError: false };
}

/** Up to three catalog names close to `name` (a typo, a guess), for the unknown-skill refusal. */
export function closestSkills(state: SessionState, name: string): string[] {
  return catalogIndex(state).closest(name, 3);
}
