/**
 * What a rendered tree needs from its session, passed down through React context. Components and
 * tools see the small {@link SessionHandle}, never the session loop.
 */
import { createContext } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { Message, ToolCall } from '../types/messages.js';
import type { ToolAnswer, WaitingCall } from '../types/session.js';
import type { AgentStoreDef } from './agent-store.js';

/** Where a skill stands in the LRU order. */
export type SkillState = 'unloaded' | 'loaded' | 'active';

/** The part of a session that components (`useSession()`) and tools (`ctx.session`) use. */
export interface SessionHandle {
  /** The store instance of `def` in this session, created on first use. */
  store<T>(def: AgentStoreDef<T>): StoreApi<T>;
  /** Reports a warning (a `warning` event, once per distinct message). */
  warn(message: string, source?: string): void;
  /** The loaded skills, least recently read first; the last is active. */
  readonly loadedSkills: string[];
  /** The skill read last, or null. */
  readonly activeSkill: string | null;
  /** The transcript held in memory, oldest first. */
  readonly transcript: readonly Message[];
}

/**
 * The chat a session serves, for components (`useChatInfo()`) and tools (`ctx.chat`): set for a
 * chat of `createSessions`, null for a session made with `createSession` or `restoreSession`.
 */
export interface ChatInfo {
  /** The chat id, exactly as the caller passed it to `sessions.send(id, …)` (never the store's key). */
  readonly id: string;
  /** The owner the turns are sent with (`{ owner }`, the server's `authorize` answer), or undefined for a chat without one. */
  readonly owner: string | undefined;
}

export interface Runtime {
  readonly session: SessionHandle;
  /** The chat this session serves, or null outside `createSessions`. */
  readonly chat: ChatInfo | null;
  /** Subscribes to changes of the loaded-skill order (useSyncExternalStore contract). */
  subscribeSkills(listener: () => void): () => void;
  /**
   * Subscribes to changes of one skill's state (useSyncExternalStore contract): told when the loaded
   * order changed in a way that may move `name`. Without it, a `<Skill>` listens to every change.
   */
  watchSkill?(name: string, listener: () => void): () => void;
  skillState(name: string): SkillState;
  /** A skill's subtree threw while rendering; the session unloads it and reports the error. */
  reportSkillError(name: string, error: unknown): void;
  /** A skill (or, with `null`, the agent) shows or stops showing its Suspense fallback. */
  reportSuspended(name: string | null, suspended: boolean): void;
  /**
   * Runs a `<Subagent>` call (set by the session: `subagents/` runs it). Absent in a tree no session
   * runs; a call then fails with an error that says so.
   */
  spawn?: (props: Record<string, unknown>, input: unknown, toolCallId: string, signal: AbortSignal) => Promise<unknown>;
  /**
   * Starts the runs of a step's subagent calls together, before the loop records their results one
   * by one in call order (each call's `spawn` then takes its run). `starting` is told of each call
   * it starts, before its run is spawned (the call's span opens then). Set with `spawn`.
   */
  prestart?: (calls: readonly ToolCall[], signal: AbortSignal, starting?: (call: ToolCall) => void) => void;
  /**
   * Resumes the runs whose waiting calls `answers` answer (each run once), and says for each how it
   * went on: it waits again (`waits`, the chat's waiting calls), or it ended with the result of the
   * parent's call. Set with `spawn`.
   */
  resume?: (
    answers: readonly ToolAnswer[],
    signal: AbortSignal,
  ) => Promise<({ waits: WaitingCall[] } | { call: ToolCall; content: string; isError: boolean })[]>;
}

export const RuntimeContext = createContext<Runtime | null>(null);
RuntimeContext.displayName = 'SkilltreeRuntime';

/** What `useSkill()` returns inside a skill. */
export interface SkillInfo {
  /** The skill's name. */
  name: string;
  /** True while it is the skill read last. */
  active: boolean;
}

export const SkillContext = createContext<SkillInfo | null>(null);
SkillContext.displayName = 'SkilltreeSkill';
