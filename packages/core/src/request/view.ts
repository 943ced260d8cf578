/**
 * One JSON-safe view of what the model receives and why: each context line with the component that
 * rendered it, each tool with its skill and owner, each skill with its state, and every problem.
 * The testing package, the CLI, the dev server and the playground read this, never host nodes.
 */

import { storeStates } from '../host/agent-store.js';
import { searchToolSpec } from '../host/catalog.js';
import { readToolSpec } from '../host/prompt.js';
import type { SkillState } from '../host/runtime.js';
import { metaOf } from '../host/serialize.js';
import { escapeContext } from '../parts/text.js';
import { config, currentWindow } from '../state/config.js';
import { isBusy, isSuspended, loadedSkills, mountCount } from '../state/reads.js';
import { type SessionState, skillState, tree } from '../state/state.js';
import { transcriptLength } from '../transcript/transcript.js';
import type { ContextPlacement } from '../types/request.js';
import type { SessionConfig, Warning } from '../types/session.js';
import { buildRequest, offeredTools, requestBlocker } from './request.js';

/** One line of `<current_context>`, as the model reads it (escaped), and who rendered it. */
export interface ViewLine {
  text: string;
  kind: 'instructions' | 'text';
  /** The component that rendered the `<Instructions>` or `<Text>`. */
  owner: string;
}

/** A part of `<current_context>`: the agent's (`skill: null`), or a loaded skill's. */
export interface ViewSection {
  skill: string | null;
  /** The skill read last. */
  active: boolean;
  lines: ViewLine[];
}

/** A tool the model is offered. */
export interface ViewTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The skill that renders it; null at agent level and for the built-in read tool. */
  skill: string | null;
  /** The component that renders it; `skilltree` for the read tool. */
  owner: string;
  /** The tool's `meta` prop (never sent to the model). */
  meta?: Record<string, unknown>;
}

/** A skill of the catalog. */
export interface ViewSkill {
  name: string;
  description: string;
  owner: string;
  state: SkillState;
  /** How often it was mounted in this session. */
  mounts: number;
  /** Loaded, and showing its Suspense fallback (waiting for data). */
  suspended: boolean;
  /** Tools it renders now (empty while unloaded). */
  tools: string[];
  /** The skill's `meta` prop (never sent to the model). */
  meta?: Record<string, unknown>;
}

/** A mistake in the tree. `skill` is null at agent level. */
export interface ViewProblem {
  message: string;
  skill: string | null;
}

/** Everything about a session an inspector shows. Plain JSON: safe to send over the wire. */
export interface SessionView {
  /** The `<Agent>`: its props (lifecycle settings; JSON values only) and its `<Instructions>` blocks. */
  agent: { props: Record<string, unknown>; instructions: string[] };
  /** The system prompt, as the model receives it. */
  system: string;
  /** `<current_context>…</current_context>`, as the model receives it. */
  context: string;
  contextPlacement: ContextPlacement;
  /** The context's parts: the agent's, then each loaded skill, least recently read first. */
  sections: ViewSection[];
  /** The tools of the next request, in its order. */
  tools: ViewTool[];
  /** The catalog, in tree order. */
  skills: ViewSkill[];
  /** Loaded skills, least recently read first (the last is active). */
  loadedSkills: string[];
  problems: ViewProblem[];
  /** Which part of the transcript the next request carries. */
  window: { start: number; size: number; transcriptLength: number };
  config: SessionConfig;
  /** Store state by name (JSON data). */
  stores: Record<string, unknown>;
  warnings: Warning[];
  /** A turn is running. */
  busy: boolean;
  /** Why the agent cannot render (it threw, or is suspended), or null. */
  blocked: string | null;
}

/** Reads `state` into a {@link SessionView}. */
export function buildView(state: SessionState): SessionView {
  const snap = tree(state);
  const cfg = config(state);
  const blocker = requestBlocker(state);
  const request = blocker ? null : buildRequest(state);
  const loaded = loadedSkills(state);
  const active = loaded[loaded.length - 1] ?? null;
  const lines = (sources: { line: string; kind: 'instructions' | 'text'; owner: string }[]): ViewLine[] =>
    sources.map((s) => ({ text: escapeContext(s.line), kind: s.kind, owner: s.owner }));
  const sections: ViewSection[] = [];
  if (!blocker) {
    sections.push({ skill: null, active: false, lines: lines(snap.agentSources) });
    for (const name of loaded) {
      const skill = snap.skillsByName.get(name);
      if (skill) sections.push({ skill: name, active: name === active, lines: lines(skill.sources) });
    }
  }
  const offered = blocker ? [] : offeredTools(snap, cfg.readToolName);
  const readSpec = readToolSpec(cfg.readToolName);
  const tools: ViewTool[] = offered.map((spec) => {
    const entry = snap.toolsByName.get(spec.name);
    if (!entry || spec === readSpec || spec === searchToolSpec()) return { ...spec, skill: null, owner: 'skilltree' };
    const tool: ViewTool = { ...spec, skill: entry.skill, owner: entry.owner };
    const meta = metaOf(entry.node.props);
    if (meta) tool.meta = meta;
    return tool;
  });
  const skills: ViewSkill[] = snap.skills.map((skill) => {
    const view: ViewSkill = {
      name: skill.name,
      description: skill.description,
      owner: skill.owner,
      state: skillState(state, skill.name),
      mounts: mountCount(state, skill.name),
      suspended: isSuspended(state, skill.name),
      tools: skill.tools.map((t) => t.name),
    };
    const meta = metaOf(skill.node.props);
    if (meta) view.meta = meta;
    return view;
  });
  const win = currentWindow(state);
  return JSON.parse(
    JSON.stringify({
      agent: { props: agentProps(snap.agentProps), instructions: [...snap.instructions] },
      system: request?.system ?? '',
      context: request?.context ?? '',
      contextPlacement: cfg.contextPlacement,
      sections,
      tools,
      skills,
      loadedSkills: [...loaded],
      problems: snap.problems.map((p) => ({ message: p.message, skill: p.skill })),
      window: {
        start: win.start,
        size: win.messages.length,
        transcriptLength: transcriptLength(state.window.transcript),
      },
      config: cfg,
      stores: storeStates(state.stores),
      warnings: state.warnings,
      busy: isBusy(state),
      blocked: blocker?.message ?? null,
    } satisfies SessionView),
  ) as SessionView;
}

/** The `<Agent>` props a view shows: plain values only (children and functions are left out). */
function agentProps(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    if (key === 'children' || typeof value === 'function' || typeof value === 'symbol') continue;
    if (value !== null && typeof value === 'object') continue;
    out[key] = value;
  }
  return out;
}
