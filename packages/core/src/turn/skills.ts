/**
 * Loading skills, and keeping what a loaded skill renders from breaking the session: a read that
 * would clash, nest a skill or shadow the read tool is refused, and a skill that starts to do so
 * later is unloaded. Either way the model reads why, and requests keep working.
 */

import { SEARCH_TOOL_NAME, searching } from '../host/catalog.js';
import { clashMessage, type ToolEntry, type TreeSnapshot, where } from '../host/serialize.js';
import { touch } from '../lifecycle/lru.js';
import { traceLoad } from '../observe/trace-skills.js';
import { shown } from '../parts/text.js';
import { config } from '../state/config.js';
import { warn } from '../state/events.js';
import { type SessionState, tree } from '../state/state.js';
import { notifySkills, recordLoaded, recordUnloaded, settle, unloadSkill } from '../state/sync.js';
import type { ReadResult } from '../types/session.js';
import { closestSkills } from './catalog-search.js';

/** What a read did, or why it was refused. */
export type ReadOutcome =
  | (ReadResult & { ok: true; stillLoading: boolean })
  | { ok: false; error: string; unknown?: true };

/**
 * The refusal for a name the catalog does not have. Listed catalog: every skill. Searched catalog
 * (too many to list): the closest names, and how to search.
 */
export function unknownSkill(state: SessionState, name: string, snap: TreeSnapshot): string {
  if (searching(snap)) {
    const close = closestSkills(state, name);
    const hint = close.length > 0 ? ` Closest: ${close.join(', ')}.` : '';
    return `Unknown skill: "${shown(name)}".${hint} Call ${SEARCH_TOOL_NAME} to find a skill by what it does, then read it by its exact name.`;
  }
  const names = snap.skills.map((s) => s.name);
  return `Unknown skill: "${shown(name)}". Skills: ${names.join(', ') || 'none'}.`;
}

function owner(tool: ToolEntry): string {
  return tool.skill ? `skill "${tool.skill}"` : 'the agent';
}

/**
 * Why `name`, mounted now, cannot stay loaded next to `others` (the skills that stay loaded), or
 * null when it can.
 */
function refusal(state: SessionState, name: string, others: readonly string[]): string | null {
  const snap = tree(state);
  const skillError = state.skills.errors.get(name);
  if (skillError) {
    state.skills.errors.delete(name);
    return skillError;
  }
  const entry = snap.skillsByName.get(name);
  if (!entry) return null;
  const problems = entry.problems.map((p) => p.message);
  const read = config(state).readToolName;
  const kept = new Set(others);
  for (const tool of entry.tools) {
    if (tool.name === read) {
      problems.push(
        `Its tool "${read}" (rendered by <${tool.owner}>) would shadow the built-in tool that reads skills.`,
      );
      continue;
    }
    if (tool.name === SEARCH_TOOL_NAME && searching(snap)) {
      problems.push(
        `Its tool "${SEARCH_TOOL_NAME}" (rendered by <${tool.owner}>) would shadow the built-in tool that searches skills.`,
      );
      continue;
    }
    const rival = snap.tools.find(
      (t) => t !== tool && t.name === tool.name && (t.skill === null || (t.skill !== name && kept.has(t.skill))),
    );
    if (rival) {
      problems.push(
        `Its tool "${tool.name}" (rendered by <${tool.owner}>) clashes with tool "${tool.name}" of ${owner(rival)} (rendered by <${rival.owner}>).`,
      );
    }
  }
  if (problems.length === 0) return null;
  return `Cannot load skill "${name}"; it stays unloaded. ${problems.join(' ')}`;
}

/**
 * Reads `name`: a loaded skill becomes active; an unloaded one mounts, waits until it settles
 * (suspended data included, up to the tool timeout), is checked, and then pushes out the least
 * recently read skill if there are too many. A refused read leaves the loaded set as it was.
 */
export function loadSkill(state: SessionState, name: string): Promise<ReadOutcome> {
  return traceLoad(state, name, () => load(state, name));
}

async function load(state: SessionState, name: string): Promise<ReadOutcome> {
  const snap = tree(state);
  if (!snap.skillsByName.has(name)) return { ok: false, error: unknownSkill(state, name, snap), unknown: true };
  const before = state.skills.loaded;
  const max = config(state).maxLoadedSkills;
  const { order, evicted } = touch(before, name, max);
  if (before.includes(name)) {
    state.skills.loaded = order;
    notifySkills(state);
    await settle(state);
    return { ok: true, name, mounted: false, unloaded: [], stillLoading: state.skills.suspended.has(name) };
  }
  // Mount next to every loaded skill first: nothing is pushed out (and loses its state) for a read
  // that may be refused.
  state.skills.loaded = [...before, name];
  state.skills.mounting = name;
  let refused: string | null;
  try {
    notifySkills(state);
    await settle(state, { skill: name });
    refused = refusal(state, name, order.slice(0, -1));
  } catch (error) {
    state.skills.loaded = before;
    throw error;
  } finally {
    state.skills.mounting = null;
  }
  if (refused) {
    state.skills.loaded = before.filter((n) => n !== name);
    notifySkills(state);
    await settle(state);
    return { ok: false, error: refused };
  }
  state.skills.loaded = order;
  recordLoaded(state, name);
  for (const gone of evicted) recordUnloaded(state, gone, { reason: 'lru', by: name });
  notifySkills(state);
  await settle(state);
  return { ok: true, name, mounted: true, unloaded: evicted, stillLoading: state.skills.suspended.has(name) };
}

/**
 * After a commit: unloads every loaded skill that broke (threw, looped, or now renders a nested
 * skill, a broken tool, the read tool, or a tool name someone else already offers) and returns the
 * reasons, for the message being recorded. A clash is blamed on the newcomer.
 */
export function checkSkills(state: SessionState): string[] {
  const reasons: string[] = [];
  for (const [name, reason] of state.skills.errors) {
    reasons.push(reason);
    unloadSkill(state, name, { reason: 'error', detail: reason });
  }
  state.skills.errors.clear();
  const snap = tree(state);
  const read = config(state).readToolName;
  const hasSkills = snap.skillCount > 0;
  const drop = (name: string, reason: string) => {
    if (!state.skills.loaded.includes(name)) return;
    reasons.push(`Skill "${name}" was unloaded: ${reason}`);
    unloadSkill(state, name, { reason: 'error', detail: reason });
  };
  for (const problem of snap.problems) {
    if (problem.skill) drop(problem.skill, problem.message);
  }
  const search = searching(snap);
  for (const tool of snap.tools) {
    if (tool.skill && hasSkills && tool.name === read) {
      drop(
        tool.skill,
        `its tool "${read}" (rendered by <${tool.owner}>) would shadow the built-in tool that reads skills.`,
      );
    }
    if (tool.skill && search && tool.name === SEARCH_TOOL_NAME) {
      drop(
        tool.skill,
        `its tool "${SEARCH_TOOL_NAME}" (rendered by <${tool.owner}>) would shadow the built-in tool that searches skills.`,
      );
    }
  }
  for (const clash of snap.clashes) {
    const culprit = blame(state, clash.first, clash.second);
    if (culprit === null) {
      warn(state, clashMessage(clash), 'skilltree');
      continue;
    }
    const kept = culprit === clash.first.skill ? clash.second : clash.first;
    drop(
      culprit,
      `it rendered tool "${clash.name}" (by <${(culprit === clash.first.skill ? clash.first : clash.second).owner}>), which ${owner(kept)} already offers (${where(kept)}).`,
    );
  }
  if (reasons.length > 0) notifySkills(state);
  recordOwners(state);
  return reasons;
}

/** Which skill brought a clash: the side that did not offer the name before; at agent level, nobody. */
function blame(state: SessionState, a: ToolEntry, b: ToolEntry): string | null {
  if (a.skill === null && b.skill === null) return null;
  if (a.skill === null) return b.skill;
  if (b.skill === null) return a.skill;
  const before = state.skills.toolOwners.get(a.name);
  if (before === a.skill) return b.skill;
  if (before === b.skill) return a.skill;
  // Both new: the one read more recently.
  return state.skills.loaded.indexOf(a.skill) > state.skills.loaded.indexOf(b.skill) ? a.skill : b.skill;
}

/** The tool map each session's owners were last recorded from. */
const ownersFrom = new WeakMap<SessionState, ReadonlyMap<string, unknown>>();

/**
 * Lets go of the tool map the owners were recorded from (a chat waiting between turns): the owners
 * stay, and the next check compares against a fresh map, which records the same owners again.
 */
export function forgetOwnersSource(state: SessionState): void {
  ownersFrom.delete(state);
}

function recordOwners(state: SessionState): void {
  const byName = tree(state).toolsByName;
  // A snapshot that kept the last one's tool map (no tool changed) has the same owners.
  if (ownersFrom.get(state) === byName) return;
  state.skills.toolOwners.clear();
  for (const [name, tool] of byName) state.skills.toolOwners.set(name, tool.skill);
  ownersFrom.set(state, byName);
}
