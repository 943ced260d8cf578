/**
 * A message body that is not JSON at all (a record edited by hand in SQLite or Redis, which store
 * text) is read as a record that cannot be read: the chat names it and goes on. Postgres keeps
 * bodies as `json`, which cannot hold such text; the conformance suite's `records` topic covers
 * bodies that are JSON but not messages, on every store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessions, type SessionStore, textOf } from '@skilltree/core';
import { unreadableRecord } from '@skilltree/core/provider';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { describe, expect, test } from 'vitest';
import { bumpModel, counterAgent } from '../src/fixture.js';
import { redisStore } from '../src/redis.js';
import { sqliteStore } from '../src/sqlite.js';
import { runPrefix, server } from './servers.js';

/** Chat `id` on `store` reads its broken message 1 as a placeholder, and its next turn runs. */
async function staysUsable(store: SessionStore, id: string): Promise<void> {
  const sessions = createSessions(counterAgent(), { store, model: bumpModel() });
  try {
    const read = await sessions.messages(id);
    expect(read.map((m) => m.role)).toEqual(['user', 'user']);
    expect(unreadableRecord(read[1])).toMatchObject({ chat: id, index: 1 });
    expect(textOf(read[1])).toContain(`Message 1 of chat "${id}" could not be read`);
    expect((await sessions.send(id, 'second')).text).toBe('done: second');
    expect((await sessions.messages(id, { from: 2 })).map(textOf)[0]).toBe('second');
  } finally {
    await sessions.close();
  }
}

describe('a message body that is not JSON', () => {
  test('sqliteStore reads it as an unreadable record, and the chat goes on', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'skilltree-bodies-')), 'chat.db');
    const store = sqliteStore({ path });
    const sessions = createSessions(counterAgent(), { store, model: bumpModel() });
    await sessions.send('c', 'say hi');
    await sessions.close();
    const db = new Database(path);
    db.prepare('UPDATE skilltree_messages SET body = ? WHERE session_id = ? AND seq = 1').run('{"role": "ass', 'c');
    db.close();
    await staysUsable(sqliteStore({ path }), 'c');
  });

  test('redisStore reads it as an unreadable record, and the chat goes on', async () => {
    const url = server('SKILLTREE_TEST_REDIS_URL');
    const prefix = `${runPrefix('bodies')}:`;
    const sessions = createSessions(counterAgent(), { store: redisStore({ url, prefix }), model: bumpModel() });
    await sessions.send('c', 'say hi');
    await sessions.close();
    const client = new Redis(url);
    try {
      await client.lset(`${prefix}{c}:m`, 1, '{"role": "ass');
    } finally {
      client.disconnect();
    }
    await staysUsable(redisStore({ url, prefix }), 'c');
  });
});
