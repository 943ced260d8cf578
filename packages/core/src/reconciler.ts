/**
 * The one reconciler instance, and the root container each session renders into.
 */
import createReconciler from 'react-reconciler';
import { ConcurrentRoot } from 'react-reconciler/constants.js';
import { createRoot, type HostRoot } from './host.js';
import { hostConfig } from './host-config.js';

// The host config is typed loosely on purpose: @types/react-reconciler declares every optional
// method as required, while the runtime only calls what the enabled features need.
export const reconciler = createReconciler(hostConfig as any);

/** A rendered tree: the host root the serializer reads and the fiber root React updates. */
export interface Container {
  host: HostRoot;
  fiberRoot: ReturnType<typeof reconciler.createContainer>;
}

export interface ContainerErrors {
  onUncaughtError(error: unknown): void;
}

export function createContainer(errors: ContainerErrors, idPrefix: string): Container {
  const host = createRoot();
  const createRoot_ = reconciler.createContainer as unknown as (...args: unknown[]) => Container['fiberRoot'];
  const fiberRoot = createRoot_(
    host,
    ConcurrentRoot,
    null, // hydration callbacks
    false, // isStrictMode: <StrictMode> is added as an element when asked for
    null, // concurrentUpdatesByDefaultOverride
    idPrefix,
    (error: unknown) => errors.onUncaughtError(error),
    () => {}, // caught errors are reported by the skill's own boundary
    () => {}, // recoverable errors: React retried and succeeded
    () => {}, // default transition indicator
    null, // transition callbacks
  );
  return { host, fiberRoot };
}

/** Lanes with work that can proceed now (suspended lanes wait for their data instead). */
export function hasPendingWork(container: Container): boolean {
  const root = container.fiberRoot as unknown as { pendingLanes: number; suspendedLanes: number };
  return (root.pendingLanes & ~root.suspendedLanes) !== 0;
}
