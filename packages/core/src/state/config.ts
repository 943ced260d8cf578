/**
 * The settings in effect (session options, else `<Agent>` props, else defaults), the window the
 * next request carries, and the mistakes in a tree that only a developer can make.
 */
import { CATALOG_MODES, SEARCH_TOOL_NAME, searching } from '../host/catalog.js';
import { TOOL_NAME } from '../host/serialize.js';
import { windowOf } from '../transcript/transcript.js';
import type { Message } from '../types/messages.js';
import type { SessionConfig } from '../types/session.js';
import { type SessionState, tree } from './state.js';

const DEFAULTS = {
  maxLoadedSkills: 3,
  maxTranscriptMessages: 60,
  contextLineLimit: 200,
  maxSteps: 20,
  toolTimeout: 60_000,
  maxToolResultChars: 100_000,
  readToolName: 'read_skill',
};

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** The lifecycle settings in effect: session options, else `<Agent>` props, else defaults. */
export function config(state: SessionState): SessionConfig {
  const props = tree(state).agentProps;
  const o = state.options;
  const placement = o.contextPlacement ?? props.contextPlacement;
  return {
    maxLoadedSkills: positive(o.maxLoadedSkills ?? props.maxLoadedSkills, DEFAULTS.maxLoadedSkills),
    maxTranscriptMessages: positive(
      o.maxTranscriptMessages ?? props.maxTranscriptMessages,
      DEFAULTS.maxTranscriptMessages,
    ),
    contextLineLimit: positive(o.contextLineLimit ?? props.contextLineLimit, DEFAULTS.contextLineLimit),
    contextPlacement: placement === 'system' ? 'system' : 'end',
    readToolName: (o.readToolName ?? props.readToolName) || DEFAULTS.readToolName,
    maxSteps: positive(o.maxSteps, DEFAULTS.maxSteps),
    toolTimeout: positive(o.toolTimeout, DEFAULTS.toolTimeout),
    maxToolResultChars: positive(o.maxToolResultChars, DEFAULTS.maxToolResultChars),
    maxTranscriptTokens: positive(o.maxTranscriptTokens ?? props.maxTranscriptTokens, Number.NaN) || undefined,
    windowMode: (o.windowMode ?? props.windowMode) === 'stable' ? 'stable' : 'sliding',
  };
}

/** The window the next request carries (stable mode remembers where it started). */
export function currentWindow(state: SessionState): { start: number; messages: Message[] } {
  const cfg = config(state);
  const window = windowOf(state.window.transcript, {
    maxMessages: cfg.maxTranscriptMessages,
    maxTokens: cfg.maxTranscriptTokens,
    tokenizer: state.options.tokenizer,
    mode: cfg.windowMode,
    previousStart: state.window.start,
  });
  state.window.start = window.start;
  return window;
}

/**
 * Mistakes a developer made (the model cannot cause these): they fail `createSession` and
 * `rerender` with one message naming every component involved.
 */
export function developerProblems(state: SessionState): string[] {
  const snap = tree(state);
  const out = snap.problems.filter((p) => p.skill === null).map((p) => p.message);
  const read = config(state).readToolName;
  if (!TOOL_NAME.test(read)) out.push(`Invalid readToolName "${read}": it must match ${TOOL_NAME.source}.`);
  const mode = snap.agentProps.catalog;
  if (mode !== undefined && !CATALOG_MODES.includes(mode)) {
    out.push(`Invalid <Agent catalog=${JSON.stringify(mode)}>: use "list", "search" or "auto" (the default).`);
  }
  if (read === SEARCH_TOOL_NAME && searching(snap)) {
    out.push(
      `Invalid readToolName "${read}": it is the name of the built-in tool that searches the catalog. Pick another.`,
    );
  }
  const agentTools = snap.tools.filter((t) => t.skill === null);
  const seen = new Map<string, string>();
  for (const tool of agentTools) {
    const other = seen.get(tool.name);
    if (other) {
      out.push(
        `Duplicate tool name "${tool.name}": rendered by <${other}> at agent level and by <${tool.owner}> at agent level. Tool names must be unique among the tools rendered at the same time.`,
      );
    }
    seen.set(tool.name, tool.owner);
    if (tool.name === SEARCH_TOOL_NAME && searching(snap)) {
      out.push(
        `Tool "${SEARCH_TOOL_NAME}" (rendered by <${tool.owner}>) clashes with the built-in tool that searches the catalog in search mode. Rename it, or set <Agent catalog="list">.`,
      );
    }
    if (snap.skillCount > 0 && tool.name === read) {
      out.push(
        `Tool "${read}" (rendered by <${tool.owner}>) clashes with the built-in tool that reads skills. Rename it, or set <Agent readToolName="...">.`,
      );
    }
  }
  return out;
}
