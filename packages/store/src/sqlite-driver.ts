/**
 * Which SQLite the store talks to: Node's built-in `node:sqlite` where this Node has it (22.13+,
 * 24), else better-sqlite3 (Node 20), loaded only then, so nothing is compiled where Node ships
 * SQLite. Both are given the same small synchronous surface (the one better-sqlite3 has), and
 * `sqlite.ts` keeps its SQL and its transactions whichever runs underneath.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

/** Which driver {@link openSqlite} uses. `auto` (the default): `node:sqlite` when available, else better-sqlite3. */
export type SqliteDriverName = 'auto' | 'node:sqlite' | 'better-sqlite3';

/**
 * A database you opened yourself and hand to `sqliteStore({ database })`: a better-sqlite3
 * `Database` or a `node:sqlite` `DatabaseSync`. Only the shape is named here, so the store's types
 * need neither driver's type package.
 */
export interface SqliteConnection {
  prepare(sql: string): unknown;
  exec(sql: string): unknown;
  close(): unknown;
}

/** A prepared statement: parameters `P`, rows `R`. */
export interface SqliteStatement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): { changes: number };
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

/** A function that runs inside a transaction: `BEGIN` when called, `BEGIN IMMEDIATE` through `.immediate`. */
export interface SqliteTransaction<A extends unknown[], T> {
  (...args: A): T;
  immediate(...args: A): T;
}

/** The database as the store uses it (better-sqlite3's own surface, which node:sqlite is adapted to). */
export interface SqliteDatabase {
  /** The file (or `:memory:`). */
  readonly name: string;
  exec(sql: string): unknown;
  /** Runs `PRAGMA <source>` and returns its rows. */
  pragma(source: string): unknown;
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): SqliteStatement<P, R>;
  transaction<A extends unknown[], T>(fn: (...args: A) => T): SqliteTransaction<A, T>;
  close(): unknown;
}

/** How {@link openSqlite} opens a file. */
export interface OpenSqliteOptions {
  /** Milliseconds a statement waits for another connection's write lock. */
  busyTimeout: number;
  driver?: SqliteDriverName;
}

/** The parts of `node:sqlite` used here (typed locally: Node 20's type package has no `node:sqlite`). */
interface NodeSqlite {
  DatabaseSync: new (path: string) => NodeSqliteDatabase;
}
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): {
    run(...params: unknown[]): { changes: number | bigint };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  close(): void;
  location?(): string | null;
}

interface BetterSqlite3 {
  new (path: string, options: { timeout: number }): SqliteDatabase;
}

/** `node:sqlite`, or null on a Node without it (20; 22 before 22.13 without a flag). */
export function builtinSqlite(): NodeSqlite | null {
  // Node 22 prints "ExperimentalWarning: SQLite is an experimental feature" when the module loads
  // (24 no longer does). The store's use is stable; that one warning would only alarm the user of
  // a CLI, so it is held back while the module loads. Every other warning passes.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).startsWith('SQLite is an experimental feature')) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    const mod = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
    return mod?.DatabaseSync ? mod : null;
  } catch {
    return null;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** The driver `auto` picks on this Node. */
export function defaultSqliteDriver(): 'node:sqlite' | 'better-sqlite3' {
  return builtinSqlite() ? 'node:sqlite' : 'better-sqlite3';
}

const require = createRequire(import.meta.url);

/** better-sqlite3, required on first use; a one-line error that says what to install when it is missing. */
export function loadBetterSqlite3(load: (id: string) => unknown = require): BetterSqlite3 {
  try {
    return load('better-sqlite3') as BetterSqlite3;
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND' || !String(error).includes('better-sqlite3')) {
      throw error;
    }
    throw new Error(
      `The SQLite session store needs better-sqlite3 on Node ${process.versions.node}, which has no built-in node:sqlite (Node 22.13+ has): npm install better-sqlite3@12`,
    );
  }
}

/** Opens (and creates, with its folder) the SQLite file `path`, with the driver `options.driver` names. */
export function openSqlite(path: string, options: OpenSqliteOptions): SqliteDatabase {
  if (path !== ':memory:' && !path.startsWith('file:')) mkdirSync(dirname(resolve(path)), { recursive: true });
  const driver = options.driver === undefined || options.driver === 'auto' ? defaultSqliteDriver() : options.driver;
  if (driver === 'better-sqlite3') {
    const Database = loadBetterSqlite3();
    return new Database(path, { timeout: options.busyTimeout });
  }
  const sqlite = builtinSqlite();
  if (!sqlite) {
    throw new Error(
      `driver "node:sqlite" is not available on Node ${process.versions.node} (it is built in from 22.13): use driver "better-sqlite3".`,
    );
  }
  const db = fromNodeSqlite(new sqlite.DatabaseSync(path), path);
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeout))}`);
  return db;
}

/** A database the caller opened, as the store uses it: better-sqlite3's as it is, node:sqlite's adapted. */
export function adoptSqlite(database: SqliteConnection): SqliteDatabase {
  const candidate = database as Partial<SqliteDatabase>;
  if (typeof candidate.pragma === 'function' && typeof candidate.transaction === 'function') {
    return database as SqliteDatabase;
  }
  const db = database as NodeSqliteDatabase;
  return fromNodeSqlite(db, db.location?.() || ':memory:');
}

/** Gives a `node:sqlite` database better-sqlite3's surface: `pragma`, `transaction`, numeric `changes`. */
function fromNodeSqlite(db: NodeSqliteDatabase, name: string): SqliteDatabase {
  let depth = 0;
  // After a failed statement or COMMIT: undo what is left. SQLite may have rolled back already (the
  // error that got here is the one to report, not "no transaction is active").
  const rollback = (savepoint: string | null) => {
    try {
      db.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
    } catch {
      // Nothing left to undo.
    }
  };
  const transaction = <A extends unknown[], T>(fn: (...args: A) => T): SqliteTransaction<A, T> => {
    const within =
      (begin: string) =>
      (...args: A): T => {
        // A transaction called inside another runs in a savepoint, as in better-sqlite3.
        const savepoint = depth > 0 ? `skilltree_${depth}` : null;
        db.exec(savepoint ? `SAVEPOINT ${savepoint}` : begin);
        depth++;
        let committed = false;
        try {
          const result = fn(...args);
          db.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
          committed = true;
          return result;
        } finally {
          depth--;
          if (!committed) rollback(savepoint);
        }
      };
    return Object.assign(within('BEGIN'), { immediate: within('BEGIN IMMEDIATE') });
  };
  return {
    name,
    exec: (sql) => db.exec(sql),
    // A pragma that sets (`x = y`) may return no rows, which some drivers refuse to read.
    pragma: (source) => (source.includes('=') ? db.exec(`PRAGMA ${source}`) : db.prepare(`PRAGMA ${source}`).all()),
    prepare<P extends unknown[], R>(sql: string): SqliteStatement<P, R> {
      const statement = db.prepare(sql);
      return {
        run: (...params) => ({ changes: Number(statement.run(...params).changes) }),
        get: (...params) => statement.get(...params) as R | undefined,
        all: (...params) => statement.all(...params) as R[],
      };
    },
    transaction,
    close: () => db.close(),
  };
}
