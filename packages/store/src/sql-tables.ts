/**
 * The tables the two SQL stores share, written once and typed by each dialect: the first schema
 * and the spend table are the same columns in Postgres and SQLite, only their types differ.
 */

import type { SessionRecord, StoredState } from '@skilltree/core/provider';

/** The columns of a `sessions` row that both dialects read as they are. */
export interface SessionColumns {
  id: string;
  owner: string | null;
  epoch: string;
  version: number;
  length: number;
}

/** A `sessions` row as the record a store reads, with its state and times as the dialect decoded them. */
export const sessionRecord = (
  row: SessionColumns,
  state: StoredState,
  createdAt: number,
  updatedAt: number,
): SessionRecord => ({
  id: row.id,
  owner: row.owner,
  epoch: row.epoch,
  version: row.version,
  length: row.length,
  state,
  createdAt,
  updatedAt,
});

/** The column types one SQL dialect writes the shared tables with. */
export interface ColumnTypes {
  /** Text: ids, roles, holders. */
  text: string;
  /** A 32-bit count: versions, lengths, sequence numbers. */
  integer: string;
  /** A count that may pass 2^31: tokens spent. */
  bigint: string;
  /** A float: dollars spent. */
  real: string;
  /** A JSON document kept as written: message bodies and session state. */
  json: string;
  /** A point in time. */
  time: string;
  /** What follows a table reached by its primary key alone (`''` where the dialect has no such option). */
  keyed: string;
}

/** Migration 1: the `sessions`, `messages` and `leases` tables, prefixed with `p`. */
export const firstTables = (p: string, t: ColumnTypes): string => `
    CREATE TABLE ${p}sessions (
      id ${t.text} PRIMARY KEY,
      owner ${t.text},
      version ${t.integer} NOT NULL,
      length ${t.integer} NOT NULL,
      state ${t.json} NOT NULL,
      created_at ${t.time} NOT NULL,
      updated_at ${t.time} NOT NULL
    );
    CREATE TABLE ${p}messages (
      session_id ${t.text} NOT NULL,
      seq ${t.integer} NOT NULL,
      role ${t.text} NOT NULL,
      body ${t.json} NOT NULL,
      PRIMARY KEY (session_id, seq)
    )${t.keyed};
    CREATE INDEX ${p}messages_user ON ${p}messages (session_id, seq) WHERE role = 'user';
    CREATE TABLE ${p}leases (
      session_id ${t.text} PRIMARY KEY,
      holder ${t.text} NOT NULL,
      expires_at ${t.time} NOT NULL
    );`;

/** Migration 3: the `spend` table, what each owner spent per budget period. */
export const spendTable = (p: string, t: ColumnTypes): string => `
    CREATE TABLE ${p}spend (
      owner ${t.text} NOT NULL,
      period ${t.text} NOT NULL,
      tokens ${t.bigint} NOT NULL,
      dollars ${t.real} NOT NULL,
      expires_at ${t.time} NOT NULL,
      PRIMARY KEY (owner, period)
    )${t.keyed};`;
