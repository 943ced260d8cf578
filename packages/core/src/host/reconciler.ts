/**
 * The one reconciler instance, and the root container each session renders into: how a tree is
 * rendered, flushed, settled and torn down.
 */
// First: refuses an unsupported react before react-reconciler touches its internals.
import './react-version.js';
import type { ReactNode } from 'react';
import createReconciler from 'react-reconciler';
import { ConcurrentRoot } from 'react-reconciler/constants.js';
import { hostConfig } from './host-config.js';
import { createRoot, type HostRoot } from './node.js';

export const reconciler = createReconciler(hostConfig);

type FiberRoot = ReturnType<typeof reconciler.createContainer>;

/** A rendered tree: the host root the serializer reads and the fiber root React updates. */
export interface Container {
  host: HostRoot;
  fiberRoot: FiberRoot;
}

/** One function for the callbacks every container ignores, not one closure per chat. */
function ignore(): void {}

export function createContainer(onUncaughtError: (error: unknown) => void, idPrefix: string): Container {
  const host = createRoot();
  const fiberRoot = reconciler.createContainer(
    host,
    ConcurrentRoot,
    null, // hydration callbacks
    false, // isStrictMode: <StrictMode> is added as an element when asked for
    null, // concurrentUpdatesByDefaultOverride
    idPrefix,
    onUncaughtError,
    ignore, // caught errors are reported by the skill's own boundary
    ignore, // recoverable errors: React retried and succeeded
    ignore, // default transition indicator
    null, // transition callbacks (declared by the 0.34.1 types; the runtime takes ten arguments)
  );
  return { host, fiberRoot };
}

/** Renders `element` and commits it now (sync lane). */
export function renderSync(container: Container, element: ReactNode): void {
  reconciler.updateContainerSync(element, container.fiberRoot, null, null);
  reconciler.flushSyncWork();
}

interface RootLanes {
  pendingLanes: number;
  suspendedLanes: number;
  pingedLanes: number;
}

/**
 * Lanes with work React can do now: pending lanes that are not suspended, and suspended lanes whose
 * data arrived (pinged). Lanes suspended on data that has not arrived wait for it.
 */
export function hasReadyWork(container: Container): boolean {
  const root = container.fiberRoot as unknown as RootLanes;
  return (root.pendingLanes & (~root.suspendedLanes | root.pingedLanes)) !== 0;
}

interface FiberLike {
  type: unknown;
  lanes: number;
  child: FiberLike | null;
  sibling: FiberLike | null;
  alternate: FiberLike | null;
  memoizedProps: Record<string, unknown> | null;
}

/** A component that has an update scheduled, and the skill it renders in (by the skill boundary's `name`). */
export interface BusyComponent {
  component: string;
  skill: string | null;
}

/**
 * The components with updates scheduled right now: read off the fibers' own lanes (internal but
 * long-stable fields), to name the culprit of an update loop. `skillOf` tells which fiber types
 * open a skill's subtree.
 */
export function busyComponents(container: Container, skillOf: (type: unknown) => boolean): BusyComponent[] {
  const out: BusyComponent[] = [];
  const current = (container.fiberRoot as unknown as { current: FiberLike }).current;
  const visit = (fiber: FiberLike | null, skill: string | null) => {
    for (let node = fiber; node; node = node.sibling) {
      const inSkill = skillOf(node.type) ? String(node.memoizedProps?.name ?? '') : skill;
      const lanes = node.lanes | (node.alternate?.lanes ?? 0);
      const type = node.type;
      if (lanes !== 0 && typeof type === 'function') {
        const named = type as { displayName?: string; name?: string };
        out.push({ component: named.displayName || named.name || 'Anonymous', skill: inSkill });
      }
      visit(node.child, inSkill);
    }
  };
  visit(current.child, null);
  return out;
}
