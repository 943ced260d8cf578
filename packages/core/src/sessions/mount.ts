/**
 * Mounting a session's state: the options checked, the tree rendered and checked for a developer's
 * mistakes, the snapshot applied, and the session's subagents given their runner (SPEC §19).
 */
import type { ReactNode } from 'react';
import { resolveFileLimits } from '../files/limits.js';
import type { SessionHandle } from '../host/runtime.js';
import { checkBudget } from '../observe/budget-options.js';
import { traceUnloads } from '../observe/trace-skills.js';
import { developerProblems } from '../state/config.js';
import { createState, type SessionChat } from '../state/create.js';
import { render, unmount } from '../state/render.js';
import { resetBaseline } from '../state/restore.js';
import type { SessionState } from '../state/state.js';
import { sync } from '../state/sync.js';
import { installRunner } from '../subagents/install.js';
import type { SessionOptions } from '../types/options.js';
import type { SessionSnapshot } from '../types/session.js';
import { applySnapshot } from './snapshot.js';

/** A new session's state, rendered: throws (unmounted) for a mistake in the tree, naming every component involved. */
export function mountState(
  element: ReactNode,
  options: SessionOptions,
  handle: SessionHandle,
  restore?: SessionSnapshot,
  chat?: SessionChat,
  bind?: (state: SessionState) => void,
): SessionState {
  checkBudget(options.budget);
  resolveFileLimits(options.files);
  const state = createState(element, options, handle, restore, chat);
  // The handle reads its state while the tree renders (a store's first use): bound before the render.
  bind?.(state);
  traceUnloads(state);
  render(state);
  const problems = developerProblems(state);
  if (problems.length > 0) {
    unmount(state);
    throw new Error(problems.join('\n'));
  }
  sync(state);
  installRunner(state);
  if (restore) applySnapshot(state, restore);
  else resetBaseline(state);
  return state;
}
