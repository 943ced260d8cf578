/**
 * What a waiting run goes on from (SPEC §19): its own session as JSON (transcript, loaded skills,
 * what the model was told, its waiting calls) and a fork's prefix, kept on the run with the chat,
 * so that any process resumes it when a waiting call of it is answered.
 */
import { loadedSkills, sentPrefix, toldLog, transcriptOf, waitingCalls } from '../state/reads.js';
import { unrecordedChanges } from '../state/record.js';
import type { SessionState } from '../state/state.js';
import type { ModelRequest } from '../types/request.js';
import type { SessionSnapshot } from '../types/session.js';
import type { SubagentRun } from '../types/subagents.js';

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The run's own session as a snapshot: stores are the chat's, so it holds none. */
export function runSnapshot(child: SessionState): SessionSnapshot {
  const t = transcriptOf(child);
  const snapshot: SessionSnapshot = {
    version: 2,
    transcript: json(t.messages),
    loadedSkills: [...loadedSkills(child)],
    stores: {},
  };
  const pending = unrecordedChanges(child);
  if (pending.length > 0) snapshot.pendingContextChanges = json(pending);
  if (t.lastCallNumber > 0) snapshot.lastCallNumber = t.lastCallNumber;
  const sent = sentPrefix(child);
  if (sent) snapshot.sent = json(sent);
  const log = toldLog(child);
  if (log.baseAt > 0 || log.base.length > 0 || log.records.length > 0) snapshot.lifecycle = json(log);
  if (waitingCalls(child).length > 0) snapshot.waiting = json([...waitingCalls(child)]);
  return snapshot;
}

/** Keeps what `run` (now waiting) goes on from. */
export function keepRunState(run: SubagentRun, child: SessionState, fork: ModelRequest | null): void {
  run.state = { snapshot: runSnapshot(child), ...(fork ? { fork: json({ ...fork }) } : {}) };
}

/** The waiting calls a waiting run's state holds (their ids), or none. */
export function runWaitingIds(run: SubagentRun): string[] {
  const snapshot = run.state?.snapshot as SessionSnapshot | undefined;
  return (snapshot?.waiting ?? []).map((w) => w.toolCallId);
}
