/**
 * Tool-call ids the adapters make up when a server leaves one out (small OpenAI-compatible servers
 * do), sends one no provider accepts, or repeats one within a response. Which ids are safe is
 * core's rule (`isSafeToolCallId`), the one the session applies to every model's calls.
 */
import { isSafeToolCallId } from '@skilltree/core/provider';

/**
 * A fresh id such as `call_3f9c0a…`. Random rather than counted: a transcript outlives the process
 * (snapshots, session stores) and the adapter instance, so a counter would hand out `call_0` again
 * after a restart or in another worker, and core needs the ids in a transcript to be unique.
 */
export function freshToolCallId(prefix = 'call'): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/**
 * Hands out the ids of one response's tool calls: the provider's id when it is safe (1–64 letters,
 * digits, `_` or `-`) and this response has not used it yet, else a fresh one.
 */
export function toolCallIds(prefix = 'call'): (id: unknown) => string {
  const seen = new Set<string>();
  return (id) => {
    let out = isSafeToolCallId(id) && !seen.has(id) ? id : freshToolCallId(prefix);
    while (seen.has(out)) out = freshToolCallId(prefix);
    seen.add(out);
    return out;
  };
}
