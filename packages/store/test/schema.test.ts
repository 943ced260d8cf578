/**
 * Each store creates its schema on first use, records its version, migrates once when several
 * processes start together, and refuses a database written by a newer version of the package.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessions, type Message, type SessionStore, textOf } from '@skilltree/core';
import { ownerKey, periodOf } from '@skilltree/core/provider';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { LEGACY_EPOCH, SCHEMA_VERSION } from '../src/common.js';
import { bumpModel, counterAgent } from '../src/fixture.js';
import { postgresStore } from '../src/postgres.js';
import { redisStore } from '../src/redis.js';
import { sqliteStore } from '../src/sqlite.js';
import { runPrefix, server } from './servers.js';

const dir = mkdtempSync(join(tmpdir(), 'skilltree-schema-'));

/**
 * A chat as schema version 1 stored it (no epoch, and messages from before they had parts: their
 * content a string): one finished turn that bumped the counter.
 */
const V1_MESSAGES = [
  { role: 'user', content: 'first' },
  { role: 'assistant', content: 'done: first' },
];
const V1_STATE = { loadedSkills: [], stores: { tally: { count: 1 } } };

/** A turn on the upgraded chat sees the old one, and keeps its state. */
async function continues(store: SessionStore, id: string) {
  const seen: Message[][] = [];
  const sessions = createSessions(counterAgent(), { store, model: bumpModel((req) => void seen.push(req.messages)) });
  expect((await sessions.send(id, 'second')).text).toBe('done: second');
  // Read upgraded: the model reads the old messages as it did, as parts.
  expect(seen[0].slice(0, 2)).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'first' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'done: first' }] },
  ]);
  expect(seen[0].slice(0, 2).map(textOf)).toEqual(['first', 'done: first']);
  const info = await sessions.get(id);
  expect(info).toMatchObject({ transcriptLength: 8, stores: { tally: { count: 2 } } });
  return sessions;
}

/** The SQLite tables of schema version 1, or of version 3 (sessions with an epoch, and per-owner spend). */
function oldSqliteSchema(version: 1 | 3): string {
  const v3 = version === 3;
  return `
    CREATE TABLE skilltree_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO skilltree_meta VALUES ('schema_version', '${version}');
    CREATE TABLE skilltree_sessions (id TEXT PRIMARY KEY, owner TEXT, version INTEGER NOT NULL,
      length INTEGER NOT NULL, state TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
      ${v3 ? ", epoch TEXT NOT NULL DEFAULT ''" : ''});
    CREATE TABLE skilltree_messages (session_id TEXT NOT NULL, seq INTEGER NOT NULL, role TEXT NOT NULL,
      body TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID;
    CREATE INDEX skilltree_messages_user ON skilltree_messages (session_id, seq) WHERE role = 'user';
    CREATE TABLE skilltree_leases (session_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL);
    ${
      v3
        ? `CREATE TABLE skilltree_spend (owner TEXT NOT NULL, period TEXT NOT NULL, tokens INTEGER NOT NULL,
      dollars REAL NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (owner, period)) WITHOUT ROWID;`
        : ''
    }`;
}

/** The Postgres tables of schema version 1, or of version 3 (sessions with an epoch, and per-owner spend). */
function oldPostgresSchema(prefix: string, version: 1 | 3): string {
  const v3 = version === 3;
  return `
    CREATE TABLE ${prefix}meta (key text PRIMARY KEY, value text NOT NULL);
    INSERT INTO ${prefix}meta VALUES ('schema_version', '${version}');
    CREATE TABLE ${prefix}sessions (id text PRIMARY KEY, owner text, version integer NOT NULL,
      length integer NOT NULL, state json NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
      ${v3 ? ', epoch text NOT NULL' : ''});
    CREATE TABLE ${prefix}messages (session_id text NOT NULL, seq integer NOT NULL, role text NOT NULL,
      body json NOT NULL, PRIMARY KEY (session_id, seq));
    CREATE INDEX ${prefix}messages_user ON ${prefix}messages (session_id, seq) WHERE role = 'user';
    CREATE TABLE ${prefix}leases (session_id text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL);
    ${
      v3
        ? `CREATE TABLE ${prefix}spend (owner text NOT NULL, period text NOT NULL, tokens bigint NOT NULL,
      dollars double precision NOT NULL, expires_at timestamptz NOT NULL, PRIMARY KEY (owner, period));`
        : ''
    }`;
}

/** Schema 3 kept an owner's spend under the owner itself; schema 4 under the owner's key. */
const SPENDER = 'alice "the spender" 🦊';

/** After the upgrade, the owner's spend of the period is where createSessions reads it: the owner is still held to it. */
async function spendCarriedOver(store: SessionStore) {
  const period = periodOf('day');
  expect(await store.spent(await ownerKey(SPENDER), period.key)).toEqual({ tokens: 5_000, dollars: 1.5 });
  const sessions = createSessions(counterAgent(), {
    store,
    model: bumpModel(),
    budget: { perOwner: { tokens: 5_000, period: 'day' } },
  });
  await expect(sessions.send('after-upgrade', 'say hi', { owner: SPENDER })).rejects.toMatchObject({
    name: 'BudgetExceededError',
    scope: 'owner',
    spent: 5_000,
  });
  return sessions;
}

/** Writes chat `id` to `store`, empty, as a first turn's commit would. */
async function writeChat(store: SessionStore, id: string) {
  await store.acquire(id, 'h', 60_000);
  await store.commit(id, {
    holder: 'h',
    version: 0,
    epoch: 'e',
    append: [],
    state: { loadedSkills: [], stores: {} },
    leaseTtl: 1,
  });
}

describe('sqliteStore schema', () => {
  test('is created on first use with its version, and opening again keeps the data', async () => {
    const path = join(dir, 'nested', 'folder', 'first.db');
    const first = sqliteStore({ path });
    await writeChat(first, 's');
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

  test('a version 1 database is upgraded in place: its chats get an epoch, their messages from before messages had parts are read upgraded, and they go on', async () => {
    const path = join(dir, 'v1.db');
    const db = new Database(path);
    db.exec(oldSqliteSchema(1));
    db.prepare('INSERT INTO skilltree_sessions VALUES (?, NULL, 3, 2, ?, 1, 1)').run('old', JSON.stringify(V1_STATE));
    const insert = db.prepare('INSERT INTO skilltree_messages VALUES (?, ?, ?, ?)');
    for (const [i, m] of V1_MESSAGES.entries()) insert.run('old', i, m.role, JSON.stringify(m));
    db.close();
    const store = sqliteStore({ path });
    const record = await store.record('old');
    expect(record).toMatchObject({ version: 3, length: 2 });
    expect(record?.epoch).toMatch(/^[0-9a-f]{32}$/);
    const sessions = await continues(store, 'old');
    expect((await store.record('old'))?.epoch).toBe(record?.epoch);
    await sessions.close();
  });

  test("a version 3 database's per-owner spend is moved to the owner's key: the owner is still held to it", async () => {
    const path = join(dir, 'v3.db');
    const db = new Database(path);
    db.exec(oldSqliteSchema(3));
    const period = periodOf('day');
    db.prepare('INSERT INTO skilltree_spend VALUES (?, ?, ?, ?, ?)').run(
      SPENDER,
      period.key,
      5_000,
      1.5,
      period.resetsAt,
    );
    db.close();
    const store = sqliteStore({ path });
    const sessions = await spendCarriedOver(store);
    await sessions.close();
    const after = new Database(path);
    expect(after.prepare('SELECT owner FROM skilltree_spend').all()).toEqual([{ owner: await ownerKey(SPENDER) }]);
    expect(after.prepare("SELECT value FROM skilltree_meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    after.close();
  });

  test('a lease taken before version 5 can be asked to stop once the database is upgraded', async () => {
    const path = join(dir, 'v3-lease.db');
    const db = new Database(path);
    db.exec(oldSqliteSchema(3));
    db.prepare('INSERT INTO skilltree_leases VALUES (?, ?, ?)').run('busy', 'old-turn', Date.now() + 600_000);
    db.close();
    const store = sqliteStore({ path });
    expect(await store.stopRequested('busy', 'old-turn')).toBe(false);
    expect(await store.requestStop('busy')).toBe(true);
    expect(await store.stopRequested('busy', 'old-turn')).toBe(true);
    await store.close();
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
    await writeChat(one, 's');
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

  test('a version 1 database is upgraded in place: its chats get an epoch, their messages from before messages had parts are read upgraded, and they go on', async () => {
    const prefix = runPrefix('v1');
    const p = pool();
    await p.query(oldPostgresSchema(prefix, 1));
    await p.query(`INSERT INTO ${prefix}sessions VALUES ('old', NULL, 3, 2, $1, now(), now())`, [
      JSON.stringify(V1_STATE),
    ]);
    for (const [i, m] of V1_MESSAGES.entries()) {
      await p.query(`INSERT INTO ${prefix}messages VALUES ('old', $1, $2, $3)`, [i, m.role, JSON.stringify(m)]);
    }
    const store = postgresStore({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), prefix });
    const record = await store.record('old');
    expect(record).toMatchObject({ version: 3, length: 2 });
    expect(record?.epoch).toMatch(/^[0-9a-f]{32}$/);
    const { rows } = await p.query(`SELECT value FROM ${prefix}meta WHERE key = 'schema_version'`);
    expect(rows).toEqual([{ value: String(SCHEMA_VERSION) }]);
    const sessions = await continues(store, 'old');
    expect((await store.record('old'))?.epoch).toBe(record?.epoch);
    await sessions.close();
  });

  test("a version 3 database's per-owner spend is moved to the owner's key: the owner is still held to it", async () => {
    const prefix = runPrefix('v3');
    const p = pool();
    await p.query(oldPostgresSchema(prefix, 3));
    const period = periodOf('day');
    await p.query(`INSERT INTO ${prefix}spend VALUES ($1, $2, 5000, 1.5, to_timestamp($3 / 1000.0))`, [
      SPENDER,
      period.key,
      period.resetsAt,
    ]);
    const store = postgresStore({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), prefix });
    const sessions = await spendCarriedOver(store);
    await sessions.close();
    const { rows } = await p.query(`SELECT owner FROM ${prefix}spend`);
    expect(rows).toEqual([{ owner: await ownerKey(SPENDER) }]);
  });

  test('a lease taken before version 5 can be asked to stop once the database is upgraded', async () => {
    const prefix = runPrefix('v3lease');
    const p = pool();
    await p.query(oldPostgresSchema(prefix, 3));
    await p.query(`INSERT INTO ${prefix}leases VALUES ('busy', 'old-turn', now() + interval '10 minutes')`);
    const store = postgresStore({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), prefix });
    expect(await store.stopRequested('busy', 'old-turn')).toBe(false);
    expect(await store.requestStop('busy')).toBe(true);
    expect(await store.stopRequested('busy', 'old-turn')).toBe(true);
    await store.close();
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
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  /** A client of the test server, disconnected after the test. */
  const redisClient = () => {
    const client = new Redis(server('SKILLTREE_TEST_REDIS_URL'));
    clients.push(client);
    return client;
  };

  test('version 1 keys are upgraded in place: a chat without an epoch has the legacy one, its messages from before messages had parts are read upgraded, and it goes on', async () => {
    const client = redisClient();
    const prefix = `${runPrefix('v1')}:`;
    await client.set(`${prefix}schema`, '1');
    await client.hset(`${prefix}{old}:s`, {
      version: 3,
      length: 2,
      state: JSON.stringify(V1_STATE),
      created: 1,
      updated: 1,
    });
    await client.rpush(`${prefix}{old}:m`, ...V1_MESSAGES.map((m) => JSON.stringify(m)));
    await client.zadd(`${prefix}{old}:u`, 0, 0);
    const store = redisStore({ url: server('SKILLTREE_TEST_REDIS_URL'), prefix });
    expect(await store.record('old')).toMatchObject({ epoch: LEGACY_EPOCH, version: 3, length: 2 });
    expect(await client.get(`${prefix}schema`)).toBe(String(SCHEMA_VERSION));
    const sessions = await continues(store, 'old');
    // Deleted and created again, the chat is a new incarnation with an epoch of its own.
    await sessions.delete('old');
    await sessions.send('old', 'say again');
    expect((await store.record('old'))?.epoch).not.toBe(LEGACY_EPOCH);
    await sessions.close();
  });

  test("version 3 keys' per-owner spend is moved to the owner's key: the owner is still held to it", async () => {
    const client = redisClient();
    const prefix = `${runPrefix('v3')}:`;
    const exact = (text: string) => Buffer.from(text, 'utf16le').toString('base64url');
    const period = periodOf('day');
    const old = `${prefix}spend:${exact(SPENDER)}:${exact(period.key)}`;
    await client.set(`${prefix}schema`, '3');
    await client.hset(old, { tokens: 5_000, dollars: '1.5' });
    await client.pexpireat(old, period.resetsAt);
    // Two processes start at once: the spend is moved exactly once.
    const stores = [redisStore({ client, prefix }), redisStore({ client, prefix })];
    await Promise.all(stores.map((store) => store.record('x')));
    expect(await client.exists(old)).toBe(0);
    expect(await client.get(`${prefix}schema`)).toBe(String(SCHEMA_VERSION));
    const sessions = await spendCarriedOver(stores[0]);
    await sessions.close();
  });

  test('the version key is written on first use; a newer one is refused; a client you pass stays connected', async () => {
    const client = redisClient();
    const prefix = `${runPrefix('schema')}:`;
    const store = redisStore({ client, prefix });
    await store.record('x');
    expect(await client.get(`${prefix}schema`)).toBe(String(SCHEMA_VERSION));
    await store.close();
    expect(await client.ping()).toBe('PONG');
    await client.set(`${prefix}schema`, '99');
    await expect(redisStore({ client, prefix }).record('x')).rejects.toThrow(/schema version 99/);
  });
});
