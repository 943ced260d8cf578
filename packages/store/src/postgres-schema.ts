/** The Postgres store's tables, as migrations from the first schema on, and its rows as records. */
import type { SessionRecord, StoredState } from '@skilltree/core/provider';
import { whole } from './common.js';
import { type ColumnTypes, firstTables, type SessionColumns, sessionRecord, spendTable } from './sql-tables.js';

/** A row of the `sessions` table. */
export interface SessionRow extends SessionColumns {
  state: StoredState;
  created_at: Date;
  updated_at: Date;
}

// Bodies and state are `json`, not `jsonb`: json keeps the text exactly as written (key order
// included), so a restored transcript serialises byte for byte as it did, and prompt caches hold.
const TYPES: ColumnTypes = {
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  real: 'double precision',
  json: 'json',
  time: 'timestamptz',
  keyed: '',
};

/** The schema's steps, from the first on: step `n` brings a database at version `n` to `n + 1`. */
export const MIGRATIONS = [
  (p: string) => firstTables(p, TYPES),
  // 2: every incarnation of a session has an epoch; sessions written before get a random one.
  (p: string) => `
    ALTER TABLE ${p}sessions ADD COLUMN IF NOT EXISTS epoch text;
    UPDATE ${p}sessions SET epoch = md5(random()::text || clock_timestamp()::text || id) WHERE epoch IS NULL;
    ALTER TABLE ${p}sessions ALTER COLUMN epoch SET NOT NULL;`,
  // 3: what each owner spent per budget period.
  (p: string) => spendTable(p, TYPES),
  // 4: spend is kept under the owner's key (the SHA-256 of the owner in hex, the digest owned
  // chats' keys start with), so any owner fits the index. Text is valid UTF-8 in Postgres, so
  // this is the digest createSessions computes, and two owners never meet on one key.
  (p: string) => `
    UPDATE ${p}spend SET owner = encode(sha256(convert_to(owner, 'UTF8')), 'hex');`,
  // 5: a stop asked of a running turn (sessions.stop in any process) names the lease holder it was asked of.
  (p: string) => `ALTER TABLE ${p}leases ADD COLUMN IF NOT EXISTS stop_holder text;`,
];

/** A paging argument as Postgres binds it: a 32-bit integer (a larger window means everything). */
export const int4 = (n: number): number => whole(n, 2_147_483_647);

/** A `sessions` row as the record a store reads. */
export const toRecord = (row: SessionRow): SessionRecord =>
  sessionRecord(row, row.state, row.created_at.getTime(), row.updated_at.getTime());
