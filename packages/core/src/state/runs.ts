/**
 * What a session knows of its subagent runs (SPEC §19): the chat's list of runs, whether this state
 * is itself a run's (and whose), and the usage of the running turn, which runs add to as they go.
 * `subagents/` runs them; the loop reads the turn's usage and whether a run's `finish` ended it.
 */
import type { Usage } from '../types/model.js';
import type { SubagentRun } from '../types/subagents.js';
import type { RunSelf, RunsRecord, SessionState } from './state.js';

export type { RunSelf, RunsRecord } from './state.js';

/** A fresh record: the chat's runs (a snapshot's, or none). */
export function createRuns(list: SubagentRun[] = []): RunsRecord {
  return { list, self: null, turn: undefined, scope: undefined, finished: false };
}

/** The chat's runs, oldest first. */
export function runsOf(state: SessionState): SubagentRun[] {
  return state.runs.list;
}

/** The run this state is, or null for the agent's own state. */
export function runSelf(state: SessionState): RunSelf | null {
  return state.runs.self;
}

/** A turn starts: nothing used yet, no `finish`, and the scope its runs inherit. */
export function startTurnUsage(state: SessionState, scope: unknown): void {
  state.runs.turn = undefined;
  state.runs.finished = false;
  state.runs.scope = scope;
}

/** The running turn's usage so far (its own model calls and its runs'). */
export function turnUsage(state: SessionState): Usage | undefined {
  return state.runs.turn;
}

/** Sets the running turn's usage (the loop and the runs add to it with `addUsage`). */
export function setTurnUsage(state: SessionState, usage: Usage | undefined): void {
  state.runs.turn = usage;
}

/** Marks the running turn ended by a run's `finish`: the loop ends it after the call. */
export function finishRun(state: SessionState): void {
  state.runs.finished = true;
}

/**
 * What a budget's `perTurn` counts in this state: its own turn's usage, or, in a run, the usage of
 * the agent's turn the run belongs to (every run's usage counts in it as it happens).
 */
export function budgetTurnUsage(state: SessionState): Usage | undefined {
  let top = state;
  while (top.runs.self) top = top.runs.self.parent;
  return top.runs.turn;
}

/** The running turn's scope (its budget and the owner's ledger), which the runs it spawns go by. */
export function turnScope(state: SessionState): unknown {
  return state.runs.scope;
}

/** Whether a run's `finish` ended the running turn. */
export function runFinished(state: SessionState): boolean {
  return state.runs.finished;
}

/**
 * Makes `child` the state of `self.run`, spawned by `self.parent`: it shares the chat's list of
 * runs, the session's usage (its calls count in the session's, and budgets read it) and the chat's
 * stores, and assigns call ids of its own (`call_<scope>_N`), so they never repeat the parent's.
 */
export function adoptRun(child: SessionState, self: RunSelf, scope: string): void {
  const { parent } = self;
  child.runs.list = parent.runs.list;
  child.runs.self = self;
  child.usage = parent.usage;
  child.stores = parent.stores;
  child.window.transcript.scope = scope;
}
