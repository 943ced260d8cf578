/**
 * How deep a tool call's input may nest. A model's output is hostile: arguments nested ten thousand
 * levels deep parse fine but overflow the stack of every later `JSON.stringify` (the store, the next
 * request, the usage estimate). Inputs are checked by an iterative walk, so the check itself cannot
 * overflow, and one that nests too deep is refused before anything serializes it.
 */

/** The most levels of objects and arrays a tool call's input may nest. */
export const MAX_INPUT_DEPTH = 100;

/**
 * What the transcript keeps as the input of a call that nested too deep: text that is not JSON, so
 * the call is answered with an error result naming the tool (and providers send it as `{}` or as
 * this text), while the call itself stays in the transcript beside its result.
 */
export const TOO_DEEP_INPUT = `<arguments nested deeper than ${MAX_INPUT_DEPTH} levels: not kept. Send flatter JSON>`;

/**
 * Whether `value` nests at most `limit` levels of objects and arrays. A cycle never does. Iterative
 * (a walk with its own stack); an object reached again is walked again only when reached deeper than
 * before, so the work is bounded by `limit` times the value's size, shared values included.
 */
export function nestsWithin(value: unknown, limit = MAX_INPUT_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return true;
  /** How deep each object was walked from (deeper is the harder case: shallower passes too). */
  const deepest = new Map<object, number>();
  const onPath = new Set<object>();
  /** An object to walk at a depth, or (`leave`) the end of its walk. */
  const stack: { node: object; depth: number; leave: boolean }[] = [{ node: value, depth: 1, leave: false }];
  while (stack.length > 0) {
    const { node, depth, leave } = stack.pop() as { node: object; depth: number; leave: boolean };
    if (leave) {
      onPath.delete(node);
      continue;
    }
    if (depth > limit || onPath.has(node)) return false;
    if ((deepest.get(node) ?? 0) >= depth) continue;
    deepest.set(node, depth);
    onPath.add(node);
    stack.push({ node, depth, leave: true });
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1, leave: false });
    }
  }
  return true;
}
