/**
 * What other layers read of a session's records, as functions: each record is written by the
 * layer that owns it (see `SessionState`), and read elsewhere only through these.
 */

import type { Transcript } from '../transcript/transcript.js';
import type { Usage } from '../types/model.js';
import type { SentLogData } from '../types/request.js';
import type { LifecycleLogData, WaitingCall } from '../types/session.js';
import type { SessionState } from './state.js';

/** Loaded skills, least recently read first; the last is active. */
export function loadedSkills(state: SessionState): readonly string[] {
  return state.skills.loaded;
}

/** The active skill (the one read last), or null. */
export function activeSkill(state: SessionState): string | null {
  return state.skills.loaded[state.skills.loaded.length - 1] ?? null;
}

/** How often `name` was mounted. */
export function mountCount(state: SessionState, name: string): number {
  return state.skills.mounts.get(name) ?? 0;
}

/** Whether `name` (a skill, or `AGENT`) shows its Suspense fallback. */
export function isSuspended(state: SessionState, name: string): boolean {
  return state.skills.suspended.has(name);
}

/** The skill that rendered `tool` most recently, for `Unknown tool` hints. */
export function lastSkillOfTool(state: SessionState, tool: string): string | undefined {
  return state.skills.toolHistory.get(tool);
}

/** The transcript the session holds (from its `start`). */
export function transcriptOf(state: SessionState): Transcript {
  return state.window.transcript;
}

/** Where the last window started in the whole transcript, when a stable window keeps it. */
export function windowStartOf(state: SessionState): number | undefined {
  return state.window.start;
}

/** What was sent with `appendOnly` (null until the first such request). */
export function sentPrefix(state: SessionState): SentLogData | null {
  return state.window.sent;
}

/** Whether a turn runs. */
export function isBusy(state: SessionState): boolean {
  return state.turn.busy;
}

/** Token usage summed over every model call of the session. */
export function usageOf(state: SessionState): Usage | undefined {
  return state.usage.total;
}

/** Calls waiting for approval or a client's result, in call order. */
export function waitingCalls(state: SessionState): readonly WaitingCall[] {
  return state.waiting.calls;
}

/**
 * The waiting calls as the session reports them (events, `Turn.waiting`, `session.waiting`): copies,
 * each with the chat's incarnation when the session serves a chat, so an answer can name it.
 */
export function shownWaiting(state: SessionState): WaitingCall[] {
  const { incarnation } = state.waiting;
  return state.waiting.calls.map((w) => (incarnation === null ? { ...w } : { ...w, incarnation }));
}

/** What the model has been told about the skills, as data (for a snapshot). */
export function toldLog(state: SessionState): LifecycleLogData {
  return state.told.log.data;
}

/** The incarnation of the chat the session serves (see `WaitingCall.incarnation`), or null for a session of its own. */
export function chatIncarnation(state: SessionState): string | null {
  return state.waiting.incarnation;
}
