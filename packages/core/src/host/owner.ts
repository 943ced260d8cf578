/**
 * Finds the user component that rendered a host element, for error messages ("rendered by
 * <Shopping>") and the playground's tree panel. Reads the fiber's `return` chain, which is an
 * internal but long-stable part of React; anything unexpected falls back to "Agent".
 */

/** Components of skilltree itself: the owner is the nearest component above these. */
const internal = new WeakSet<object>();

/** Marks a component as part of skilltree so it is skipped when naming owners. */
export function markInternal<T extends object>(component: T): T {
  internal.add(component);
  return component;
}

interface FiberLike {
  type: unknown;
  return: FiberLike | null;
}

/** The display name of the nearest non-skilltree component above `fiber`. */
export function ownerName(fiber: unknown): string {
  let current = (fiber as FiberLike | null)?.return ?? null;
  while (current) {
    const type = current.type as ((...args: never[]) => unknown) & { displayName?: string };
    if (typeof type === 'function' && !internal.has(type)) {
      const name = type.displayName || type.name;
      if (name) return name;
    }
    current = current.return;
  }
  return 'Agent';
}
