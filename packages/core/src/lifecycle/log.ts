/**
 * The lifecycle as the model was told it: which skills loaded, unloaded or changed tools with which
 * message, with the lines and tool specs each load stated. Recorded when a message is recorded (the
 * same moment its context changes are taken), folded into a base once no window can start
 * before it, and kept in snapshots, so a restored session sends the same deltas as the one it was
 * taken from. The reconciler's commits say what mounted; this says what the model has been told.
 */
import { searching } from '../host/catalog.js';
import { isOffered, toolSpec } from '../host/prompt.js';
import type { TreeSnapshot } from '../host/serialize.js';
import type { LifecycleEntry, ToolSpec } from '../types/request.js';
import type { AnnouncedSkill, LifecycleLogData } from '../types/session.js';

/** One skill as the request would announce it now. */
interface Current {
  lines: readonly string[];
  tools: readonly ToolSpec[];
}

/** A session's lifecycle record. Every field is replaced, never mutated, so a request can keep what it read. */
export interface LifecycleLog {
  data: LifecycleLogData;
  /** The skills announced so far (the fold of `data`), in announcement order. */
  announced: ReadonlyMap<string, AnnouncedSkill>;
  /** How often each announced skill had mounted when it was announced: a remount is announced again. */
  mounts: ReadonlyMap<string, number>;
}

/** A log from recorded data (a snapshot's, or empty). */
export function createLog(data?: LifecycleLogData): LifecycleLog {
  const clean: LifecycleLogData = data ?? { baseAt: 0, base: [], records: [] };
  let announced = new Map<string, AnnouncedSkill>(clean.base.map((s) => [s.skill, s]));
  for (const record of clean.records) announced = applyEntries(announced, record.entries);
  return { data: clean, announced, mounts: new Map() };
}

/** The announced skills after `entries`. */
export function applyEntries(
  announced: ReadonlyMap<string, AnnouncedSkill>,
  entries: readonly LifecycleEntry[],
): Map<string, AnnouncedSkill> {
  const next = new Map(announced);
  for (const entry of entries) {
    if (entry.type === 'loaded') next.set(entry.skill, { skill: entry.skill, lines: entry.lines, tools: entry.tools });
    else if (entry.type === 'unloaded') next.delete(entry.skill);
    else if (entry.skill !== null) {
      const skill = next.get(entry.skill);
      if (!skill) continue;
      const removed = new Set(entry.removed);
      const tools = [...skill.tools.filter((t) => !removed.has(t.name)), ...entry.added];
      next.set(entry.skill, { ...skill, tools });
    }
  }
  return next;
}

const lastOf = new WeakMap<
  TreeSnapshot,
  { loaded: readonly string[]; readToolName: string; out: Map<string, Current> }
>();

/**
 * The loaded skills as the request would announce them now: lines and offered tools, LRU order.
 * The last answer is reused while the tree and the loaded set are the same objects (a message is
 * recorded and the next request built from one commit).
 */
export function currentSkills(
  snap: TreeSnapshot,
  loaded: readonly string[],
  readToolName: string,
): Map<string, Current> {
  const last = lastOf.get(snap);
  if (last && last.loaded === loaded && last.readToolName === readToolName) return last.out;
  const tools = offeredBySkill(snap, loaded, readToolName);
  const out = new Map<string, Current>();
  for (const name of loaded) {
    const skill = snap.skillsByName.get(name);
    if (skill) out.set(name, { lines: skill.lines, tools: tools.get(name) ?? [] });
  }
  lastOf.set(snap, { loaded, readToolName, out });
  return out;
}

const offeredOf = new WeakMap<
  readonly unknown[],
  { loaded: readonly string[]; readToolName: string; withSkills: number; out: Map<string, ToolSpec[]> }
>();

/**
 * The specs each loaded skill offers, by skill. They depend on the snapshot's tool list only (and
 * whether it has skills), which a commit that changed no tool keeps: a re-render of a skill's text
 * then reuses them.
 */
function offeredBySkill(
  snap: TreeSnapshot,
  loaded: readonly string[],
  readToolName: string,
): ReadonlyMap<string, ToolSpec[]> {
  // No skills, listed skills, or searched skills (the search tool's name is then taken).
  const withSkills = snap.skillCount === 0 ? 0 : searching(snap) ? 2 : 1;
  const last = offeredOf.get(snap.tools);
  if (last && last.loaded === loaded && last.readToolName === readToolName && last.withSkills === withSkills) {
    return last.out;
  }
  const out = new Map<string, ToolSpec[]>();
  for (const name of loaded) out.set(name, []);
  for (const tool of snap.tools) {
    const owner = tool.skill === null ? undefined : out.get(tool.skill);
    if (owner && isOffered(snap, tool, readToolName)) owner.push(toolSpec(tool));
  }
  offeredOf.set(snap.tools, { loaded, readToolName, withSkills, out });
  return out;
}

const specText = new WeakMap<ToolSpec, string>();

/** Whether two specs say the same: compared by content, since a re-render makes a new spec object. */
function sameSpec(a: ToolSpec, b: ToolSpec): boolean {
  if (a === b) return true;
  if (a.name !== b.name || a.description !== b.description) return false;
  // Schemas are cached per zod object, so the same input usually gives the same schema object.
  if (a.inputSchema === b.inputSchema) return true;
  const text = (spec: ToolSpec) => {
    let out = specText.get(spec);
    if (out === undefined) {
      out = JSON.stringify([spec.name, spec.description, spec.inputSchema]);
      specText.set(spec, out);
    }
    return out;
  };
  return text(a) === text(b);
}

/**
 * What changed from what was announced to what is current: unloads (and remounts) first, then loads
 * in LRU order, then tools that appeared, disappeared or changed inside skills that stayed.
 */
export function lifecycleChanges(
  log: LifecycleLog,
  current: ReadonlyMap<string, Current>,
  mounts: ReadonlyMap<string, number>,
): LifecycleEntry[] {
  const entries: LifecycleEntry[] = [];
  const remounted = (name: string) => (mounts.get(name) ?? 0) !== (log.mounts.get(name) ?? 0);
  for (const [name, skill] of log.announced) {
    if (!current.has(name) || remounted(name)) {
      entries.push({ type: 'unloaded', skill: name, tools: skill.tools.map((t) => t.name) });
    }
  }
  for (const [name, skill] of current) {
    if (!log.announced.has(name) || remounted(name)) {
      entries.push({ type: 'loaded', skill: name, lines: [...skill.lines], tools: [...skill.tools] });
      continue;
    }
    const before = log.announced.get(name) as AnnouncedSkill;
    // The common case, a re-render that changed no tool: the same specs in the same order.
    if (before.tools.length === skill.tools.length && before.tools.every((t, i) => sameSpec(t, skill.tools[i]))) {
      continue;
    }
    const now = new Map(skill.tools.map((t) => [t.name, t]));
    const removed = before.tools.filter((t) => {
      const spec = now.get(t.name);
      return !spec || !sameSpec(spec, t);
    });
    const had = new Map(before.tools.map((t) => [t.name, t]));
    const added = skill.tools.filter((t) => {
      const spec = had.get(t.name);
      return !spec || !sameSpec(spec, t);
    });
    if (removed.length > 0 || added.length > 0) {
      entries.push({ type: 'tools', skill: name, added, removed: removed.map((t) => t.name) });
    }
  }
  return entries;
}

/** The log after recording `entries` with the message at `at` (an index in the whole transcript). */
export function record(
  log: LifecycleLog,
  at: number,
  entries: LifecycleEntry[],
  mounts: ReadonlyMap<string, number>,
): LifecycleLog {
  if (entries.length === 0) return log;
  const announced = applyEntries(log.announced, entries);
  const nextMounts = new Map<string, number>();
  for (const name of announced.keys()) nextMounts.set(name, mounts.get(name) ?? 0);
  return {
    data: { ...log.data, records: [...log.data.records, { at, entries }] },
    announced,
    mounts: nextMounts,
  };
}

/** The log with every record before `start` folded into the base: no window starts before it. */
export function foldBefore(log: LifecycleLog, start: number): LifecycleLog {
  const { data } = log;
  // Nothing to fold: the base already holds for any window from `baseAt` on.
  if (start <= data.baseAt || data.records.length === 0 || data.records[0].at >= start) return log;
  const keep = data.records.findIndex((r) => r.at >= start);
  const folded = keep === -1 ? data.records : data.records.slice(0, keep);
  let base = new Map(data.base.map((s) => [s.skill, s]));
  for (const r of folded) base = applyEntries(base, r.entries);
  return {
    ...log,
    data: { baseAt: start, base: [...base.values()], records: keep === -1 ? [] : data.records.slice(keep) },
  };
}

/** After a restore: the skills that mounted again count as announced with this mount. */
export function adoptMounts(log: LifecycleLog, mounts: ReadonlyMap<string, number>): LifecycleLog {
  const next = new Map<string, number>();
  for (const name of log.announced.keys()) next.set(name, mounts.get(name) ?? 0);
  return { ...log, mounts: next };
}

/**
 * Which skill each tool was last told as part of, from recorded data: a restored session has no
 * history of earlier mounts, and this is the one record of them it has, so `Unknown tool` can still
 * name the skill of a tool it rendered (a conditional tool included) before the process stopped.
 */
export function toolSkillsOf(data: LifecycleLogData | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!data) return out;
  for (const skill of data.base) for (const tool of skill.tools) out.set(tool.name, skill.skill);
  for (const record of data.records) {
    for (const entry of record.entries) {
      if (entry.skill === null) continue;
      const names =
        entry.type === 'loaded'
          ? entry.tools.map((t) => t.name)
          : entry.type === 'unloaded'
            ? entry.tools
            : entry.added.map((t) => t.name);
      for (const name of names) out.set(name, entry.skill);
    }
  }
  return out;
}
