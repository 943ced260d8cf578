/**
 * The loaded-skill order: least recently read first, the active skill last.
 */

/** The order after reading `name`, and the skills that the read pushed out (oldest first). */
export function touch(order: readonly string[], name: string, max: number): { order: string[]; evicted: string[] } {
  const next = order.filter((n) => n !== name);
  next.push(name);
  const overflow = Math.max(0, next.length - Math.max(1, max));
  return { order: next.slice(overflow), evicted: next.slice(0, overflow) };
}
