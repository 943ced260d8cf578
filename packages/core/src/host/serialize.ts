/**
 * Reads the host tree into a plain description of the prompt: agent instructions, agent text,
 * agent tools, and the skill catalog with each mounted skill's lines and tools. A pure walk that
 * reuses the last result for every subtree that did not change since (see `markDirty`); a tree with
 * one `<Agent>` at its root is then updated from the children a commit changed, never walked whole
 * again while its catalog keeps its shape (tree-update.ts).
 */

import { TOOL_NAME } from '../parts/tool-name.js';
import { catalogSearched } from './catalog-mode.js';
import type { HostChild, HostRoot } from './node.js';
import { type Clash, emptySnapshot, readSkill, sameEntries, type TreeSnapshot, where } from './tree-entries.js';
import { readAgentChild, readLayout, type ToolSource, type TreeRead, updateSnapshot } from './tree-update.js';

export type {
  Clash,
  LineSource,
  Problem,
  SkillEntry,
  ToolEntry,
  ToolRecord,
  TreeSnapshot,
} from './tree-entries.js';
export { metaOf, toolProblems, toolRecord, where } from './tree-entries.js';
/** The tool-name rule, for the modules that check names after reading the tree. */
export { TOOL_NAME };

/** Each snapshot's tool sources (see readTree): equal sources, element by element, make equal tool lists. */
const toolSources = new WeakMap<TreeSnapshot, readonly ToolSource[]>();

/** Reads the tree. Returns the previous snapshot (the same object) when nothing changed since it was taken. */
export function readTree(root: HostRoot): TreeSnapshot {
  const cached = root.cache as TreeSnapshot | undefined;
  if (!root.dirty && cached) return cached;
  const touched = root.touched;
  root.touched = new Set();
  const read =
    (cached && touched !== true ? updateSnapshot(root, cached, touched) : null) ?? readLayout(root) ?? readWhole(root);
  listTools(read, cached);
  root.dirty = false;
  root.cache = read.snap;
  return read.snap;
}

/** Reads any tree whole (more than one root, an `<Agent>` inside another, nodes outside `<Agent>`). */
function readWhole(root: HostRoot): TreeRead {
  const snap = emptySnapshot();
  /** Where the tools come from, in tree order: an agent-level tool, or a skill's list of tools. */
  const sources: ToolSource[] = [];
  const agentProblem = (message: string) => snap.problems.push({ message, skill: null });
  let agents = 0;
  const visit = (node: HostChild, insideAgent: boolean) => {
    if (node.kind === 'text' || node.hidden) return;
    // Skills keep their flag: readSkill uses it to decide whether its cached entry is still good.
    if (node.type !== 'skilltree-skill') node.dirty = false;
    if (!insideAgent && node.type !== 'skilltree-agent') {
      agentProblem(
        `<${hostName(node.type)}> is rendered outside <Agent> (by <${node.owner}>). Wrap the whole agent in <Agent>…</Agent>.`,
      );
      return;
    }
    switch (node.type) {
      case 'skilltree-agent':
        agents++;
        if (agents === 2) {
          agentProblem(
            `Two <Agent> elements are rendered (the second by <${node.owner}>). Render exactly one, at the root.`,
          );
        }
        if (agents === 1) snap.agentProps = node.props;
        for (const child of node.children) visit(child, true);
        return;
      case 'skilltree-instructions':
      case 'skilltree-text':
      case 'skilltree-tool':
        readAgentChild(node, snap, sources, true);
        return;
      case 'skilltree-skill': {
        const skill = readSkill(node);
        const name = String(node.props.name);
        if (!TOOL_NAME.test(name)) {
          agentProblem(
            `Invalid skill name "${name}" (rendered by <${skill.owner}>): skill names must match ${TOOL_NAME.source}.`,
          );
        }
        const other = snap.skillsByName.get(skill.name);
        if (other) {
          agentProblem(
            `Two skills are named "${skill.name}" (rendered by <${other.owner}> and by <${skill.owner}>). Skill names must be unique.`,
          );
        } else {
          snap.skillsByName.set(skill.name, skill);
        }
        snap.skills.push(skill);
        if (skill.node.props.pinned === true) snap.pinned.push(skill);
        for (const problem of skill.problems) snap.problems.push(problem);
        if (skill.tools.length > 0) sources.push(skill.tools);
        return;
      }
    }
  };
  for (const child of root.children) visit(child, false);
  snap.searched = catalogSearched(snap.agentProps, snap.skills.length);
  snap.agentLines = snap.agentLines.slice(); // exact size, as a skill's lines (readSkill)
  snap.skillCount = snap.skills.length;
  return { snap, sources };
}

/** Lists the read's tools (and clashes): the last snapshot's own lists when no tool entry changed. */
function listTools({ snap, sources }: TreeRead, cached: TreeSnapshot | undefined): void {
  const last = cached ? toolSources.get(cached) : undefined;
  toolSources.set(snap, sources);
  if (cached && last && sameEntries(last, sources)) {
    // A commit that changed no tool entry (a skill's text, or only the tools' `run`) keeps the last
    // snapshot's tool list, map and clashes: what is derived from them by identity (the offered
    // specs, the tools each skill announces, the owners' record) is not made again.
    snap.tools = cached.tools;
    snap.toolsByName = cached.toolsByName;
    snap.clashes = cached.clashes;
  } else {
    for (const source of sources) {
      if ('node' in source) snap.tools.push(source);
      else for (const tool of source) snap.tools.push(tool);
    }
    for (const tool of snap.tools) {
      const first = snap.toolsByName.get(tool.name);
      if (first) snap.clashes.push({ name: tool.name, first, second: tool });
      else snap.toolsByName.set(tool.name, tool);
    }
  }
}

function hostName(type: string): string {
  const name = type.replace(/^skilltree-/, '');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A clash as a message naming both tools' owners. */
export function clashMessage(clash: Clash): string {
  return `Duplicate tool name "${clash.name}": rendered by ${where(clash.first)} and by ${where(clash.second)}. Tool names must be unique among the tools rendered at the same time.`;
}
