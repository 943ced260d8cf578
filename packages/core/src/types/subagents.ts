/**
 * Subagents (SPEC §19): a `<Subagent>` call runs its children as an agent of its own. These are the
 * provider-neutral shapes of one run, as sessions, stores, servers and inspectors keep and show it.
 */
import type { Message } from './messages.js';
import type { Usage } from './model.js';

export type { SubagentRequestInfo } from './request.js';

/**
 * What a run sees: `'isolated'` (default) only its own conversation; `'fork'` the parent's latest
 * request byte for byte, then its own instructions, catalog, tools and task appended.
 */
export type SubagentContext = 'isolated' | 'fork';

/**
 * Where a run stands: `running`; `waiting` (a call inside it waits for approval or a client's
 * result); `done` (its result is the parent's tool result); `failed` (an error, `maxSteps`, a
 * budget); `aborted` (the parent's turn was aborted).
 */
export type SubagentStatus = 'running' | 'waiting' | 'done' | 'failed' | 'aborted';

/**
 * What a run's first request costs, estimated (4 characters per token) before it is sent:
 * `inputTokens` in all, of them `inheritedTokens` taken from the parent (a fork's prefix: the
 * parent's latest request), of them `cachedTokens` a provider's prompt cache can read (the parent's
 * prefix, which the parent's own request wrote). An isolated run inherits nothing.
 */
export interface SpawnCost {
  inputTokens: number;
  inheritedTokens: number;
  cachedTokens: number;
}

/** One run of a `<Subagent>`: what it was asked, where it stands, its conversation and what it cost. */
export interface SubagentRun {
  /** Unique in the chat: `run_${toolCallId}`. */
  id: string;
  /** The `<Subagent name>`. */
  name: string;
  /** The parent's call that spawned it. */
  toolCallId: string;
  /** The run this one was spawned inside (a `<Subagent>` rendered by a run), when there is one. */
  parentRunId?: string;
  /** 1 for a run spawned by the agent itself, 2 for one spawned inside it, and so on. */
  depth: number;
  context: SubagentContext;
  status: SubagentStatus;
  /** The run's own conversation (typed parts, as `session.transcript`), its task first. */
  transcript: Message[];
  /** What the run's model calls used, nested runs' included. */
  usage: Usage;
  /** The parent's tool result, once done: `finish`'s validated input, or the last text reply. */
  result?: unknown;
  /** When failed or aborted: names the subagent and the cause. */
  error?: string;
  /** What its first request cost, estimated before it was sent. */
  spawn?: SpawnCost;
  /**
   * While `waiting`: what the run goes on from when a waiting call of it is answered, in any
   * process (its own session snapshot, and a fork's prefix). Opaque JSON; gone once the run ends.
   */
  state?: { snapshot: unknown; fork?: unknown };
}

/** What `onSpawn` receives, before a run's first request is sent. */
export interface SpawnInfo {
  name: string;
  toolCallId: string;
  cost: SpawnCost;
}
