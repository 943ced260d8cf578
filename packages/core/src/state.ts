/**
 * A session's state, and the primitives every step uses on it: render, flush, settle, read the
 * tree, resolve the config, record context changes, emit events. Plain data and free functions;
 * `session.ts` is a facade over them.
 */
import { createElement, type ReactNode, StrictMode, Suspense } from 'react';
import { SkillBoundary, Suspended } from './components.js';
import { captureSections, diffSections, lifecycleLine, type Sections } from './context-changes.js';
import { createLog, currentSkills, type LifecycleLog, lifecycleChanges, record } from './lifecycle-log.js';
import { busyComponents, type Container, createContainer, hasReadyWork, reconciler, renderSync } from './reconciler.js';
import { type Runtime, RuntimeContext, type SessionHandle, type SkillState } from './runtime.js';
import { readTree, TOOL_NAME, type TreeSnapshot } from './serialize.js';
import { createStoreRegistry, type StoreRegistry } from './store.js';
import { traceUnload } from './telemetry.js';
import { appendMessage, createTranscript, type Transcript, transcriptLength, windowOf } from './transcript.js';
import type {
  Message,
  SessionConfig,
  SessionEvent,
  SessionOptions,
  SessionSnapshot,
  UnloadReason,
  Usage,
  Warning,
} from './types.js';

export type Listener = (event: SessionEvent) => void;

export interface SessionState {
  options: SessionOptions;
  element: ReactNode;
  container: Container;
  runtime: Runtime;
  /** Loaded skills, least recently read first; the last is active. */
  loaded: string[];
  /** How often each skill was mounted. */
  mounts: Map<string, number>;
  transcript: Transcript;
  /** The context sections as last recorded: `contextChanged` lines are the diff against it. */
  baseline: Sections;
  /** Load/unload lines (and lines carried over from a snapshot) waiting for the next recorded message. */
  pendingLines: string[];
  stores: StoreRegistry;
  listeners: Map<string, Set<Listener>>;
  /** Events of the running turn, for its generator to yield (null between turns). */
  turnEvents: SessionEvent[] | null;
  uncaught: unknown[];
  /** Skills whose subtree failed (threw, or updated without end), to unload and report. */
  skillErrors: Map<string, string>;
  /** Skills (and `AGENT` for the agent itself) showing their Suspense fallback. */
  suspended: Set<string>;
  /** Loaded skills a settle already waited for since they mounted: a skill stuck loading delays one turn, not every one. */
  awaited: Set<string>;
  skillListeners: Set<() => void>;
  /** Tool name → the skill that rendered it most recently, for `Unknown tool` hints. */
  toolHistory: Map<string, string>;
  /** Tool name → who offered it (skill, or null at agent level) when the tree was last checked: a clash is blamed on the newcomer. */
  toolOwners: Map<string, string | null>;
  /** The tree whose skills and tools `sync` last took in. */
  synced: TreeSnapshot | null;
  /** The skill a read is mounting next to the loaded ones, before it may push one out. */
  mounting: string | null;
  busy: boolean;
  disposed: boolean;
  /** The agent's own tree threw (or looped): requests refuse until it renders again. */
  crashed: Error | null;
  warnings: Warning[];
  /** Token usage summed over every model call of the session (restored sessions included). */
  usage: Usage | undefined;
  /** Where the last window started, in the whole transcript (the stable window keeps it). */
  windowStart: number | undefined;
  /** What the model has been told about the skills, message by message (the request's deltas). */
  lifecycle: LifecycleLog;
}

/** Key of the agent's own Suspense fallback in `suspended`. */
export const AGENT = '\u0000agent';

const DEFAULTS = {
  maxLoadedSkills: 3,
  maxTranscriptMessages: 60,
  contextLineLimit: 200,
  maxSteps: 20,
  toolTimeout: 60_000,
  maxToolResultChars: 100_000,
  readToolName: 'read_skill',
};

/** Effects that keep scheduling updates for this many rounds in a row are a loop, not work. */
const RUNAWAY_ROUNDS = 200;

let sessionCount = 0;

export function createState(
  element: ReactNode,
  options: SessionOptions,
  handle: SessionHandle,
  restore?: SessionSnapshot,
): SessionState {
  const state = {} as SessionState;
  const runtime: Runtime = {
    session: handle,
    subscribeSkills(listener) {
      state.skillListeners.add(listener);
      return () => state.skillListeners.delete(listener);
    },
    skillState: (name) => skillState(state, name),
    reportSkillError(name, error) {
      state.skillErrors.set(name, `Skill "${name}" threw while rendering and was unloaded: ${errorMessage(error)}`);
    },
    reportSuspended(name, suspended) {
      if (suspended) state.suspended.add(name ?? AGENT);
      else state.suspended.delete(name ?? AGENT);
    },
  };
  Object.assign(state, {
    options,
    element,
    container: createContainer((error) => state.uncaught.push(error), `st${++sessionCount}-`),
    runtime,
    loaded: [],
    mounts: new Map(),
    transcript: createTranscript(restore?.transcript, restore?.transcriptStart ?? 0, restore?.lastCallNumber ?? 0),
    baseline: new Map(),
    pendingLines: [...(restore?.pendingContextChanges ?? [])],
    stores: createStoreRegistry(restore?.stores ?? {}, (name, value) =>
      emit(state, { type: 'store-changed', name, state: value }),
    ),
    listeners: new Map(),
    turnEvents: null,
    uncaught: [],
    skillErrors: new Map(),
    suspended: new Set(),
    awaited: new Set(),
    skillListeners: new Set(),
    toolHistory: new Map(),
    toolOwners: new Map(),
    synced: null,
    mounting: null,
    busy: false,
    disposed: false,
    crashed: null,
    warnings: [],
    usage: restore?.usage,
    windowStart: restore?.windowStart,
    lifecycle: createLog(restore?.lifecycle),
  } satisfies SessionState);
  return state;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ───────────────────────────── rendering ─────────────────────────────

/** Renders the session's element now. Throws (and marks the session crashed) when the agent throws. */
export function render(state: SessionState): void {
  state.crashed = null;
  // The agent's own Suspense boundary: while it shows its fallback, no request is built.
  let tree: ReactNode = createElement(
    RuntimeContext.Provider,
    { value: state.runtime },
    createElement(
      Suspense,
      { fallback: createElement(Suspended, { name: null, runtime: state.runtime }) },
      state.element,
    ),
  );
  if (state.options.strictMode) tree = createElement(StrictMode, null, tree);
  renderSync(state.container, tree);
  checkCrash(state);
}

/** Commits sync work (store updates, setters called from outside React). */
export function flush(state: SessionState): void {
  reconciler.flushSyncWork();
  checkCrash(state);
}

/** After an uncaught render error React has unmounted the tree: remember why, and throw it. */
function checkCrash(state: SessionState): void {
  if (state.uncaught.length === 0) return;
  const error = state.uncaught[0];
  state.uncaught.length = 0;
  state.crashed = error instanceof Error ? error : new Error(String(error));
  throw state.crashed;
}

/** Unmounts the tree. */
export function unmount(state: SessionState): void {
  renderSync(state.container, null);
}

/** Options of {@link settle}. */
export interface SettleOptions {
  /** Also wait while this skill shows its Suspense fallback. */
  skill?: string;
  /** Also wait while any loaded skill shows its fallback (a turn's start: a restored skill still fetching). */
  loaded?: boolean;
  /** When to stop waiting for suspended data (epoch ms). Default: now + the tool timeout. */
  deadline?: number;
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until React has nothing left to do: sync work, passive effects, the updates effects
 * schedule, and lanes whose suspended data arrived. Loops on React's own pending state, never on a
 * tick count. Also waits (until the deadline) while the agent, or `options.skill`, is suspended.
 * An update loop that never ends is stopped: its skill is unloaded, or (at agent level) the tree.
 */
export async function settle(state: SessionState, options: SettleOptions = {}): Promise<void> {
  const deadline = options.deadline ?? Date.now() + config(state).toolTimeout;
  let busyRounds = 0;
  for (;;) {
    flush(state);
    const ranEffects = reconciler.flushPassiveEffects();
    flush(state);
    if (ranEffects || hasReadyWork(state.container)) {
      if (++busyRounds > RUNAWAY_ROUNDS) {
        stopRunaway(state);
        busyRounds = 0;
      }
      await macrotask();
      continue;
    }
    const waiting =
      state.suspended.has(AGENT) ||
      (options.skill !== undefined && state.suspended.has(options.skill)) ||
      (options.loaded === true && state.loaded.some((name) => state.suspended.has(name) && !state.awaited.has(name)));
    if (!waiting || Date.now() >= deadline) break;
    await pause(2);
  }
  if (options.skill !== undefined) state.awaited.add(options.skill);
  if (options.loaded) for (const name of state.loaded) state.awaited.add(name);
  sync(state);
}

/** Ends an update loop: unloads the skills whose components keep updating, or crashes the agent. */
function stopRunaway(state: SessionState): void {
  const culprits = busyComponents(state.container, (type) => type === SkillBoundary);
  const agentLevel = culprits.filter((c) => c.skill === null || !state.loaded.includes(c.skill));
  if (agentLevel.length > 0 || culprits.length === 0) {
    const names = [...new Set(agentLevel.map((c) => `<${c.component}>`))].join(', ') || 'a component';
    unmount(state);
    state.crashed = new Error(
      `${names} kept updating state without end (an effect that sets state on every render?). The agent was unmounted: fix the component, then call session.rerender(element).`,
    );
    throw state.crashed;
  }
  for (const skill of new Set(culprits.map((c) => c.skill as string))) {
    const names = [...new Set(culprits.filter((c) => c.skill === skill).map((c) => `<${c.component}>`))].join(', ');
    const detail = `Skill "${skill}" was unloaded: ${names} kept updating state without end (an effect that sets state on every render?).`;
    state.skillErrors.set(skill, detail);
    unloadSkill(state, skill, { reason: 'error', detail });
  }
  notifySkills(state);
}

// ───────────────────────────── the tree ─────────────────────────────

/** The tree as the serializer reads it now. Pure: see {@link sync} for keeping the session in step. */
export function tree(state: SessionState): TreeSnapshot {
  return readTree(state.container.host);
}

/**
 * Brings the session in step with the tree after a commit: the `Unknown tool` history, and the
 * loaded set (skills that left the tree leave it; a smaller `maxLoadedSkills` pushes out the least
 * recently read).
 */
export function sync(state: SessionState): void {
  for (;;) {
    const snap = tree(state);
    if (snap === state.synced) return;
    state.synced = snap;
    for (const tool of snap.tools) if (tool.skill) state.toolHistory.set(tool.name, tool.skill);
    const max = config(state).maxLoadedSkills + (state.mounting ? 1 : 0);
    const kept = state.loaded.filter((name) => snap.skillsByName.has(name)).slice(-max);
    if (kept.length === state.loaded.length) return;
    for (const name of state.loaded) {
      if (!kept.includes(name)) unloadSkill(state, name, { reason: snap.skillsByName.has(name) ? 'limit' : 'removed' });
    }
    notifySkills(state);
  }
}

/** Removes `name` from the loaded set and records the unload; callers notify (one render for many). */
export function unloadSkill(state: SessionState, name: string, why?: UnloadReason): void {
  if (!state.loaded.includes(name)) return;
  state.loaded = state.loaded.filter((n) => n !== name);
  recordUnloaded(state, name, why);
}

/** Records that `name` left the loaded set: a `contextChanged … unloaded` line, an event and a span. */
export function recordUnloaded(state: SessionState, name: string, why?: UnloadReason): void {
  state.suspended.delete(name);
  state.pendingLines.push(lifecycleLine(name, 'unloaded'));
  emit(state, why ? { type: 'skill-unloaded', name, reason: why } : { type: 'skill-unloaded', name });
  traceUnload(state, name, why);
}

/** Re-renders every `<Skill>` with the new loaded order, and commits. */
export function notifySkills(state: SessionState): void {
  for (const listener of [...state.skillListeners]) listener();
  flush(state);
}

/** Counts a mount of `name`. */
export function recordMount(state: SessionState, name: string): void {
  state.mounts.set(name, (state.mounts.get(name) ?? 0) + 1);
  state.awaited.delete(name);
}

export function skillState(state: SessionState, name: string): SkillState {
  const index = state.loaded.indexOf(name);
  if (index === -1) return 'unloaded';
  return index === state.loaded.length - 1 ? 'active' : 'loaded';
}

// ───────────────────────────── config ─────────────────────────────

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
  const window = windowOf(state.transcript, {
    maxMessages: cfg.maxTranscriptMessages,
    maxTokens: cfg.maxTranscriptTokens,
    tokenizer: state.options.tokenizer,
    mode: cfg.windowMode,
    previousStart: state.windowStart,
  });
  state.windowStart = window.start;
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
    if (snap.skills.length > 0 && tool.name === read) {
      out.push(
        `Tool "${read}" (rendered by <${tool.owner}>) clashes with the built-in tool that reads skills. Rename it, or set <Agent readToolName="...">.`,
      );
    }
  }
  return out;
}

// ───────────────────────────── recording ─────────────────────────────

/** The context sections as they are now. */
export function sections(state: SessionState): Sections {
  return captureSections(tree(state), state.loaded);
}

/** The `contextChanged` lines not recorded yet: loads and unloads, then lines the context gained. */
export function pendingChanges(state: SessionState): string[] {
  return [...state.pendingLines, ...diffSections(state.baseline, sections(state), config(state).contextLineLimit)];
}

/**
 * Takes the pending `contextChanged` lines: they go into the message being recorded. The lifecycle
 * changes (loads, unloads, tools) are recorded with the same message.
 */
export function takeChanges(state: SessionState): string[] {
  const lines = pendingChanges(state);
  state.pendingLines = [];
  state.baseline = sections(state);
  const current = currentSkills(tree(state), state.loaded, config(state).readToolName);
  const entries = lifecycleChanges(state.lifecycle, current, state.mounts);
  state.lifecycle = record(state.lifecycle, transcriptLength(state.transcript), entries, state.mounts);
  if (lines.length > 0) emit(state, { type: 'context-changed', lines });
  return lines;
}

/** `text` with the pending `contextChanged` lines after it. */
export function withChanges(state: SessionState, text: string): string {
  const lines = takeChanges(state);
  if (lines.length === 0) return text;
  return text === '' ? lines.join('\n') : `${text}\n${lines.join('\n')}`;
}

export function pushMessage(state: SessionState, message: Message): void {
  appendMessage(state.transcript, message);
  emit(state, { type: 'message', message });
}

// ───────────────────────────── events ─────────────────────────────

export function emit(state: SessionState, event: SessionEvent): void {
  state.turnEvents?.push(event);
  for (const type of ['event', event.type]) {
    const set = state.listeners.get(type);
    if (!set) continue;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (error) {
        // A listener's bug must not break the turn or lose transcript data.
        console.error(`skilltree: a session "${type}" listener threw:`, error);
      }
    }
  }
}

/** Hands out the running turn's events produced so far, oldest first. */
export function* drainTurn(state: SessionState): Generator<SessionEvent, void, undefined> {
  const events = state.turnEvents;
  while (events && events.length > 0) yield events.shift() as SessionEvent;
}

export function warn(state: SessionState, message: string, source?: string): void {
  if (state.warnings.some((w) => w.message === message && w.source === source)) return;
  const warning: Warning = source === undefined ? { message } : { message, source };
  state.warnings.push(warning);
  emit(state, { type: 'warning', ...warning });
}

/** Throws when the session cannot act: disposed, or its agent crashed. */
export function assertLive(state: SessionState): void {
  if (state.disposed) throw new Error('This session is disposed: create a new one with createSession().');
}
