/**
 * A session's state: plain data, and the reads every step makes of it (the tree as the serializer
 * reads it, a skill's place in the loaded order). The steps on it live beside it, one file a
 * section: `state-create` (a new state), `state-render` (rendering), `state-sync` (settling and
 * keeping the loaded set in step with the tree), `state-config` (the settings in effect),
 * `state-record` (recording context changes and messages) and `state-events` (events and warnings).
 * `session.ts` is a facade over them.
 */
import type { ReactNode } from 'react';
import type { StoreRegistry } from '../host/agent-store.js';
import type { Container } from '../host/reconciler.js';
import type { Runtime, SkillState } from '../host/runtime.js';
import { readTree, type TreeSnapshot } from '../host/serialize.js';
import type { Sections } from '../lifecycle/context-changes.js';
import type { LifecycleLog } from '../lifecycle/log.js';
import type { Transcript } from '../transcript/transcript.js';
import type { ContextChange } from '../types/messages.js';
import type { Usage } from '../types/model.js';
import type { SessionOptions } from '../types/options.js';
import type { ModelRequest, SentLogData } from '../types/request.js';
import type { SessionEvent, WaitingCall, Warning } from '../types/session.js';
import type { SubagentRun } from '../types/subagents.js';
import type { Identity, Tracing } from '../types/telemetry.js';

export type Listener = (event: SessionEvent) => void;

/**
 * What the session knows of its skills: which are loaded (least recently read first; the last is
 * active), how each fares, and which tools they offered. Kept in step with the tree by
 * `state/sync.ts`; skills load through `turn/skills.ts`.
 */
export interface SkillsRecord {
  /** Loaded skills, least recently read first; the last is active. */
  loaded: string[];
  /** How often each skill was mounted. */
  mounts: Map<string, number>;
  /** The skill a read is mounting next to the loaded ones, before it may push one out. */
  mounting: string | null;
  /** Skills (and `AGENT` for the agent itself) showing their Suspense fallback. */
  suspended: Set<string>;
  /** Loaded skills a settle already waited for since they mounted: a skill stuck loading delays one turn, not every one. */
  awaited: Set<string>;
  /** Skills whose subtree failed (threw, or updated without end), to unload and report. */
  errors: Map<string, string>;
  /** Listeners for any change of the loaded order (`Runtime.subscribeSkills`). */
  listeners: Set<() => void>;
  /**
   * Each `<Skill>`'s listener, by name (`Runtime.watchSkill`): a change of the loaded order tells
   * the skills whose state may have changed, not the whole catalog.
   */
  watchers: Map<string, (() => void)[]>;
  /** Skills rendered as loaded or active since the last change was told: with the loaded ones, who may need to render again. */
  shown: Set<string>;
  /** Tool name → the skill that rendered it most recently, for `Unknown tool` hints. */
  toolHistory: Map<string, string>;
  /** Tool name → who offered it (skill, or null at agent level) when the tree was last checked: a clash is blamed on the newcomer. */
  toolOwners: Map<string, string | null>;
  /** The tree whose skills and tools `sync` last took in. */
  synced: TreeSnapshot | null;
}

/** What the model has been told of the context: recorded by `state/record.ts`, read by requests. */
export interface ToldRecord {
  /** The context sections as last recorded: `contextChanged` lines are the diff against it. */
  baseline: Sections;
  /** Loads and unloads (and changes carried over from a snapshot) waiting for the next recorded message. */
  pending: ContextChange[];
  /** What the model has been told about the skills, message by message (the request's deltas). */
  log: LifecycleLog;
}

/** The transcript and the part of it requests carry. */
export interface WindowRecord {
  transcript: Transcript;
  /** Where the last window started, in the whole transcript (the stable window keeps it). */
  start: number | undefined;
  /** What was sent to a model with `appendOnly` (null until the first such request). */
  sent: SentLogData | null;
}

/** The running turn, owned by `turn/loop.ts`. */
export interface TurnRecord {
  busy: boolean;
  /** Events of the running turn, for its generator to yield (null between turns, and in a turn that hands none out). */
  events: SessionEvent[] | null;
}

/** Calls waiting for approval or for a client's result, in call order: `turn/waiting.ts` answers them. */
export interface WaitingRecord {
  calls: WaitingCall[];
  /** The incarnation of the chat the session serves (an answer may name it), or null for a session of its own. */
  incarnation: string | null;
}

/** Token usage summed over every model call of the session (restored sessions included). */
export interface UsageRecord {
  total: Usage | undefined;
}

/** The session's tracing, owned by `observe/tracing.ts`. */
export interface TracingRecord {
  /** Null when off (or the API is absent), undefined until first asked for. */
  tracing: Tracing | null | undefined;
  /** Who the session's spans name (`createSessions` sets the chat id and owner). */
  identity: Identity | undefined;
}

/** A run's own state: which run it is, the state that spawned it, and (a fork) the request it starts from. */
export interface RunSelf {
  run: SubagentRun;
  parent: SessionState;
  /** A fork's prefix: the parent's latest request, sent first byte for byte. Null for an isolated run. */
  fork: ModelRequest | null;
}

/** The session's record of subagent runs. */
export interface RunsRecord {
  /** The chat's runs, oldest first: one list, shared by the agent's state and every run's. */
  list: SubagentRun[];
  /** Set when this state is a run's. */
  self: RunSelf | null;
  /** Usage of the running turn: its own model calls, and those of the runs it spawned (as they happen). */
  turn: Usage | undefined;
  /** The running turn's budget scope, for the runs it spawns (opaque here: `turn/loop`'s `TurnScope`). */
  scope: unknown;
  /** Set by a run's `finish` call: its turn ends after that call. */
  finished: boolean;
}

/**
 * A session's state: what the session itself holds (its options, element, container, stores,
 * listeners, warnings), and one record per concern, each owned by the layer that writes it. A module
 * reads another layer's record through that layer's functions (`test/structure.test.ts` checks it).
 */
export interface SessionState {
  options: SessionOptions;
  element: ReactNode;
  container: Container;
  runtime: Runtime;
  stores: StoreRegistry;
  listeners: Map<string, Set<Listener>>;
  uncaught: unknown[];
  disposed: boolean;
  /** The agent's own tree threw (or looped): requests refuse until it renders again. */
  crashed: Error | null;
  warnings: Warning[];
  skills: SkillsRecord;
  told: ToldRecord;
  window: WindowRecord;
  turn: TurnRecord;
  waiting: WaitingRecord;
  usage: UsageRecord;
  tracing: TracingRecord;
  /** Subagent runs: the chat's list, this state's own run (if it is one), the turn's usage. */
  runs: RunsRecord;
}

/** Key of the agent's own Suspense fallback in `suspended`. */
export const AGENT = '\u0000agent';

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The tree as the serializer reads it now. Pure: see {@link sync} for keeping the session in step. */
export function tree(state: SessionState): TreeSnapshot {
  return readTree(state.container.host);
}

export function skillState(state: SessionState, name: string): SkillState {
  const index = state.skills.loaded.indexOf(name);
  if (index === -1) return 'unloaded';
  return index === state.skills.loaded.length - 1 ? 'active' : 'loaded';
}
