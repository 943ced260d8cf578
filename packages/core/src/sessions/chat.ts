/**
 * A chat as one request of `createSessions` names it, resolved once: the id the caller used, the
 * owner (checked), the store key, and the record found there. A turn, history paging and delete all
 * start from this value, and {@link ownedBy} is the one owner check they share: a record of another
 * owner is the same "not found" as a never-used id.
 */

import { chatKey, checkOwner } from './key.js';
import type { SessionRecord, SessionStore } from './session-store.js';

/** A chat of one request: who asks, for what, and where it lives. */
export interface ResolvedChat {
  /** The id as the caller named it (errors, `useChatInfo()`, spans): never the store key. */
  readonly id: string;
  /** The owner, checked (see `checkOwner`); undefined for an unowned chat. */
  readonly owner: string | undefined;
  /** Where the chat lives in the store. */
  readonly key: string;
  /** The record as found when the request began, when the owner may see it; null for a chat not started (or not theirs). */
  readonly record: SessionRecord | null;
}

/**
 * The owner check: whether `record` belongs to `owner`. With an owner only their chats, without one
 * only unowned chats.
 */
export function ownedBy(record: SessionRecord, owner: string | undefined): boolean {
  return record.owner === (owner ?? null);
}

/**
 * Resolves chat `id` of `owner` (unchecked input: it is checked here, and an ill-formed owner
 * throws). A chat this owner created before chats were namespaced by owner is kept under its bare
 * id, and stays theirs. A record another owner holds is left out (`record: null`).
 */
export async function resolveChat(store: SessionStore, id: string, owner: unknown): Promise<ResolvedChat> {
  const checked = checkOwner(owner);
  const key = await chatKey(id, checked);
  const record = await store.record(key);
  if (record || key === id)
    return { id, owner: checked, key, record: record && ownedBy(record, checked) ? record : null };
  const legacy = await store.record(id);
  return legacy && ownedBy(legacy, checked)
    ? { id, owner: checked, key: id, record: legacy }
    : { id, owner: checked, key, record: null };
}
