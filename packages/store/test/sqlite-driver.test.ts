/**
 * The SQLite store runs on Node's built-in node:sqlite where Node has it and on better-sqlite3
 * elsewhere; the store's types name neither driver (nor pg, nor ioredis), so a project type-checks
 * without their type packages.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Cluster, Redis } from 'ioredis';
import type pg from 'pg';
import { describe, expect, expectTypeOf, test, vi } from 'vitest';
import type { PostgresPool } from '../src/postgres.js';
import type { RedisClient } from '../src/redis.js';
import { sqliteStore } from '../src/sqlite.js';
import {
  adoptSqlite,
  builtinSqlite,
  defaultSqliteDriver,
  loadBetterSqlite3,
  type SqliteConnection,
} from '../src/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'skilltree-sqlite-driver-'));

/** Node versions with node:sqlite importable without a flag: 22.13+, 23.4+, 24 and later. */
function nodeHasSqlite(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
}

/** A better-sqlite3 database showing only what node:sqlite's DatabaseSync has: the adapter's input. */
function bareConnection(path: string): SqliteConnection & { location(): string } {
  const db = new Database(path);
  return {
    exec: (sql: string) => db.exec(sql),
    prepare: (sql: string) => db.prepare(sql),
    close: () => db.close(),
    location: () => path,
  };
}

describe('the driver', () => {
  test('auto picks node:sqlite on Node 22.13+, 23.4+ and 24+, and better-sqlite3 before', () => {
    expect(defaultSqliteDriver()).toBe(nodeHasSqlite(process.versions.node) ? 'node:sqlite' : 'better-sqlite3');
    expect(builtinSqlite() !== null).toBe(nodeHasSqlite(process.versions.node));
  });

  test("node:sqlite's ExperimentalWarning (Node 22) is held back while it loads; other warnings pass", async () => {
    const seen: string[] = [];
    const listen = (warning: Error) => seen.push(warning.message);
    process.on('warning', listen);
    const load = vi.spyOn(process, 'getBuiltinModule').mockImplementation((() => {
      process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
      process.emitWarning('something else', 'ExperimentalWarning');
      return { DatabaseSync: class {} };
    }) as typeof process.getBuiltinModule);
    try {
      expect(builtinSqlite()).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen).toEqual(['something else']);
      process.emitWarning('SQLite is an experimental feature, said later');
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen).toEqual(['something else', 'SQLite is an experimental feature, said later']);
    } finally {
      load.mockRestore();
      process.off('warning', listen);
    }
  });

  test('a missing better-sqlite3 is a one-line error that names what to install', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadBetterSqlite3(missing)).toThrow(/^The SQLite session store needs better-sqlite3 on Node/);
    expect(() => loadBetterSqlite3(missing)).toThrow(/npm install better-sqlite3@12$/);
    try {
      loadBetterSqlite3(missing);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  test('a better-sqlite3 that fails to load for another reason (a wrong ABI) keeps its own error', () => {
    const broken = () => {
      throw new Error('The module was compiled against a different Node.js version');
    };
    expect(() => loadBetterSqlite3(broken)).toThrow(/different Node\.js version/);
  });

  test('driver "node:sqlite" opens with the built-in SQLite, or says to use better-sqlite3 where Node has none', async () => {
    const open = () => sqliteStore({ path: join(dir, 'builtin.db'), driver: 'node:sqlite' });
    if (builtinSqlite()) {
      const store = open();
      expect(await store.record('none')).toBeNull();
      await store.close();
    } else {
      expect(open).toThrow(/driver "node:sqlite" is not available on Node .*use driver "better-sqlite3"/);
    }
  });
});

describe('the node:sqlite adapter (over any connection with exec, prepare and close)', () => {
  test('a transaction that throws leaves nothing behind; a nested one rolls back to its savepoint only', () => {
    const db = adoptSqlite(bareConnection(join(dir, 'tx.db')));
    db.exec('CREATE TABLE t (v INTEGER)');
    const insert = db.prepare<[number]>('INSERT INTO t (v) VALUES (?)');
    const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM t');

    expect(() =>
      db
        .transaction(() => {
          insert.run(1);
          throw new Error('boom');
        })
        .immediate(),
    ).toThrow('boom');
    expect(count.get()?.n).toBe(0);

    const inner = db.transaction(() => {
      insert.run(2);
      throw new Error('inner');
    });
    db.transaction(() => {
      insert.run(3);
      expect(() => inner()).toThrow('inner');
    })();
    expect(db.prepare<[], { v: number }>('SELECT v FROM t').all()).toEqual([{ v: 3 }]);
    expect(insert.run(4).changes).toBe(1);
    db.close();
  });

  test('a store on the adapter keeps sessions across reopening, and names its file', async () => {
    const path = join(dir, 'adapted.db');
    const first = sqliteStore({ database: bareConnection(path) });
    expect(first.name).toBe(`sqlite:${path}`);
    await first.acquire('s', 'h', 60_000);
    await first.commit('s', {
      holder: 'h',
      version: 0,
      epoch: 'e',
      append: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      state: { loadedSkills: [], stores: {} },
      leaseTtl: 1,
    });
    const second = sqliteStore({ path, driver: 'better-sqlite3' });
    expect(await second.messages('s', 0, 10)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    await first.close();
    await second.close();
  });
});

test("the options take the drivers' own objects, typed by shape (checked by tsc)", () => {
  expectTypeOf<pg.Pool>().toExtend<PostgresPool>();
  expectTypeOf<Redis>().toExtend<RedisClient>();
  expectTypeOf<Cluster>().toExtend<RedisClient>();
  expectTypeOf<Database.Database>().toExtend<SqliteConnection>();
  const db = new Database(':memory:');
  expect(adoptSqlite(db)).toBe(db);
  db.close();
});
