/**
 * Each store creates its schema on first use, records its version, migrates once when several
 * processes start together, and refuses a database written by a newer version of the package.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { SCHEMA_VERSION } from '../src/common.js';
import { postgresStore } from '../src/postgres.js';
import { redisStore } from '../src/redis.js';
import { sqliteStore } from '../src/sqlite.js';
import { runPrefix, server } from './servers.js';

const dir = mkdtempSync(join(tmpdir(), 'skilltree-schema-'));

describe('sqliteStore schema', () => {
  test('is created on first use with its version, and opening again keeps the data', async () => {
    const path = join(dir, 'nested', 'folder', 'first.db');
    const first = sqliteStore({ path });
    await first.acquire('s', 'h', 1_000);
    await first.commit('s', {
      holder: 'h',
      version: 0,
      append: [],
      state: { loadedSkills: [], stores: {} },
      leaseTtl: 1,
    });
    await first.close();
    const db = new Database(path);
    expect(db.prepare("SELECT value FROM skilltree_meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    const again = sqliteStore({ path });
    expect(await again.record('s')).toMatchObject({ version: 1 });
    await again.close();
  });

  test('a database from a newer version is refused with a clear error', () => {
    const path = join(dir, 'newer.db');
    sqliteStore({ path }).close();
    const db = new Database(path);
    db.prepare("UPDATE skilltree_meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    expect(() => sqliteStore({ path })).toThrow(/schema version 99.*Upgrade @skilltree\/store/);
  });

  test('a database you opened stays open after close(); prefixes keep stores apart', async () => {
    const db = new Database(join(dir, 'shared.db'));
    const one = sqliteStore({ database: db, prefix: 'one_' });
    const two = sqliteStore({ database: db, prefix: 'two_' });
    await one.acquire('s', 'h', 1_000);
    await one.commit('s', {
      holder: 'h',
      version: 0,
      append: [],
      state: { loadedSkills: [], stores: {} },
      leaseTtl: 1,
    });
    expect(await two.record('s')).toBeNull();
    await one.close();
    await two.close();
    expect(db.open).toBe(true);
    db.close();
    expect(() => sqliteStore({ path: join(dir, 'x.db'), prefix: 'bad prefix;' })).toThrow(/Invalid prefix/);
  });
});

describe('postgresStore schema', () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });
  const pool = () => {
    const p = new pg.Pool({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), max: 2 });
    pools.push(p);
    return p;
  };

  test('five processes starting together migrate once; the version is recorded', async () => {
    const prefix = runPrefix('schema');
    const stores = Array.from({ length: 5 }, () =>
      postgresStore({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), prefix, max: 2 }),
    );
    await Promise.all(stores.map((store) => store.record('x')));
    const { rows } = await pool().query(`SELECT value FROM ${prefix}meta WHERE key = 'schema_version'`);
    expect(rows).toEqual([{ value: String(SCHEMA_VERSION) }]);
    for (const store of stores) await store.close();
  });

  test('a database from a newer version is refused with a clear error', async () => {
    const prefix = runPrefix('newer');
    const store = postgresStore({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), prefix });
    await store.record('x');
    await store.close();
    await pool().query(`UPDATE ${prefix}meta SET value = '99' WHERE key = 'schema_version'`);
    const later = postgresStore({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), prefix });
    await expect(later.record('x')).rejects.toThrow(/schema version 99/);
    await later.close();
  });

  test('a pool you pass in is never closed by the store', async () => {
    const mine = pool();
    const store = postgresStore({ pool: mine, prefix: runPrefix('pool') });
    await store.record('x');
    await store.close();
    expect((await mine.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});

describe('redisStore schema', () => {
  test('the version key is written on first use; a newer one is refused; a client you pass stays connected', async () => {
    const client = new Redis(server('SKILLTREE_TEST_REDIS_URL'));
    try {
      const prefix = `${runPrefix('schema')}:`;
      const store = redisStore({ client, prefix });
      await store.record('x');
      expect(await client.get(`${prefix}schema`)).toBe(String(SCHEMA_VERSION));
      await store.close();
      expect(await client.ping()).toBe('PONG');
      await client.set(`${prefix}schema`, '99');
      await expect(redisStore({ client, prefix }).record('x')).rejects.toThrow(/schema version 99/);
    } finally {
      client.disconnect();
    }
  });
});
