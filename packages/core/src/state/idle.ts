/**
 * What a session can let go of while it waits between turns, kept mounted in `createSessions`' cache:
 * the serializer's caches of the tree and the snapshot `sync` last took in, and the finished turn's
 * budget scope. All are made again by the next turn (the first read of the tree, `startTurnUsage`),
 * equal in content, so nothing a request says changes; a cached chat holds less while it waits
 * (docs/serving.md, "What one process holds").
 */
import { forgetReads } from '../host/forget-reads.js';
import type { SessionState } from './state.js';
import { forgetSynced } from './sync.js';

/** Lets go of what `state` keeps only to make its next step cheaper (see the module comment). Not during a turn. */
export function shedIdle(state: SessionState): void {
  if (state.turn.busy || state.disposed) return;
  forgetReads(state.container.host);
  forgetSynced(state);
  state.runs.scope = undefined;
}
