import type { ReactNode } from 'react';
import { createContainer, renderSync } from '../src/host/reconciler.js';
import { type Runtime, RuntimeContext } from '../src/host/runtime.js';
import { readTree } from '../src/host/serialize.js';

/**
 * Mounts a host tree with no session behind it, for tests of the reconciler and of `readTree`
 * alone: the skills named in `loaded` render as loaded, every other one as unloaded, and a render
 * error is thrown at once. `idPrefix` keeps the ids of two trees in one test apart.
 */
export function mountTree(loaded: readonly string[] = [], idPrefix = 't-') {
  const container = createContainer((error) => {
    throw error;
  }, idPrefix);
  const runtime: Runtime = {
    session: {} as Runtime['session'],
    chat: null,
    subscribeSkills: () => () => {},
    skillState: (name) => (loaded.includes(name) ? 'loaded' : 'unloaded'),
    reportSkillError: () => {},
    reportSuspended: () => {},
  };
  const render = (element: ReactNode) =>
    renderSync(container, <RuntimeContext.Provider value={runtime}>{element}</RuntimeContext.Provider>);
  return { render, read: () => readTree(container.host), host: container.host };
}
