/**
 * Letting go of what the serializer remembers about a tree (`node.cache` on every host element and
 * on the root): the entries, lines, checks and the last snapshot it reuses while nothing changed.
 * A chat kept mounted between turns does not need them while it waits; the next read makes them
 * again from the host nodes, the same in content (tool specs come back as the same shared objects,
 * see `sessions/intern-spec.ts`), for a few microseconds per node once per turn. The same walk gives
 * each children array its exact size: an array grown by `push` keeps room for more than it holds.
 */
import type { HostChild, HostRoot } from './node.js';

function forgetChild(node: HostChild): void {
  if (node.kind === 'text') return;
  node.cache = undefined;
  if (node.children.length > 0) node.children = node.children.slice();
  for (const child of node.children) forgetChild(child);
}

/** Drops every serializer cache in the tree under `root` (see the module comment). */
export function forgetReads(root: HostRoot): void {
  root.cache = undefined;
  root.children = root.children.slice();
  for (const child of root.children) forgetChild(child);
}
