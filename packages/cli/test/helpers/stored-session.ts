/**
 * Reads a session the CLI saved (`--session`, `--store sqlite:<file>`) straight from the SQLite file.
 */
import type { Message, SessionRecord } from '@skilltree/core/provider';
import { sqliteStore } from '@skilltree/store/sqlite';

/** The session's record and its whole transcript. */
export async function storedSession(
  file: string,
  id: string,
): Promise<{ record: SessionRecord | null; messages: Message[] }> {
  const store = sqliteStore({ path: file });
  try {
    return { record: await store.record(id), messages: await store.messages(id, 0, 10_000) };
  } finally {
    await store.close();
  }
}
