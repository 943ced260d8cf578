/**
 * The host node model: plain objects and free functions, in the manner of ink's `dom.ts`.
 * The reconciler mutates these nodes; the serializer walks them. Every mutation marks the
 * node and its ancestors dirty so the serializer can reuse what did not change.
 */

/** Host element type names. Prefixed so they never collide with DOM or SVG intrinsic elements. */
export type HostType =
  | 'skilltree-agent'
  | 'skilltree-skill'
  | 'skilltree-instructions'
  | 'skilltree-text'
  | 'skilltree-tool';

export interface HostElement {
  kind: 'element';
  type: HostType;
  props: Record<string, any>;
  children: HostChild[];
  parent: HostParent | null;
  /** Name of the nearest user component above this element, for error messages and the playground. */
  owner: string;
  /** Hidden by a Suspense boundary showing its fallback. */
  hidden: boolean;
  /** Something in this subtree changed since the serializer last read it. */
  dirty: boolean;
  /** Serializer cache: whatever it computed for this subtree when it was last clean. */
  cache: unknown;
  /** A skill's index in the catalog of the last snapshot (set by the serializer; see tree-update.ts). */
  slot?: number;
}

export interface HostTextNode {
  kind: 'text';
  value: string;
  parent: HostParent | null;
  hidden: boolean;
}

/** The container: the root of the host tree. */
export interface HostRoot {
  kind: 'root';
  children: HostChild[];
  dirty: boolean;
  cache: unknown;
  /**
   * The children of the root's child (the agent's) that changes went through since the serializer
   * last read the tree, or true when a change reached the root or the agent itself (its props, its
   * list of children): then the serializer reads the whole tree again. See `markDirty`.
   */
  touched: Set<HostChild> | true;
}

export type HostChild = HostElement | HostTextNode;
export type HostParent = HostElement | HostRoot;

export function createRoot(): HostRoot {
  return { kind: 'root', children: [], dirty: true, cache: undefined, touched: true };
}

/**
 * The children of an element that has none yet (most: every tool): one frozen array shared by all,
 * replaced by an array of the element's own when a child is added (`appendChild`, `insertBefore`).
 */
const NO_CHILDREN: HostChild[] = Object.freeze([]) as unknown as HostChild[];

export function createElement(type: HostType, props: Record<string, any>, owner: string): HostElement {
  return {
    kind: 'element',
    type,
    props,
    children: NO_CHILDREN,
    parent: null,
    owner,
    hidden: false,
    dirty: true,
    cache: undefined,
  };
}

export function createTextNode(value: string): HostTextNode {
  return { kind: 'text', value, parent: null, hidden: false };
}

/**
 * Marks `node` and every ancestor dirty. Always walks to the root (trees are shallow): the
 * serializer does not visit hidden subtrees, so an ancestor's flag says nothing about the root's.
 */
export function markDirty(node: HostChild | HostParent | null): void {
  let current: HostChild | HostParent | null = node;
  // The last two nodes below the one reached: at the root, the agent and the agent's child.
  let below: HostChild | null = null;
  let second: HostChild | null = null;
  while (current) {
    if (current.kind === 'root') {
      current.dirty = true;
      touch(current, second);
      return;
    }
    if (current.kind !== 'text') current.dirty = true;
    second = below;
    below = current;
    current = current.parent;
  }
}

/**
 * Notes which of the agent's children a change went through, so the serializer reads those again
 * and not every skill of the catalog (tree-update.ts). A change at the agent or the root: all.
 */
function touch(root: HostRoot, second: HostChild | null): void {
  if (root.touched === true) return;
  if (second === null) root.touched = true;
  else root.touched.add(second);
}

export function appendChild(parent: HostParent, child: HostChild): void {
  if (child.parent) removeChild(child.parent, child);
  child.parent = parent;
  if (parent.children === NO_CHILDREN) parent.children = [child];
  else parent.children.push(child);
  markDirty(parent);
}

export function insertBefore(parent: HostParent, child: HostChild, before: HostChild): void {
  if (child.parent) removeChild(child.parent, child);
  child.parent = parent;
  if (parent.children === NO_CHILDREN) parent.children = [];
  const index = parent.children.indexOf(before);
  if (index === -1) parent.children.push(child);
  else parent.children.splice(index, 0, child);
  markDirty(parent);
}

export function removeChild(parent: HostParent, child: HostChild): void {
  const index = parent.children.indexOf(child);
  if (index !== -1) parent.children.splice(index, 1);
  child.parent = null;
  markDirty(parent);
}

/** The concatenated text of a subtree, skipping hidden nodes. */
export function textContent(node: HostChild): string {
  if (node.hidden) return '';
  if (node.kind === 'text') return node.value;
  let out = '';
  for (const child of node.children) out += textContent(child);
  return out;
}
