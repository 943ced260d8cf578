/**
 * `@skilltree/store/postgres`: sessions in PostgreSQL, with pg. For several processes or machines
 * serving the same sessions.
 *
 * @packageDocumentation
 */
import type { Message, SessionStore } from '@skilltree/core';
import { checkEpoch, type LoadedSession } from '@skilltree/core/provider';
import pg from 'pg';
import {
  addable,
  checkPrefix,
  conflict,
  limitOf,
  once,
  outageReporter,
  SCHEMA_VERSION,
  schemaTooNew,
  settlement,
  whole,
} from './common.js';
import { int4, MIGRATIONS, type SessionRow, toRecord } from './postgres-schema.js';

/** A row as a query returns it. */
export type PostgresRow = Record<string, any>;

/**
 * The part of a `pg.Pool` the store uses: a `pg.Pool` fits, and the store's types need no
 * `@types/pg`.
 */
export interface PostgresPool {
  query<R extends PostgresRow = any>(config: { text: string; values?: unknown[] }): Promise<PostgresResult<R>>;
  connect(): Promise<PostgresPoolClient>;
  /** The store listens for `error` when no one else does. */
  listenerCount(event: 'error'): number;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A connection checked out of a {@link PostgresPool}, as the store uses it. */
export interface PostgresPoolClient {
  query<R extends PostgresRow = any>(text: string, values?: unknown[]): Promise<PostgresResult<R>>;
  release(): void;
}

/** What a query resolves to: its rows, and how many it changed. */
export interface PostgresResult<R extends PostgresRow> {
  rows: R[];
  rowCount: number | null;
}

/** Options of {@link postgresStore}: a connection string, or a pool you manage. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`. The store opens a pool and `close()` ends it. */
  connectionString?: string;
  /**
   * A `pg.Pool` you created instead (any pool of the {@link PostgresPool} shape). `close()` leaves
   * it open, and its options are yours (see `timeout`). If it has no `error` listener, the store
   * adds its own (see `onError`): without one, an idle connection that breaks (a restarted server)
   * would crash the process.
   */
  pool?: PostgresPool;
  /** Connections of the pool the store opens. Default 10. */
  max?: number;
  /** Prefix of the table names. Default `skilltree_`. */
  prefix?: string;
  /**
   * Milliseconds the pool the store opens waits to connect, and a query to answer, before it
   * fails: a turn fails instead of waiting for a server that is unreachable or hung. Default 10 000.
   */
  timeout?: number;
  /**
   * Called with the first error of each outage of the pool's connections (an idle connection
   * that broke; the next query connects again, and once one works the next error is a new
   * outage). Default: one line on stderr.
   */
  onError?: (error: Error) => void;
}

/**
 * A session store in PostgreSQL. Tables (created and migrated on first use, versioned):
 * `sessions` (one small row per session: version, length, state, owner), `messages` (append-only,
 * keyed by session and position, with an index of the user messages) and `leases` (one row per
 * busy session, with an expiry from the database's clock). A load is one query; a commit is one
 * statement that checks the lease and the version, appends and bumps, so a stalled process whose
 * lease expired can never write over a newer turn.
 *
 * @example
 * import { postgresStore } from '@skilltree/store/postgres';
 * const store = postgresStore({ connectionString: process.env.DATABASE_URL });
 */
export function postgresStore(options: PostgresStoreOptions): SessionStore {
  const p = checkPrefix(options.prefix ?? 'skilltree_');
  if (!options.pool && typeof options.connectionString !== 'string') {
    throw new Error('postgresStore needs { connectionString } or { pool } (a pg.Pool).');
  }
  const timeout = options.timeout ?? 10_000;
  const owned = options.pool
    ? null
    : new pg.Pool({
        connectionString: options.connectionString,
        max: options.max ?? 10,
        connectionTimeoutMillis: timeout,
        query_timeout: timeout,
      });
  const own = owned !== null;
  const pool: PostgresPool = options.pool ?? owned!;
  const name = own ? `postgres:${redact(options.connectionString!)}` : 'postgres:pool';
  const outage = outageReporter(name, options.onError);
  // An idle client's error (a restarted server): reported once; the next query connects again.
  if (own || pool.listenerCount('error') === 0) pool.on('error', (error) => outage.report(error));

  const migrate = once(() =>
    inTransaction(pool, async (client) => {
      // One process migrates at a time; the others wait, then see the tables.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`skilltree-store:${p}`]);
      await client.query(`CREATE TABLE IF NOT EXISTS ${p}meta (key text PRIMARY KEY, value text NOT NULL)`);
      const { rows } = await client.query<{ value: string }>(`SELECT value FROM ${p}meta WHERE key = 'schema_version'`);
      const current = rows.length > 0 ? Number(rows[0].value) : 0;
      if (current > SCHEMA_VERSION) throw schemaTooNew(name, current);
      for (let version = current; version < SCHEMA_VERSION; version++) await client.query(MIGRATIONS[version](p));
      await client.query(
        `INSERT INTO ${p}meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [String(SCHEMA_VERSION)],
      );
    }),
  );
  const query = async <R extends PostgresRow>(text: string, values: unknown[]) => {
    await migrate();
    const result = await pool.query<R>({ text, values });
    outage.recovered();
    return result;
  };

  const earliest = `GREATEST(0, s.length - GREATEST(1, $2::int))`;
  // Renews the lease on chat $1 that $2 holds, by the ttl bound at `ttl`, unless it lapsed: a renewal
  // and a commit are let through by the same row.
  const renewLease = (ttl: string) => `
        UPDATE ${p}leases SET expires_at = clock_timestamp() + ${ttl} * interval '1 millisecond'
        WHERE session_id = $1 AND holder = $2 AND expires_at > clock_timestamp()
        RETURNING 1`;
  const sql = {
    record: `SELECT * FROM ${p}sessions WHERE id = $1`,
    load: `
      WITH s AS (
        SELECT s.*, COALESCE(
          (SELECT min(seq) FROM ${p}messages WHERE session_id = $1 AND role = 'user' AND seq >= ${earliest}),
          (SELECT max(seq) FROM ${p}messages WHERE session_id = $1 AND role = 'user'),
          ${earliest}) AS start
        FROM ${p}sessions s WHERE s.id = $1
      )
      SELECT s.*, (SELECT json_agg(body ORDER BY seq) FROM ${p}messages
                   WHERE session_id = $1 AND seq >= s.start AND seq < s.length) AS messages
      FROM s`,
    page: `SELECT body FROM ${p}messages WHERE session_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
    acquire: `
      INSERT INTO ${p}leases (session_id, holder, expires_at)
      VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
      ON CONFLICT (session_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
      WHERE ${p}leases.holder = EXCLUDED.holder OR ${p}leases.expires_at <= clock_timestamp()
      RETURNING 1`,
    // A renewal marks the record as updated: a turn that renews reads as running however long it
    // goes between commits. One statement, so one transaction.
    renew: `
      WITH lease AS (${renewLease('$3')}
      ), touched AS (
        UPDATE ${p}sessions SET updated_at = clock_timestamp() WHERE id = $1 AND EXISTS (SELECT 1 FROM lease)
      )
      SELECT count(*)::int AS leased FROM lease`,
    release: `DELETE FROM ${p}leases WHERE session_id = $1 AND holder = $2`,
    // A stop names the holder of the running lease: it goes with that lease's row, and no other holder matches it.
    requestStop: `UPDATE ${p}leases SET stop_holder = holder WHERE session_id = $1 AND expires_at > clock_timestamp()`,
    stopRequested: `SELECT 1 FROM ${p}leases
      WHERE session_id = $1 AND holder = $2 AND stop_holder = holder AND expires_at > clock_timestamp()`,
    // $1 id, $2 holder, $3 version read, $4 lease ttl, $5 state, $6 messages (a JSON array), $7 owner,
    // $8 epoch. One statement, so one transaction: the lease row is locked and renewed, the session
    // row bumped only at the incarnation and version the turn read, and the messages appended at
    // its old length.
    commit: `
      WITH lease AS (${renewLease('$4')}
      ), bumped AS (
        UPDATE ${p}sessions SET version = version + 1, length = length + json_array_length($6::json),
          state = $5::json, updated_at = clock_timestamp()
        WHERE id = $1 AND version = $3 AND epoch = $8 AND $3 > 0 AND EXISTS (SELECT 1 FROM lease)
        RETURNING version, length - json_array_length($6::json) AS start
      ), created AS (
        INSERT INTO ${p}sessions (id, owner, epoch, version, length, state, created_at, updated_at)
        SELECT $1, $7, $8, 1, json_array_length($6::json), $5::json, clock_timestamp(), clock_timestamp()
        WHERE $3 = 0 AND EXISTS (SELECT 1 FROM lease)
        ON CONFLICT (id) DO NOTHING
        RETURNING version, 0 AS start
      ), done AS (
        SELECT * FROM bumped UNION ALL SELECT * FROM created
      ), appended AS (
        INSERT INTO ${p}messages (session_id, seq, role, body)
        SELECT $1, done.start + m.ord::int - 1, m.value->>'role', m.value
        FROM done, json_array_elements($6::json) WITH ORDINALITY AS m(value, ord)
      )
      SELECT (SELECT count(*) FROM lease)::int AS leased, (SELECT version FROM done) AS version,
        s.version AS found, s.epoch AS epoch
      FROM (SELECT 1) AS one LEFT JOIN ${p}sessions s ON s.id = $1`,
    deleteSession: `DELETE FROM ${p}sessions WHERE id = $1`,
    deleteMessages: `DELETE FROM ${p}messages WHERE session_id = $1`,
    deleteLease: `DELETE FROM ${p}leases WHERE session_id = $1`,
  };

  const spent = async (owner: string, period: string) => {
    const { rows } = await query<{ tokens: string; dollars: number }>(
      `SELECT tokens, dollars FROM ${p}spend WHERE owner = $1 AND period = $2 AND expires_at > now()`,
      [owner, period],
    );
    return rows.length > 0 ? { tokens: Number(rows[0].tokens), dollars: rows[0].dollars } : { tokens: 0, dollars: 0 };
  };

  let closed = false;
  return {
    name,
    async record(id) {
      const { rows } = await query<SessionRow>(sql.record, [id]);
      return rows.length > 0 ? toRecord(rows[0]) : null;
    },
    async load(id, window): Promise<LoadedSession | null> {
      const { rows } = await query<SessionRow & { start: number; messages: Message[] | null }>(sql.load, [
        id,
        int4(window),
      ]);
      if (rows.length === 0) return null;
      return { ...toRecord(rows[0]), start: rows[0].start, messages: rows[0].messages ?? [] };
    },
    async messages(id, from, limit) {
      const { rows } = await query<{ body: Message }>(sql.page, [id, int4(from), int4(limit)]);
      return rows.map((row) => row.body);
    },
    async acquire(id, holder, ttl) {
      const { rowCount } = await query(sql.acquire, [id, holder, int4(ttl)]);
      return rowCount === 1;
    },
    async renew(id, holder, ttl) {
      const { rows } = await query<{ leased: number }>(sql.renew, [id, holder, int4(ttl)]);
      return rows[0]?.leased === 1;
    },
    async release(id, holder) {
      await query(sql.release, [id, holder]);
    },
    async requestStop(id) {
      const { rowCount } = await query(sql.requestStop, [id]);
      return (rowCount ?? 0) > 0;
    },
    async stopRequested(id, holder) {
      const { rowCount } = await query(sql.stopRequested, [id, holder]);
      return (rowCount ?? 0) > 0;
    },
    async commit(id, c) {
      const { rows } = await query<{
        leased: number;
        version: number | null;
        found: number | null;
        epoch: string | null;
      }>(sql.commit, [
        id,
        c.holder,
        c.version,
        int4(c.leaseTtl),
        JSON.stringify(c.state),
        JSON.stringify(c.append),
        c.owner ?? null,
        checkEpoch(c.epoch),
      ]);
      const [{ leased, version, found, epoch }] = rows;
      if (version !== null) return version;
      if (leased === 0) throw conflict.lease(id);
      if (c.version === 0) throw conflict.created(id);
      if (found === null) throw conflict.deleted(id);
      if (epoch !== c.epoch) throw conflict.epoch(id);
      throw conflict.version(id, found, c.version);
    },
    async delete(id) {
      await migrate();
      return inTransaction(pool, async (client) => {
        // The lease row first, then the session row: the order a commit locks them in, so the two
        // never deadlock. A commit in flight holds the lease row, so this waits for it and then
        // deletes its messages too; a commit that starts later finds no lease and writes nothing.
        await client.query(sql.deleteLease, [id]);
        const { rowCount } = await client.query(sql.deleteSession, [id]);
        await client.query(sql.deleteMessages, [id]);
        return (rowCount ?? 0) > 0;
      });
    },
    spent,
    async addSpend(owner, period, spend, expiresAt) {
      const { tokens, dollars } = addable(spend);
      // One statement: the row lock makes concurrent charges from any process add up.
      const { rows } = await query<{ tokens: string; dollars: number }>(
        `WITH gone AS (DELETE FROM ${p}spend WHERE owner = $1 AND period <> $2 AND expires_at <= now())
         INSERT INTO ${p}spend (owner, period, tokens, dollars, expires_at) VALUES ($1, $2, $3, $4, to_timestamp($5 / 1000.0))
         ON CONFLICT (owner, period) DO UPDATE SET tokens = ${p}spend.tokens + EXCLUDED.tokens,
           dollars = ${p}spend.dollars + EXCLUDED.dollars, expires_at = GREATEST(${p}spend.expires_at, EXCLUDED.expires_at)
         RETURNING tokens, dollars`,
        [owner, period, tokens, dollars, whole(expiresAt)],
      );
      return { tokens: Number(rows[0].tokens), dollars: rows[0].dollars };
    },
    async reserveSpend(owner, period, amount, limits, expiresAt) {
      const { tokens, dollars } = addable(amount);
      // One statement: the row lock makes the check and the add one step for every process. A row
      // that would go over a limit is neither inserted nor updated, and nothing is returned.
      const { rows } = await query<{ tokens: string; dollars: number }>(
        `WITH gone AS (DELETE FROM ${p}spend WHERE owner = $1 AND period <> $2 AND expires_at <= now())
         INSERT INTO ${p}spend AS s (owner, period, tokens, dollars, expires_at)
         SELECT $1, $2, $3::bigint, $4::float8, to_timestamp($5 / 1000.0)
         WHERE ($6::float8 IS NULL OR $3::bigint <= $6::float8) AND ($7::float8 IS NULL OR $4::float8 <= $7::float8)
         ON CONFLICT (owner, period) DO UPDATE SET tokens = s.tokens + EXCLUDED.tokens,
           dollars = s.dollars + EXCLUDED.dollars, expires_at = GREATEST(s.expires_at, EXCLUDED.expires_at)
         WHERE ($6::float8 IS NULL OR s.tokens + EXCLUDED.tokens <= $6::float8)
           AND ($7::float8 IS NULL OR s.dollars + EXCLUDED.dollars <= $7::float8)
         RETURNING tokens, dollars`,
        [owner, period, tokens, dollars, whole(expiresAt), limitOf(limits?.tokens), limitOf(limits?.dollars)],
      );
      if (rows.length > 0) {
        return { reserved: true, spent: { tokens: Number(rows[0].tokens), dollars: rows[0].dollars } };
      }
      return { reserved: false, spent: await spent(owner, period) };
    },
    async settleSpend(owner, period, reserved, used, expiresAt) {
      const delta = settlement(reserved, used);
      const { rows } = await query<{ tokens: string; dollars: number }>(
        `INSERT INTO ${p}spend AS s (owner, period, tokens, dollars, expires_at)
         VALUES ($1, $2, GREATEST(0, $3::bigint), GREATEST(0, $4::float8), to_timestamp($5 / 1000.0))
         ON CONFLICT (owner, period) DO UPDATE SET tokens = GREATEST(0, s.tokens + $3::bigint),
           dollars = GREATEST(0, s.dollars + $4::float8), expires_at = GREATEST(s.expires_at, EXCLUDED.expires_at)
         RETURNING tokens, dollars`,
        [owner, period, delta.tokens, delta.dollars, whole(expiresAt)],
      );
      return { tokens: Number(rows[0].tokens), dollars: rows[0].dollars };
    },
    async close() {
      if (owned && !closed) await owned.end();
      closed = true;
    },
  };
}

/** The connection string without its password, for names and errors. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * Runs `work` on a client of `pool` in one transaction: committed once `work` resolves, rolled back
 * if it throws (the error goes on), the client given back either way.
 */
async function inTransaction<T>(pool: PostgresPool, work: (client: PostgresPoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
