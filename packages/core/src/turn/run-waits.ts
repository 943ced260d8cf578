/**
 * A subagent call whose run ended waiting (SPEC §19, §17): its call gets no result yet; the run's
 * waiting calls become the chat's (with `path` = [subagent, …, tool]), and the parent's turn ends
 * waiting too. `run-end.ts` answers them.
 */
import type { SessionState } from '../state/state.js';
import type { ToolCall } from '../types/messages.js';
import type { WaitingCall } from '../types/session.js';

/** What a subagent call resolves to when its run ended waiting: the run's calls, as the chat's. */
export class RunWaits {
  constructor(readonly calls: WaitingCall[]) {}
}

/** How a waiting run went on once answered: it waits again, or it ended with the parent's result. */
export type RunResumed = { waits: WaitingCall[] } | { call: ToolCall; content: string; isError: boolean };

const pending = new WeakMap<SessionState, WaitingCall[]>();

/** Notes the waits of a subagent call that ended waiting (the loop takes them after the call). */
export function noteRunWaits(state: SessionState, waits: RunWaits): void {
  pending.set(state, [...(pending.get(state) ?? []), ...waits.calls]);
}

/** The waits noted since the last call, taken. */
export function takeRunWaits(state: SessionState): WaitingCall[] {
  const out = pending.get(state) ?? [];
  pending.delete(state);
  return out;
}
