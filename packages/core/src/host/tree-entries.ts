/**
 * What reading the host tree makes: the snapshot's shape and its entries (a skill, a tool, a line
 * with its source), each kept on its host node and reused while the node did not change. The walk
 * over the whole tree is in serialize.ts; updating a snapshot from the nodes a commit changed is in
 * tree-update.ts.
 */

import { splitLines } from '../parts/text.js';
import { TOOL_NAME } from '../parts/tool-name.js';
import type { ToolSpec } from '../types/request.js';
import { type HostChild, type HostElement, textContent } from './node.js';

/** A rendered `<Tool>`. Its `node.props` always hold the latest `run`, schema and description. */
export interface ToolEntry {
  name: string;
  node: HostElement;
  /** The skill that rendered it, or null at agent level. */
  skill: string | null;
  owner: string;
}

/** Which component rendered a context line. */
export interface LineSource {
  line: string;
  kind: 'instructions' | 'text';
  owner: string;
}

/** A mistake in the tree. `skill` names the loaded skill whose subtree holds it (null: agent level). */
export interface Problem {
  message: string;
  skill: string | null;
}

/** A `<Skill>` in the catalog. `lines` and `tools` are empty while it is unloaded. */
export interface SkillEntry {
  name: string;
  description: string;
  owner: string;
  node: HostElement;
  /** Its part of `<current_context>`, one entry per line, unescaped. */
  lines: string[];
  tools: ToolEntry[];
  /** Each line paired with the component that rendered it. */
  sources: LineSource[];
  /** Mistakes inside its subtree. Kept with the cached entry, so they are reported as long as they exist. */
  problems: Problem[];
}

/** Two rendered tools with one name. The request keeps `first` (tree order) and leaves out `second`. */
export interface Clash {
  name: string;
  first: ToolEntry;
  second: ToolEntry;
}

/** The whole prompt-bearing content of a tree. Recomputed only when the tree changed. */
export interface TreeSnapshot {
  /** Props of the `<Agent>` element, or `{}` when the root is not an `<Agent>`. */
  agentProps: Record<string, any>;
  /** Agent-level `<Instructions>` blocks, in tree order. */
  instructions: string[];
  /** Agent-level `<Text>` lines. */
  agentLines: string[];
  agentSources: LineSource[];
  /**
   * Every rendered tool, in tree order: agent level and every mounted skill. With `toolsByName` and
   * `clashes`, the previous snapshot's own objects when a commit changed no tool entry.
   */
  tools: ToolEntry[];
  /** The first tool of each name (a clash keeps the first in tree order). */
  toolsByName: Map<string, ToolEntry>;
  /**
   * The catalog, in tree order. In a tree with one `<Agent>`, made on first read from the
   * snapshot's catalog view (catalog-view.ts): a step that reads only `skillsByName` and
   * `skillCount` never copies the catalog.
   */
  skills: SkillEntry[];
  /** The skills by name (the first of a name). Read-only. */
  skillsByName: Map<string, SkillEntry>;
  /** How many skills the catalog holds (`skills.length`, without making `skills`). */
  skillCount: number;
  /** The `<Skill pinned>` skills, in tree order: comparing searched catalogs reads these, not every skill. */
  pinned: SkillEntry[];
  /** Whether the catalog is searched (else listed), decided when the snapshot is built (see catalog-mode.ts). */
  searched: boolean;
  /** Mistakes in the tree (names, nesting, tools); each names the components involved. */
  problems: Problem[];
  /** Tool names rendered twice. */
  clashes: Clash[];
}

/** A host element's `meta` prop when it is a plain object (inspectors show it; the model never sees it). */
export function metaOf(props: Record<string, any>): Record<string, unknown> | undefined {
  const meta = props.meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta : undefined;
}

/** Where a tool was rendered, for error messages. */
export function where(entry: { owner: string; skill?: string | null }): string {
  return entry.skill ? `<${entry.owner}> in skill "${entry.skill}"` : `<${entry.owner}> at agent level`;
}

/** A skill's entry: the cached one while nothing in its subtree changed, else read again. */
export function readSkill(node: HostElement): SkillEntry {
  const cached = node.cache as SkillEntry | undefined;
  if (!node.dirty && cached) return cached;
  const name = String(node.props.name);
  const entry: SkillEntry = {
    name,
    description: String(node.props.description ?? ''),
    owner: node.owner,
    node,
    lines: [],
    tools: [],
    sources: [],
    problems: [],
  };
  const problem = (message: string) => entry.problems.push({ message, skill: name });
  const visit = (child: HostChild) => {
    if (child.kind === 'text' || child.hidden) return;
    switch (child.type) {
      case 'skilltree-instructions':
      case 'skilltree-text': {
        for (const source of blockSources(child)) {
          entry.lines.push(source.line);
          entry.sources.push(source);
        }
        return;
      }
      case 'skilltree-tool': {
        const tool = toolEntry(child, name);
        for (const message of toolProblems(tool)) problem(message);
        entry.tools.push(tool);
        return;
      }
      case 'skilltree-skill':
        problem(
          `Skill "${child.props.name}" is rendered inside skill "${name}" (by <${child.owner}>). Skills cannot nest: render every <Skill> at agent level.`,
        );
        return;
      case 'skilltree-agent':
        problem(
          `<Agent> is rendered inside skill "${name}" (by <${child.owner}>). An agent has exactly one <Agent>, at the root.`,
        );
        return;
    }
  };
  for (const child of node.children) visit(child);
  entry.lines = entry.lines.slice(); // exact size: the told context keeps it while the chat waits
  // A re-read that found the same tool entries (its text changed, or only their `run`) keeps the
  // last list, so the tree's tool list can be kept too (see readTree).
  if (cached && sameEntries(cached.tools, entry.tools)) entry.tools = cached.tools;
  node.dirty = false;
  node.cache = entry;
  return entry;
}

/**
 * The lines of one `<Instructions>` or `<Text>` inside a skill, each with its source: the last ones
 * while the block did not change. A skill re-read because one `<Text>` changed splits only that one.
 */
function blockSources(node: HostElement): LineSource[] {
  const cached = node.cache as LineSource[] | undefined;
  if (!node.dirty && cached) return cached;
  const kind = node.type === 'skilltree-text' ? 'text' : 'instructions';
  const sources = splitLines(textContent(node)).map((line): LineSource => ({ line, kind, owner: node.owner }));
  node.dirty = false;
  node.cache = sources;
  return sources;
}

/**
 * What the serializer and the request keep for one rendered tool, on its host node (`node.cache`,
 * which a tool's node has no other use for): its entry and the props it was read from, the entry's
 * checks, and its spec with the props it was made from (`toolSpec` in prompt.ts). One record on
 * the node, not an entry in a weak map per kind: a mounted chat holds one object per tool.
 */
export interface ToolRecord {
  props: object;
  entry: ToolEntry;
  /** `toolProblems(entry)`, once asked. */
  problems?: string[];
  /** The tool's spec, and the props object it was last confirmed for. */
  spec?: ToolSpec;
  specProps?: object;
}

/** The record a tool's host node keeps, when it has one. */
export function toolRecord(node: HostElement): ToolRecord | undefined {
  return node.type === 'skilltree-tool' ? (node.cache as ToolRecord | undefined) : undefined;
}

/**
 * The entry of a rendered tool: the last one while its props object and skill are the same. A
 * skill whose text changed is read again, and its unchanged tools keep their entries (and their
 * checks, below), so a step that re-renders a skill does not check its tools again.
 */
export function toolEntry(node: HostElement, skill: string | null): ToolEntry {
  const last = toolRecord(node);
  if (last && last.props === node.props && last.entry.skill === skill && last.entry.owner === node.owner) {
    return last.entry;
  }
  const entry: ToolEntry = { name: String(node.props.name), node, skill, owner: node.owner };
  // The spec outlives the entry: it depends on the props' content, which toolSpec compares.
  const record: ToolRecord = { props: node.props, entry };
  if (last?.spec) {
    record.spec = last.spec;
    record.specProps = last.specProps;
  }
  node.cache = record;
  return entry;
}

/** Checks of entries whose node has moved on to a newer entry (rare: an older snapshot's). */
const problemsOf = new WeakMap<ToolEntry, string[]>();

/**
 * What is wrong with one tool's props, as messages naming where it was rendered. Remembered per
 * entry: an entry's props object only changes in its `run`, and only from a function to a function.
 */
export function toolProblems(tool: ToolEntry): string[] {
  const record = toolRecord(tool.node);
  if (record?.entry === tool) {
    record.problems ??= checkTool(tool);
    return record.problems;
  }
  let out = problemsOf.get(tool);
  if (out === undefined) {
    out = checkTool(tool);
    problemsOf.set(tool, out);
  }
  return out;
}

function checkTool(tool: ToolEntry): string[] {
  const { props } = tool.node;
  const out: string[] = [];
  if (!TOOL_NAME.test(tool.name)) {
    out.push(
      `Invalid tool name "${tool.name}" (rendered by ${where(tool)}): tool names must match ${TOOL_NAME.source}.`,
    );
  }
  // A tool without `run` runs in the client (the turn waits for its result); a `run` that is there must be a function.
  if (props.run !== undefined && typeof props.run !== 'function') {
    out.push(
      `Tool "${tool.name}" (rendered by ${where(tool)}) has a run that is not a function: pass run={(input, ctx) => ...}.`,
    );
  }
  const approval = props.needsApproval;
  if (approval !== undefined && typeof approval !== 'boolean' && typeof approval !== 'function') {
    out.push(
      `Tool "${tool.name}" (rendered by ${where(tool)}) has needsApproval that is neither a boolean nor a function of (input, ctx).`,
    );
  }
  const input = props.input;
  if (input !== undefined && input !== null) {
    if (typeof input === 'object' && '_def' in input && !('_zod' in input)) {
      out.push(
        `Tool "${tool.name}" (rendered by ${where(tool)}) has a zod 3 schema as input. skilltree needs zod 4: npm install zod@^4.3 and import { z } from 'zod'.`,
      );
    } else if (typeof (input as { safeParse?: unknown }).safeParse !== 'function') {
      out.push(
        `Tool "${tool.name}" (rendered by ${where(tool)}) needs a zod 4 schema as input, e.g. input={z.object({})}, or jsonSchema({...}) from @skilltree/core.`,
      );
    }
  }
  return out;
}

/** An empty snapshot, filled by a read. */
export function emptySnapshot(): TreeSnapshot {
  return {
    agentProps: {},
    instructions: [],
    agentLines: [],
    agentSources: [],
    tools: [],
    toolsByName: new Map(),
    skills: [],
    skillsByName: new Map(),
    pinned: [],
    searched: false,
    problems: [],
    clashes: [],
    skillCount: 0,
  };
}

/** Whether two lists hold the same entries (the same objects) in the same order. */
export function sameEntries<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
