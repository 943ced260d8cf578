/**
 * Rendering a session's element: render, commit sync work, unmount; an error the agent throws
 * while rendering marks the session crashed.
 */
import { createElement, type ReactNode, StrictMode, Suspense } from 'react';
import { Suspended } from '../host/components.js';
import { reconciler, renderSync } from '../host/reconciler.js';
import { RuntimeContext } from '../host/runtime.js';
import type { SessionState } from './state.js';

/** Renders the session's element now. Throws (and marks the session crashed) when the agent throws. */
export function render(state: SessionState): void {
  state.crashed = null;
  // The agent's own Suspense boundary: while it shows its fallback, no request is built.
  let tree: ReactNode = createElement(
    RuntimeContext.Provider,
    { value: state.runtime },
    createElement(
      Suspense,
      { fallback: createElement(Suspended, { name: null, runtime: state.runtime }) },
      state.element,
    ),
  );
  if (state.options.strictMode) tree = createElement(StrictMode, null, tree);
  renderSync(state.container, tree);
  checkCrash(state);
}

/** Commits sync work (store updates, setters called from outside React). */
export function flush(state: SessionState): void {
  reconciler.flushSyncWork();
  checkCrash(state);
}

/** After an uncaught render error React has unmounted the tree: remember why, and throw it. */
function checkCrash(state: SessionState): void {
  if (state.uncaught.length === 0) return;
  const error = state.uncaught[0];
  state.uncaught.length = 0;
  state.crashed = error instanceof Error ? error : new Error(String(error));
  throw state.crashed;
}

/** Unmounts the tree. */
export function unmount(state: SessionState): void {
  renderSync(state.container, null);
}
