/**
 * Reading a tree with one `<Agent>` at its root (what every session renders) so that a commit costs
 * what it changed, not what the catalog holds. The first read walks every child of the agent and
 * keeps a layout beside the snapshot: where each skill sits in the catalog (`node.slot`), the agent's
 * other children, and which skills render anything. After that, `markDirty` notes which children of
 * the agent a change went through (`root.touched`), and the next snapshot is made from those alone:
 * a loaded skill that re-rendered has its entry swapped into the catalog in place, and the agent's
 * own instructions, text and tools are read again (they are few). Anything that changes the
 * catalog's shape (a skill added, removed, moved, hidden, renamed, re-described or (un)pinned, the
 * agent's props) reaches the agent or the root itself, and the tree is read whole again.
 */
import { splitLines } from '../parts/text.js';
import { TOOL_NAME } from '../parts/tool-name.js';
import { catalogSearched } from './catalog-mode.js';
import { CatalogView, SkillsByName } from './catalog-view.js';
import { type HostChild, type HostElement, type HostRoot, textContent } from './node.js';
import {
  emptySnapshot,
  type Problem,
  readSkill,
  type SkillEntry,
  type ToolEntry,
  type TreeSnapshot,
  toolEntry,
  toolProblems,
} from './tree-entries.js';

/** Where a snapshot's tools come from, in tree order: an agent-level tool, or a skill's list of tools. */
export type ToolSource = ToolEntry | readonly ToolEntry[];

/** A read of the tree: the snapshot, its tools not yet listed, and where they come from. */
export interface TreeRead {
  snap: TreeSnapshot;
  sources: ToolSource[];
}

/** What a whole read of a one-agent tree learnt about its shape (see the module comment). */
interface TreeLayout {
  agent: HostElement;
  /** The agent's children that are not skills, in tree order, each with how many skills come before it. */
  others: { node: HostElement; before: number }[];
  /** Problems of the catalog itself (a bad or repeated skill name), each at its skill's index, in order. */
  named: { at: number; problem: Problem }[];
  /** Indexes of the skills with tools or problems (the loaded ones), ascending. */
  content: number[];
}

/** Each snapshot's layout (a snapshot made from the last one shares it, updated) and catalog view. */
const layouts = new WeakMap<TreeSnapshot, { layout: TreeLayout; view: CatalogView }>();

/**
 * How many `<Skill>` host nodes reads have visited, all told: a whole read visits every skill, an
 * update only the skills a commit changed. Tests read it to check that a step does not walk the
 * catalog; nothing else does.
 */
export const skillVisits = { count: 0 };

/**
 * Reads a tree whose root holds exactly one `<Agent>` (with no `<Agent>` inside it) whole, keeping
 * its layout for later updates; null for any other tree (serialize.ts reads those).
 */
export function readLayout(root: HostRoot): TreeRead | null {
  const agent = root.children.length === 1 ? root.children[0] : undefined;
  if (!agent || agent.kind === 'text' || agent.type !== 'skilltree-agent' || agent.hidden) return null;
  const snap = emptySnapshot();
  const layout: TreeLayout = { agent, others: [], named: [], content: [] };
  const skills = snap.skills;
  const slots = new Map<string, number>();
  for (const child of agent.children) {
    if (child.kind === 'text' || child.hidden) continue;
    if (child.type === 'skilltree-agent') return null;
    if (child.type !== 'skilltree-skill') {
      layout.others.push({ node: child, before: skills.length });
      continue;
    }
    const at = skills.length;
    const skill = readSkill(child);
    skillVisits.count++;
    child.slot = at;
    if (!TOOL_NAME.test(skill.name)) {
      const message = `Invalid skill name "${skill.name}" (rendered by <${skill.owner}>): skill names must match ${TOOL_NAME.source}.`;
      layout.named.push({ at, problem: { message, skill: null } });
    }
    const other = slots.get(skill.name);
    if (other !== undefined) {
      const message = `Two skills are named "${skill.name}" (rendered by <${skills[other].owner}> and by <${skill.owner}>). Skill names must be unique.`;
      layout.named.push({ at, problem: { message, skill: null } });
    } else {
      slots.set(skill.name, at);
    }
    skills.push(skill);
    if (skill.node.props.pinned === true) snap.pinned.push(skill);
    if (rendersSome(skill)) layout.content.push(at);
  }
  agent.dirty = false;
  const view = new CatalogView(skills, slots, new Map());
  snap.skillsByName = new SkillsByName(view);
  snap.skillCount = skills.length;
  snap.agentProps = agent.props;
  snap.searched = catalogSearched(snap.agentProps, skills.length);
  return assemble(snap, layout, view, true);
}

/**
 * The snapshot after `last`, made from the children of the agent that `touched` names (see the
 * module comment), or null when the change is one only a whole read can take in. Nothing is changed
 * before it is known that the update can be made.
 */
export function updateSnapshot(root: HostRoot, last: TreeSnapshot, touched: ReadonlySet<HostChild>): TreeRead | null {
  const kept = layouts.get(last);
  if (!kept || root.children.length !== 1 || root.children[0] !== kept.layout.agent) return null;
  const { layout, view: lastView } = kept;
  let others = false;
  const swaps: [number, SkillEntry][] = [];
  for (const node of touched) {
    if (node.kind === 'text' || node.parent !== layout.agent || node.hidden) return null;
    if (node.type !== 'skilltree-skill') {
      if (!layout.others.some((other) => other.node === node)) return null;
      others = true;
      continue;
    }
    const at = node.slot ?? -1;
    const before = lastView.at(at);
    if (before?.node !== node) return null;
    const entry = readSkill(node);
    skillVisits.count++;
    if (entry === before) continue;
    // What the catalog section and the names say must stay: else the catalog's shape changed.
    if (entry.name !== before.name || entry.description !== before.description) return null;
    if ((node.props.pinned === true) !== last.pinned.includes(before)) return null;
    swaps.push([at, entry]);
  }
  const view = lastView.with(swaps);
  let pinned = last.pinned;
  for (const [at, entry] of swaps) {
    const before = lastView.at(at) as SkillEntry;
    if (pinned.includes(before)) pinned = pinned.map((skill) => (skill === before ? entry : skill));
    setContent(layout.content, at, rendersSome(entry));
  }
  const snap: TreeSnapshot = {
    agentProps: last.agentProps,
    instructions: others ? [] : last.instructions,
    agentLines: others ? [] : last.agentLines,
    agentSources: others ? [] : last.agentSources,
    tools: [],
    toolsByName: new Map(),
    // Made when something reads it (a step reads names and the count, never the whole list).
    get skills() {
      return view.list();
    },
    skillsByName: view === lastView ? last.skillsByName : new SkillsByName(view),
    skillCount: last.skillCount,
    pinned,
    searched: last.searched,
    problems: [],
    clashes: [],
  };
  return assemble(snap, layout, view, others);
}

/** Whether a skill renders tools or problems (an unloaded one renders neither). */
function rendersSome(skill: SkillEntry): boolean {
  return skill.tools.length > 0 || skill.problems.length > 0;
}

/** Adds `at` to the ascending list, or takes it out. */
function setContent(content: number[], at: number, present: boolean): void {
  let i = 0;
  while (i < content.length && content[i] < at) i++;
  if (present && content[i] !== at) content.splice(i, 0, at);
  else if (!present && content[i] === at) content.splice(i, 1);
}

/**
 * Fills in the snapshot's problems and tool sources in tree order, from the agent's other children
 * and the skills that render some; with `text`, the agent's instructions and text lines too (else
 * they are the last snapshot's).
 */
function assemble(snap: TreeSnapshot, layout: TreeLayout, view: CatalogView, text: boolean): TreeRead {
  const sources: ToolSource[] = [];
  const { others, named, content } = layout;
  let o = 0;
  let n = 0;
  let c = 0;
  // The agent's children before skill `at` (each `before` counts the skills ahead of it).
  const upTo = (at: number) => {
    for (; o < others.length && others[o].before <= at; o++) readAgentChild(others[o].node, snap, sources, text);
  };
  while (c < content.length || n < named.length) {
    const at = Math.min(content[c] ?? Number.POSITIVE_INFINITY, named[n]?.at ?? Number.POSITIVE_INFINITY);
    upTo(at);
    for (; n < named.length && named[n].at === at; n++) snap.problems.push(named[n].problem);
    if (content[c] === at) {
      const skill = view.at(at) as SkillEntry;
      for (const problem of skill.problems) snap.problems.push(problem);
      if (skill.tools.length > 0) sources.push(skill.tools);
      c++;
    }
  }
  upTo(Number.POSITIVE_INFINITY);
  if (text) snap.agentLines = snap.agentLines.slice(); // exact size, as a skill's lines (readSkill)
  layouts.set(snap, { layout, view });
  return { snap, sources };
}

/**
 * Reads one agent-level `<Instructions>`, `<Text>` or `<Tool>` into `snap`: its tool always (into
 * `sources`, its problems into `snap.problems`), its text with `text`. The whole read uses it too.
 */
export function readAgentChild(node: HostElement, snap: TreeSnapshot, sources: ToolSource[], text: boolean): void {
  node.dirty = false;
  switch (node.type) {
    case 'skilltree-instructions':
      if (text) snap.instructions.push(textContent(node));
      return;
    case 'skilltree-text':
      if (!text) return;
      for (const line of splitLines(textContent(node))) {
        snap.agentLines.push(line);
        snap.agentSources.push({ line, kind: 'text', owner: node.owner });
      }
      return;
    case 'skilltree-tool': {
      const tool = toolEntry(node, null);
      for (const message of toolProblems(tool)) snap.problems.push({ message, skill: null });
      sources.push(tool);
      return;
    }
  }
}
