/**
 * What a mounted session costs in this process's heap, estimated cheaply enough to run after every
 * turn: the session cache evicts by it (`createSessions`' `cache.maxBytes`). Measuring the heap per
 * chat is not possible from inside a process, so the estimate counts what the bytes follow: host
 * elements and text nodes (each stands for one or two React fibers, their props and the
 * serializer's entries) and the characters of the transcript the session keeps (its window). The
 * constants are calibrated by `packages/core/bench/memory.mjs` (React's production build, a chat
 * whose skills re-rendered, so React keeps both fibers of each node); docs/serving.md has the table.
 * `estimateSessionBytes` (sessions/chat-session) is the public face.
 */
import type { HostChild } from '../host/node.js';
import { transcriptOf } from './reads.js';
import type { SessionState } from './state.js';

/** A mounted session's own cost, whatever it renders: its state, React's root, its maps. */
export const SESSION_BASE_BYTES = 12 * 1024;
/** Per host element or text node: its fibers (React keeps two once it re-rendered), props, closures. */
export const BYTES_PER_HOST_NODE = 1_350;
/** Per character of a kept message as JSON: the message's objects and strings. */
export const BYTES_PER_TRANSCRIPT_CHAR = 2.5;

function countNodes(children: readonly HostChild[]): number {
  let n = children.length;
  for (const child of children) if (child.kind === 'element') n += countNodes(child.children);
  return n;
}

/** About how many bytes of heap the session of `state` holds while mounted and idle (see `estimateSessionBytes`). */
export function estimateStateBytes(state: SessionState): number {
  let chars = 0;
  for (const message of transcriptOf(state).messages) chars += JSON.stringify(message)?.length ?? 0;
  return (
    SESSION_BASE_BYTES +
    countNodes(state.container.host.children) * BYTES_PER_HOST_NODE +
    chars * BYTES_PER_TRANSCRIPT_CHAR
  );
}
