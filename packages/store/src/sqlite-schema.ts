/** The SQLite store's tables, as migrations from the first schema on, and its rows as records. */
import type { SessionRecord, StoredState } from '@skilltree/core/provider';
import { legacyOwnerKey, SCHEMA_VERSION, schemaTooNew } from './common.js';
import { type ColumnTypes, firstTables, type SessionColumns, sessionRecord, spendTable } from './sql-tables.js';
import type { SqliteDatabase } from './sqlite-driver.js';

/** A row of the `sessions` table. */
export interface SessionRow extends SessionColumns {
  state: string;
  created_at: number;
  updated_at: number;
}

/** A step of the schema: SQL to run, or a function for what SQL alone cannot do. */
type Migration = (p: string) => string | ((db: SqliteDatabase) => void);

/** Bodies and state are JSON text; times are epoch milliseconds. */
const TYPES: ColumnTypes = {
  text: 'TEXT',
  integer: 'INTEGER',
  bigint: 'INTEGER',
  real: 'REAL',
  json: 'TEXT',
  time: 'INTEGER',
  keyed: ' WITHOUT ROWID',
};

/** The schema's steps, from the first on: step `n` brings a database at version `n` to `n + 1`. */
export const MIGRATIONS: Migration[] = [
  (p: string) => firstTables(p, TYPES),
  // 2: every incarnation of a session has an epoch; sessions written before get a random one.
  (p: string) => `
    ALTER TABLE ${p}sessions ADD COLUMN epoch TEXT NOT NULL DEFAULT '';
    UPDATE ${p}sessions SET epoch = lower(hex(randomblob(16))) WHERE epoch = '';`,
  // 3: what each owner spent per budget period.
  (p: string) => spendTable(p, TYPES),
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
export const toRecord = (row: SessionRow): SessionRecord =>
  sessionRecord(row, JSON.parse(row.state) as StoredState, row.created_at, row.updated_at);
