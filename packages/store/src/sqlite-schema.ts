/** The SQLite store's tables, as migrations from the first schema on, and its rows as records. */
import type { SessionRecord, StoredState } from '@skilltree/core/provider';
import { legacyOwnerKey, SCHEMA_VERSION, schemaTooNew } from './common.js';
import type { SqliteDatabase } from './sqlite-driver.js';

/** A row of the `sessions` table. */
export interface SessionRow {
  id: string;
  owner: string | null;
  epoch: string;
  version: number;
  length: number;
  state: string;
  created_at: number;
  updated_at: number;
}

/** A step of the schema: SQL to run, or a function for what SQL alone cannot do. */
type Migration = (p: string) => string | ((db: SqliteDatabase) => void);

export const MIGRATIONS: Migration[] = [
  (p: string) => `
    CREATE TABLE ${p}sessions (
      id TEXT PRIMARY KEY,
      owner TEXT,
      version INTEGER NOT NULL,
      length INTEGER NOT NULL,
      state TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE ${p}messages (
      session_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL,
      body TEXT NOT NULL,
      PRIMARY KEY (session_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX ${p}messages_user ON ${p}messages (session_id, seq) WHERE role = 'user';
    CREATE TABLE ${p}leases (
      session_id TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      expires_at INTEGER NOT NULL
    );`,
  // 2: every incarnation of a session has an epoch; sessions written before get a random one.
  (p: string) => `
    ALTER TABLE ${p}sessions ADD COLUMN epoch TEXT NOT NULL DEFAULT '';
    UPDATE ${p}sessions SET epoch = lower(hex(randomblob(16))) WHERE epoch = '';`,
  // 3: what each owner spent per budget period.
  (p: string) => `
    CREATE TABLE ${p}spend (
      owner TEXT NOT NULL,
      period TEXT NOT NULL,
      tokens INTEGER NOT NULL,
      dollars REAL NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (owner, period)
    ) WITHOUT ROWID;`,
  // 4: spend is kept under the owner's key (the digest owned chats' keys start with), not the owner.
  (p: string) => (db: SqliteDatabase) => {
    const rows = db.prepare(`SELECT owner, period, tokens, dollars, expires_at FROM ${p}spend`).all() as {
      owner: string;
      period: string;
      tokens: number;
      dollars: number;
      expires_at: number;
    }[];
    db.exec(`DELETE FROM ${p}spend`);
    const insert = db.prepare(
      `INSERT INTO ${p}spend (owner, period, tokens, dollars, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (owner, period) DO UPDATE SET tokens = tokens + excluded.tokens,
         dollars = dollars + excluded.dollars, expires_at = max(expires_at, excluded.expires_at)`,
    );
    for (const row of rows) insert.run(legacyOwnerKey(row.owner), row.period, row.tokens, row.dollars, row.expires_at);
  },
  // 5: a stop asked of a running turn (sessions.stop in any process) names the lease holder it was asked of.
  (p: string) => `ALTER TABLE ${p}leases ADD COLUMN stop_holder TEXT;`,
];

/** Brings the tables up to {@link SCHEMA_VERSION}, in one transaction; refuses a newer schema. */
export function migrate(db: SqliteDatabase, p: string, name: string): void {
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS ${p}meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const row = db.prepare(`SELECT value FROM ${p}meta WHERE key = 'schema_version'`).get() as
      | { value: string }
      | undefined;
    const current = row ? Number(row.value) : 0;
    if (current > SCHEMA_VERSION) throw schemaTooNew(name, current);
    for (let version = current; version < SCHEMA_VERSION; version++) {
      const step = MIGRATIONS[version](p);
      if (typeof step === 'string') db.exec(step);
      else step(db);
    }
    db.prepare(
      `INSERT INTO ${p}meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ).run(String(SCHEMA_VERSION));
  }).immediate();
}

/** A `sessions` row as the record a store reads. */
export const toRecord = (row: SessionRow): SessionRecord => ({
  id: row.id,
  owner: row.owner,
  epoch: row.epoch,
  version: row.version,
  length: row.length,
  state: JSON.parse(row.state) as StoredState,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
