/**
 * Reads the host tree into a plain description of the prompt: agent instructions, agent text,
 * agent tools, and the skill catalog with each mounted skill's lines and tools. A pure walk that
 * reuses the last result for every subtree that did not change since (see `markDirty`).
 */
import { type HostChild, type HostElement, type HostRoot, textContent } from './host.js';

/** A rendered `<Tool>`. Its `node.props` always hold the latest `run`, schema and description. */
export interface ToolEntry {
  name: string;
  node: HostElement;
  /** The skill that rendered it, or null at agent level. */
  skill: string | null;
  owner: string;
}

/** A host element's `meta` prop when it is a plain object (inspectors show it; the model never sees it). */
export function metaOf(props: Record<string, any>): Record<string, unknown> | undefined {
  const meta = props.meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta : undefined;
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
  /** Each line paired with the component that rendered it (for the playground's tree panel). */
  sources: LineSource[];
}

/** Which component rendered a context line. */
export interface LineSource {
  line: string;
  kind: 'instructions' | 'text';
  owner: string;
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
  /** Every rendered tool, in tree order: agent level and every mounted skill. */
  tools: ToolEntry[];
  toolsByName: Map<string, ToolEntry>;
  /** The catalog, in tree order. */
  skills: SkillEntry[];
  skillsByName: Map<string, SkillEntry>;
  /** Mistakes in the tree (duplicate names, invalid names); each names the components involved. */
  problems: string[];
}

/** Tool names the providers accept. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function splitLines(text: string): string[] {
  return text.split('\n');
}

function where(entry: { owner: string; skill?: string | null }): string {
  return entry.skill ? `<${entry.owner}> in skill "${entry.skill}"` : `<${entry.owner}> at agent level`;
}

function readSkill(node: HostElement, problems: string[]): SkillEntry {
  const cached = node.cache as SkillEntry | undefined;
  if (!node.dirty && cached) {
    for (const tool of cached.tools) checkTool(tool, problems);
    return cached;
  }
  const name = String(node.props.name);
  const entry: SkillEntry = {
    name,
    description: String(node.props.description ?? ''),
    owner: node.owner,
    node,
    lines: [],
    tools: [],
    sources: [],
  };
  const visit = (child: HostChild) => {
    if (child.kind === 'text' || child.hidden) return;
    switch (child.type) {
      case 'skilltree-instructions':
      case 'skilltree-text': {
        const kind = child.type === 'skilltree-text' ? 'text' : 'instructions';
        for (const line of splitLines(textContent(child))) {
          entry.lines.push(line);
          entry.sources.push({ line, kind, owner: child.owner });
        }
        return;
      }
      case 'skilltree-tool':
        entry.tools.push({ name: String(child.props.name), node: child, skill: name, owner: child.owner });
        return;
      case 'skilltree-skill':
        problems.push(
          `Skill "${child.props.name}" is rendered inside skill "${name}" (by <${child.owner}>). Skills cannot nest: render every <Skill> at agent level.`,
        );
        return;
      case 'skilltree-agent':
        problems.push(
          `<Agent> is rendered inside skill "${name}" (by <${child.owner}>). An agent has exactly one <Agent>, at the root.`,
        );
        return;
    }
  };
  for (const child of node.children) visit(child);
  node.dirty = false;
  node.cache = entry;
  for (const tool of entry.tools) checkTool(tool, problems);
  return entry;
}

function checkTool(tool: ToolEntry, problems: string[]): void {
  const { props } = tool.node;
  if (!TOOL_NAME.test(tool.name)) {
    problems.push(
      `Invalid tool name "${tool.name}" (rendered by ${where(tool)}): tool names must match ^[a-zA-Z0-9_-]{1,64}$.`,
    );
  }
  if (typeof props.run !== 'function') {
    problems.push(
      `Tool "${tool.name}" (rendered by ${where(tool)}) has no run function: pass run={(input, ctx) => ...}.`,
    );
  }
  if (props.input !== undefined && typeof props.input?.safeParse !== 'function') {
    problems.push(
      `Tool "${tool.name}" (rendered by ${where(tool)}) needs a zod schema as input, e.g. input={z.object({})}.`,
    );
  }
}

/** Reads the tree. Returns the previous snapshot when nothing changed since it was taken. */
export function readTree(root: HostRoot): TreeSnapshot {
  const cached = root.cache as TreeSnapshot | undefined;
  if (!root.dirty && cached) return cached;

  const snap: TreeSnapshot = {
    agentProps: {},
    instructions: [],
    agentLines: [],
    agentSources: [],
    tools: [],
    toolsByName: new Map(),
    skills: [],
    skillsByName: new Map(),
    problems: [],
  };
  let agents = 0;
  const visit = (node: HostChild) => {
    if (node.kind === 'text' || node.hidden) return;
    // Skills keep their flag: readSkill uses it to decide whether its cached entry is still good.
    if (node.type !== 'skilltree-skill') node.dirty = false;
    switch (node.type) {
      case 'skilltree-agent':
        agents++;
        if (agents === 2) {
          snap.problems.push(
            `Two <Agent> elements are rendered (the second by <${node.owner}>). Render exactly one, at the root.`,
          );
        }
        snap.agentProps = node.props;
        for (const child of node.children) visit(child);
        return;
      case 'skilltree-instructions':
        snap.instructions.push(textContent(node));
        return;
      case 'skilltree-text':
        for (const line of splitLines(textContent(node))) {
          snap.agentLines.push(line);
          snap.agentSources.push({ line, kind: 'text', owner: node.owner });
        }
        return;
      case 'skilltree-tool': {
        const tool = { name: String(node.props.name), node, skill: null, owner: node.owner };
        checkTool(tool, snap.problems);
        snap.tools.push(tool);
        return;
      }
      case 'skilltree-skill': {
        const skill = readSkill(node, snap.problems);
        const other = snap.skillsByName.get(skill.name);
        if (other) {
          snap.problems.push(
            `Two skills are named "${skill.name}" (rendered by <${other.owner}> and by <${skill.owner}>). Skill names must be unique.`,
          );
        }
        snap.skills.push(skill);
        snap.skillsByName.set(skill.name, skill);
        for (const tool of skill.tools) snap.tools.push(tool);
        return;
      }
    }
  };
  for (const child of root.children) visit(child);

  for (const tool of snap.tools) {
    const other = snap.toolsByName.get(tool.name);
    if (other) {
      snap.problems.push(
        `Duplicate tool name "${tool.name}": rendered by ${where(other)} and by ${where(tool)}. Tool names must be unique among the tools rendered at the same time.`,
      );
    } else {
      snap.toolsByName.set(tool.name, tool);
    }
  }
  root.dirty = false;
  root.cache = snap;
  return snap;
}
