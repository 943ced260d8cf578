/**
 * `@skilltree/store/sqlite`: sessions in one SQLite file. The embedded default: no server, several
 * processes on one machine may share the file. Runs on Node's built-in `node:sqlite` (Node 22.13+,
 * 24: nothing to install or compile) and on better-sqlite3 where Node has no SQLite (Node 20).
 *
 * @packageDocumentation
 */
import {
  type Commit,
  checkEpoch,
  type LoadedSession,
  type SessionStore,
  type Spend,
  type SpendLimits,
} from '@skilltree/core/provider';
import { addable, checkPrefix, conflict, limitOf, parseBody, settlement, whole } from './common.js';
import { adoptSqlite, openSqlite, type SqliteConnection, type SqliteDriverName } from './sqlite-driver.js';
import { migrate, type SessionRow, toRecord } from './sqlite-schema.js';

export type { SqliteConnection, SqliteDriverName } from './sqlite-driver.js';

/** Options of {@link sqliteStore}: a file path, or a database you opened. */
export interface SqliteStoreOptions {
  /** The database file, created (with its folder) when missing. `':memory:'` keeps it in this process. */
  path?: string;
  /**
   * A database you opened instead of `path`: a better-sqlite3 `Database` or a `node:sqlite`
   * `DatabaseSync`. `close()` leaves it open.
   */
  database?: SqliteConnection;
  /**
   * Which SQLite opens `path`: `node:sqlite` (built into Node 22.13+ and 24), `better-sqlite3`
   * (install it; Node 20 has no built-in SQLite), or `auto` (the default: the built-in one when
   * this Node has it).
   */
  driver?: SqliteDriverName;
  /** Prefix of the table names. Default `skilltree_`. */
  prefix?: string;
  /** Milliseconds a statement waits for another process's write lock before failing. Default 5 000. */
  busyTimeout?: number;
}

/**
 * A session store in a SQLite file (WAL mode). Messages are rows keyed by session and position,
 * with an index of the user messages, so a turn reads the session's record and the window's tail
 * only. Commits run in `BEGIN IMMEDIATE` transactions, fenced by version and lease; several
 * processes may share the file (they wait up to `busyTimeout` for each other's writes).
 *
 * @example
 * import { createSessions } from '@skilltree/core';
 * import { sqliteStore } from '@skilltree/store/sqlite';
 * const sessions = createSessions(<ShopAgent />, { store: sqliteStore({ path: './sessions.db' }), model });
 */
export function sqliteStore(options: SqliteStoreOptions): SessionStore {
  const p = checkPrefix(options.prefix ?? 'skilltree_');
  const own = options.database === undefined;
  if (own && typeof options.path !== 'string') {
    throw new Error(
      'sqliteStore needs { path } (a file, or ":memory:") or { database } (a better-sqlite3 or node:sqlite database).',
    );
  }
  const db = options.database
    ? adoptSqlite(options.database)
    : openSqlite(options.path!, { busyTimeout: options.busyTimeout ?? 5_000, driver: options.driver });
  const name = `sqlite:${db.name}`;
  if (!own && options.busyTimeout !== undefined)
    db.pragma(`busy_timeout = ${whole(options.busyTimeout, 2_147_483_647)}`);
  db.pragma('journal_mode = WAL');
  // WAL with synchronous=NORMAL survives a crashed process; a power cut may lose the last commits.
  db.pragma('synchronous = NORMAL');
  migrate(db, p, name);

  const q = {
    record: db.prepare<[string], SessionRow>(`SELECT * FROM ${p}sessions WHERE id = ?`),
    firstUser: db.prepare<[string, number], { seq: number | null }>(
      `SELECT min(seq) AS seq FROM ${p}messages WHERE session_id = ? AND role = 'user' AND seq >= ?`,
    ),
    lastUser: db.prepare<[string], { seq: number | null }>(
      `SELECT max(seq) AS seq FROM ${p}messages WHERE session_id = ? AND role = 'user'`,
    ),
    tail: db.prepare<[string, number, number], { body: string }>(
      `SELECT body FROM ${p}messages WHERE session_id = ? AND seq >= ? AND seq < ? ORDER BY seq`,
    ),
    page: db.prepare<[string, number, number], { body: string }>(
      `SELECT body FROM ${p}messages WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?`,
    ),
    acquire: db.prepare<[{ id: string; holder: string; expires: number; now: number }]>(
      `INSERT INTO ${p}leases (session_id, holder, expires_at) VALUES (@id, @holder, @expires)
       ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE ${p}leases.holder = excluded.holder OR ${p}leases.expires_at <= @now`,
    ),
    release: db.prepare<[string, string]>(`DELETE FROM ${p}leases WHERE session_id = ? AND holder = ?`),
    // A stop names the holder of the running lease: it goes with that lease's row, and no other holder matches it.
    requestStop: db.prepare<[string, number]>(
      `UPDATE ${p}leases SET stop_holder = holder WHERE session_id = ? AND expires_at > ?`,
    ),
    stopRequested: db.prepare<[string, string, number], { one: number }>(
      `SELECT 1 AS one FROM ${p}leases WHERE session_id = ? AND holder = ? AND stop_holder = holder AND expires_at > ?`,
    ),
    held: db.prepare<[string, string, number], { one: number }>(
      `SELECT 1 AS one FROM ${p}leases WHERE session_id = ? AND holder = ? AND expires_at > ?`,
    ),
    renew: db.prepare<[number, string, string]>(
      `UPDATE ${p}leases SET expires_at = ? WHERE session_id = ? AND holder = ?`,
    ),
    extend: db.prepare<[number, string, string, number]>(
      `UPDATE ${p}leases SET expires_at = ? WHERE session_id = ? AND holder = ? AND expires_at > ?`,
    ),
    touch: db.prepare<[number, string]>(`UPDATE ${p}sessions SET updated_at = ? WHERE id = ?`),
    create: db.prepare<[string, string | null, string, number, number]>(
      `INSERT INTO ${p}sessions (id, owner, epoch, version, length, state, created_at, updated_at)
       VALUES (?, ?, ?, 0, 0, '{}', ?, ?)`,
    ),
    bump: db.prepare<[number, string, number, string, number]>(
      `UPDATE ${p}sessions SET version = version + 1, length = length + ?, state = ?, updated_at = ?
       WHERE id = ? AND version = ?`,
    ),
    append: db.prepare<[string, number, string, string]>(
      `INSERT INTO ${p}messages (session_id, seq, role, body) VALUES (?, ?, ?, ?)`,
    ),
    deleteSession: db.prepare<[string]>(`DELETE FROM ${p}sessions WHERE id = ?`),
    deleteMessages: db.prepare<[string]>(`DELETE FROM ${p}messages WHERE session_id = ?`),
    deleteLease: db.prepare<[string]>(`DELETE FROM ${p}leases WHERE session_id = ?`),
    spent: db.prepare<[string, string, number], Spend>(
      `SELECT tokens, dollars FROM ${p}spend WHERE owner = ? AND period = ? AND expires_at > ?`,
    ),
    // One statement: concurrent charges from any process add up (SQLite serialises writers).
    addSpend: db.prepare<[string, string, number, number, number], Spend>(
      `INSERT INTO ${p}spend (owner, period, tokens, dollars, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (owner, period) DO UPDATE SET tokens = tokens + excluded.tokens,
         dollars = dollars + excluded.dollars, expires_at = max(expires_at, excluded.expires_at)
       RETURNING tokens, dollars`,
    ),
    forgetSpend: db.prepare<[string, number]>(`DELETE FROM ${p}spend WHERE owner = ? AND expires_at <= ?`),
    // A delta that may be negative (a settlement), never taking the total below zero.
    settleSpend: db.prepare<
      [{ owner: string; period: string; tokens: number; dollars: number; expires: number }],
      Spend
    >(
      `INSERT INTO ${p}spend (owner, period, tokens, dollars, expires_at)
       VALUES (@owner, @period, max(0, @tokens), max(0.0, @dollars), @expires)
       ON CONFLICT (owner, period) DO UPDATE SET tokens = max(0, tokens + @tokens),
         dollars = max(0.0, dollars + @dollars), expires_at = max(expires_at, excluded.expires_at)
       RETURNING tokens, dollars`,
    ),
  };

  // Check and add in one IMMEDIATE transaction: other processes' writers wait, so no two
  // reservations pass on the same total.
  const reserve = db.transaction(
    (owner: string, period: string, amount: Spend, limits: SpendLimits | null, expiresAt: number) => {
      const now = Date.now();
      q.forgetSpend.run(owner, now);
      const found = q.spent.get(owner, period, now) ?? { tokens: 0, dollars: 0 };
      const { tokens, dollars } = addable(amount);
      const maxTokens = limitOf(limits?.tokens);
      const maxDollars = limitOf(limits?.dollars);
      if (
        (maxTokens !== null && found.tokens + tokens > maxTokens) ||
        (maxDollars !== null && found.dollars + dollars > maxDollars)
      ) {
        return { reserved: false, spent: { tokens: found.tokens, dollars: found.dollars } };
      }
      const row = q.addSpend.get(owner, period, tokens, dollars, whole(expiresAt)) as Spend;
      return { reserved: true, spent: { tokens: row.tokens, dollars: row.dollars } };
    },
  );

  const load = db.transaction((id: string, window: number): LoadedSession | null => {
    const row = q.record.get(id);
    if (!row) return null;
    const earliest = Math.max(0, row.length - Math.max(1, whole(window)));
    const start = q.firstUser.get(id, earliest)?.seq ?? q.lastUser.get(id)?.seq ?? earliest;
    const messages = q.tail.all(id, start, row.length).map((m) => parseBody(m.body));
    return { ...toRecord(row), start, messages };
  });

  const commit = db.transaction((id: string, c: Commit): number => {
    const now = Date.now();
    if (!q.held.get(id, c.holder, now)) throw conflict.lease(id);
    let row = q.record.get(id);
    if (c.version === 0) {
      if (row) throw conflict.created(id);
      q.create.run(id, c.owner ?? null, c.epoch, now, now);
      row = q.record.get(id)!;
    } else if (!row) {
      throw conflict.deleted(id);
    } else if (row.epoch !== c.epoch) {
      throw conflict.epoch(id);
    } else if (row.version !== c.version) {
      throw conflict.version(id, row.version, c.version);
    }
    for (let i = 0; i < c.append.length; i++) {
      const message = c.append[i];
      q.append.run(id, row.length + i, message.role, JSON.stringify(message));
    }
    q.bump.run(c.append.length, JSON.stringify(c.state), now, id, row.version);
    q.renew.run(now + c.leaseTtl, id, c.holder);
    return row.version + 1;
  });

  // A renewal marks the record as updated: a turn that renews reads as running however long it goes between commits.
  const renew = db.transaction((id: string, holder: string, ttl: number): boolean => {
    const now = Date.now();
    if (q.extend.run(now + ttl, id, holder, now).changes === 0) return false;
    q.touch.run(now, id);
    return true;
  });

  const remove = db.transaction((id: string): boolean => {
    const removed = q.deleteSession.run(id).changes > 0;
    q.deleteMessages.run(id);
    q.deleteLease.run(id);
    return removed;
  });

  let closed = false;
  return {
    name,
    async record(id) {
      const row = q.record.get(id);
      return row ? toRecord(row) : null;
    },
    async load(id, window) {
      return load(id, window);
    },
    async messages(id, from, limit) {
      return q.page.all(id, whole(from), whole(limit)).map((m) => parseBody(m.body));
    },
    async acquire(id, holder, ttl) {
      const now = Date.now();
      return q.acquire.run({ id, holder, expires: now + ttl, now }).changes > 0;
    },
    async renew(id, holder, ttl) {
      return renew.immediate(id, holder, ttl);
    },
    async release(id, holder) {
      q.release.run(id, holder);
    },
    async requestStop(id) {
      return q.requestStop.run(id, Date.now()).changes > 0;
    },
    async stopRequested(id, holder) {
      return q.stopRequested.get(id, holder, Date.now()) !== undefined;
    },
    async commit(id, c) {
      checkEpoch(c.epoch);
      return commit.immediate(id, c);
    },
    async delete(id) {
      return remove.immediate(id);
    },
    async spent(owner, period) {
      const row = q.spent.get(owner, period, Date.now());
      return row ? { tokens: row.tokens, dollars: row.dollars } : { tokens: 0, dollars: 0 };
    },
    async addSpend(owner, period, spend, expiresAt) {
      const { tokens, dollars } = addable(spend);
      q.forgetSpend.run(owner, Date.now());
      const row = q.addSpend.get(owner, period, tokens, dollars, whole(expiresAt)) as Spend;
      return { tokens: row.tokens, dollars: row.dollars };
    },
    async reserveSpend(owner, period, amount, limits, expiresAt) {
      return reserve.immediate(owner, period, amount, limits, expiresAt);
    },
    async settleSpend(owner, period, reserved, used, expiresAt) {
      const delta = settlement(reserved, used);
      const row = q.settleSpend.get({ owner, period, ...delta, expires: whole(expiresAt) }) as Spend;
      return { tokens: row.tokens, dollars: row.dollars };
    },
    async close() {
      if (own && !closed) db.close();
      closed = true;
    },
  };
}
