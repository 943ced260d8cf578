/**
 * What the queries search: one read of a session, turned into tools, text lines and skills, each
 * attributed to the skill that rendered it.
 */
import type { ModelRequest, Session } from '@skilltree/core';

/** A tool in the request, as `*ByTool` queries return it. */
export interface ToolMatch {
  name: string;
  description: string;
  /** The JSON Schema the model receives for the tool's input. */
  inputSchema: Record<string, unknown>;
  /** The skill that renders the tool, or `null` for agent-level tools and the built-in read tool. */
  skill: string | null;
}

/** A piece of text the model receives, as `*ByText` queries return it. */
export interface TextMatch {
  /** The matched line (or, for a multi-line string matcher, the matched lines joined by `\n`), as the model reads it. */
  text: string;
  /** `system`: the system prompt (agent instructions, skill catalog); `context`: `<current_context>`. */
  source: 'system' | 'context';
  /** The skill whose part of `<current_context>` holds the text; `null` for the system prompt and agent text. */
  skill: string | null;
}

/** A skill of the catalog, as `*BySkill` queries and `agent.getSkill` return it. */
export interface SkillView {
  name: string;
  description: string;
  /** Mounted (loaded or active). */
  loaded: boolean;
  /** The skill read last. */
  active: boolean;
  /** Its part of `<current_context>` as the model reads it, lines joined by `\n`; `''` while unloaded. */
  text: string;
  /** Names of the tools it renders now, in tree order; empty while unloaded. */
  tools: string[];
}

/** One line of the system prompt or the context. */
export interface ViewLine {
  text: string;
  source: 'system' | 'context';
  skill: string | null;
}

/** A session read once. */
export interface View {
  request: ModelRequest;
  lines: ViewLine[];
  tools: ToolMatch[];
  skills: SkillView[];
  /** True when the tree is unmounted (the view is empty). */
  unmounted: boolean;
}

/** Where queries read from: called afresh by every query, so results never go stale. */
export type ViewSource = () => View;

/** A query scope: the whole request, or one skill's part of it. */
export interface Scope {
  skill?: string;
}

/** The request of an unmounted agent: nothing rendered, nothing offered. */
export function emptyRequest(): ModelRequest {
  return { system: '', context: '', messages: [], tools: [], contextPlacement: 'end' };
}

/** A deep, plain copy: callers may mutate or snapshot it without touching the session's caches. */
export function plainRequest(request: ModelRequest): ModelRequest {
  return JSON.parse(JSON.stringify(request)) as ModelRequest;
}

/** Reads a session (or nothing, once unmounted) into a {@link View}, from core's own view of it. */
export function readView(session: Session | null): View {
  if (!session || session.disposed) {
    return { request: emptyRequest(), lines: [], tools: [], skills: [], unmounted: true };
  }
  const request = plainRequest(session.request());
  const view = session.view();
  const lines: ViewLine[] = [];
  for (const text of view.system.split('\n')) {
    if (text.trim()) lines.push({ text, source: 'system', skill: null });
  }
  for (const section of view.sections) {
    for (const line of section.lines) {
      if (line.text.trim()) lines.push({ text: line.text, source: 'context', skill: section.skill });
    }
  }
  const tools: ToolMatch[] = view.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    skill: tool.skill,
  }));
  const sections = new Map(view.sections.map((section) => [section.skill, section]));
  const skills: SkillView[] = view.skills.map((skill) => {
    const loaded = skill.state !== 'unloaded';
    return {
      name: skill.name,
      description: skill.description,
      loaded,
      active: skill.state === 'active',
      text:
        sections
          .get(skill.name)
          ?.lines.map((line) => line.text)
          .join('\n') ?? '',
      tools: loaded ? skill.tools : [],
    };
  });
  return { request, lines, tools, skills, unmounted: false };
}

const SOURCE = Symbol.for('skilltree.testing.source');

/** Attaches, invisibly to equality and snapshots, the source a skill view came from (for `within`). */
export function tagSkill(skill: SkillView, source: ViewSource): SkillView {
  Object.defineProperty(skill, SOURCE, { value: source, enumerable: false });
  return skill;
}

/** The source a skill view came from, or undefined for a plain object. */
export function sourceOfSkill(skill: unknown): ViewSource | undefined {
  return skill && typeof skill === 'object' ? (skill as { [SOURCE]?: ViewSource })[SOURCE] : undefined;
}
