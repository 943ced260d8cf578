/** openStore(spec) picks the backend a spec names and imports only that one. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@skilltree/store';
import { describe, expect, test } from 'vitest';
import { server } from './servers.js';

describe('openStore', () => {
  test('sqlite:<file> (relative to cwd), a .db path, postgres:// and redis:// open their backend', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'skilltree-open-'));
    const sqlite = await openStore('sqlite:./data/s.db', { cwd });
    expect(sqlite.name).toBe(`sqlite:${join(cwd, 'data', 's.db')}`);
    await sqlite.close();
    const bare = await openStore('other.db', { cwd });
    expect(bare.name).toBe(`sqlite:${join(cwd, 'other.db')}`);
    await bare.close();
    const postgres = await openStore(server('SKILLTREE_TEST_POSTGRES_URL'));
    expect(postgres.name).toMatch(/^postgres:postgres:\/\//);
    expect(await postgres.record('nothing')).toBeNull();
    await postgres.close();
    const redis = await openStore(server('SKILLTREE_TEST_REDIS_URL'));
    expect(redis.name).toMatch(/^redis:redis:\/\//);
    expect(await redis.record('nothing')).toBeNull();
    await redis.close();
    expect((await openStore('memory')).name).toBe('memory');
  });

  test('an unknown spec names the ones it takes', async () => {
    await expect(openStore('mysql://x')).rejects.toThrow(/Unknown store "mysql:\/\/x": use sqlite:<file>/);
  });

  test('a password in a URL does not show in the store name', async () => {
    const store = await openStore('postgres://user:secret@127.0.0.1:1/db');
    expect(store.name).toBe('postgres:postgres://user:***@127.0.0.1:1/db');
    await store.close();
  });
});
