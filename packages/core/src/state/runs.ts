/**
 * What a session knows of its subagent runs (SPEC §19): the chat's list of runs, whether this state
 * is itself a run's (and whose), and the usage of the running turn, which runs add to as they go.
 * `subagents/` runs them; the loop reads the turn's usage and whether a run's `finish` ended it.
 */
import type { Usage } from '../types/model.js';
import type { ModelRequest } from '../types/request.js';
import type { SubagentRun } from '../types/subagents.js';
import type { SessionState } from './state.js';

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

/** Whether a run's `finish` ended the running turn. */
export function runFinished(state: SessionState): boolean {
  return state.runs.finished;
}
