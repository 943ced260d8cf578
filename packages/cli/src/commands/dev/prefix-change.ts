/**
 * Where a request stopped being the previous request plus what was appended. A model with
 * `appendOnly` binds its reasoning (or its cache) to the exact prefix: a change there is refused
 * (Anthropic's preserved thinking) or drops the reasoning after it (OpenAI's newest models), so the
 * playground flags the first path that differs, e.g. `items.3.content.0`. For a classic request the
 * same comparison says where a provider's prompt cache stops matching.
 */
import type { Message, ModelRequest, ToolSpec } from '@skilltree/core/provider';
import type { PrefixChange } from './protocol.js';

/** The fields of a request a provider reads as its prefix, in the order it caches them. */
export interface RequestPrefix {
  /** Whether these are the fields of an append-only request (`request.appendOnly`). */
  appendOnly: boolean;
  tools: ToolSpec[];
  system: string;
  /** `items` (append-only) or `messages` (classic, with the context placed): the list that may only grow. */
  list: unknown[];
}

/** `placeContext` from the session's own core (passed in so that one core instance is used). */
export type PlaceContext = (req: ModelRequest) => { system: string; messages: Message[] };

/** The prefix fields of `request`: its append-only fields, else its classic ones with the context placed. */
export function requestPrefix(request: ModelRequest, place: PlaceContext): RequestPrefix {
  if (request.appendOnly) {
    const { tools, system, items } = request.appendOnly;
    return { appendOnly: true, tools, system, list: items };
  }
  const placed = place(request);
  return { appendOnly: false, tools: request.tools, system: placed.system, list: placed.messages };
}

/** `value` as JSON data (what a provider receives): undefined fields gone, prototypes dropped. */
const data = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/**
 * The first path at which `after` differs from `before` (`''` for the values themselves), or null
 * when they are equal. Arrays are compared element by element, objects key by key; an element or
 * key that one has and the other lacks is a difference at its path. With `grows`, `after` may be
 * longer than `before` at the top (appended elements are no change).
 *
 * @example
 * firstDifference([{ a: 1 }], [{ a: 2 }], 'items'); // 'items.0.a'
 * firstDifference([1], [1, 2], 'items', true); // null
 */
export function firstDifference(before: unknown, after: unknown, path: string, grows = false): string | null {
  const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < before.length; i++) {
      if (i >= after.length) return at(i);
      const diff = firstDifference(before[i], after[i], at(i));
      if (diff !== null) return diff;
    }
    return after.length > before.length && !grows ? at(before.length) : null;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) {
      if (!(key in after)) return at(key);
      const diff = firstDifference(before[key], after[key], at(key));
      if (diff !== null) return diff;
    }
    for (const key of Object.keys(after)) if (!(key in before)) return at(key);
    return null;
  }
  return Object.is(before, after) ? null : path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Where `next` stopped being `previous` plus appended items: the first differing path among
 * `tools`, `system` and `items` (append-only) or `messages` (classic), or null when `next` only
 * appended. Two requests of different layouts are not compared (null).
 *
 * @example
 * prefixChange(first, second); // { path: 'items.3.content.0', appendOnly: true }
 */
export function prefixChange(previous: RequestPrefix, next: RequestPrefix): PrefixChange | null {
  if (previous.appendOnly !== next.appendOnly) return null;
  const list = next.appendOnly ? 'items' : 'messages';
  const path =
    firstDifference(data(previous.tools), data(next.tools), 'tools') ??
    firstDifference(previous.system, next.system, 'system') ??
    firstDifference(data(previous.list), data(next.list), list, true);
  return path === null ? null : { path, appendOnly: next.appendOnly };
}
