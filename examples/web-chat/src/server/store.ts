/**
 * Where the example keeps its chats.
 */
import { memoryStore, type SessionStore } from '@skilltree/core';

/** The store for `path`. */
export async function openStore(path: string): Promise<SessionStore> {
  void path;
  return memoryStore();
}
