/**
 * The store backends as a table: one row per backend says which specs name it, what they connect
 * to, whether processes can share it, and how to open it (importing its file and driver only then).
 * `parseStoreSpec` and `openStore` read the table, and so does every command of the CLI: a new
 * backend is its file plus one row here (or, outside this package, {@link registerStoreBackend}).
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SessionStore } from '@skilltree/core';

/** What a backend opens with: the options its spec named (e.g. `{ path }` for SQLite). */
export type StoreOptions = Readonly<Record<string, unknown>>;

/** Options every backend takes besides its own. */
export interface CommonStoreOptions {
  /** Prefix of table names or keys (see each store's options). */
  prefix?: string;
}

/** One backend: a row of the table. */
export interface StoreBackend {
  /** Its name, which a parsed spec carries as `kind`: `sqlite`, `postgres`, … */
  readonly kind: string;
  /** The spec forms it takes, for help and errors: `postgres://…`. */
  readonly forms: string;
  /**
   * The options `spec` names when it is one of this backend's forms, else undefined. Relative paths
   * resolve against `cwd`. Throws, saying what is missing, for one of its forms that is incomplete.
   */
  parse(spec: string, cwd: string): StoreOptions | undefined;
  /** Whether processes on one machine can share the store (`skilltree serve --workers` needs one). */
  shared(options: StoreOptions): boolean;
  /** Fails at once, with the reason and the fix, when the store cannot be opened (before any work). */
  check?(options: StoreOptions): void;
  /** Opens the store, importing the backend's file and driver only now. */
  open(options: StoreOptions, common: CommonStoreOptions): Promise<SessionStore>;
}

/**
 * Imports a backend's file, turning a missing driver into a sentence that says what to install.
 */
export async function loadBackend<T>(kind: string, driver: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(driver)) {
      throw new Error(`The ${kind} session store needs the "${driver}" package: install it next to @skilltree/store.`);
    }
    throw error;
  }
}

/**
 * Fails now when a SQLite file cannot be created or written: a directory, or a file whose folder
 * cannot be created or written. It tries what opening does (create the folder, write a file beside
 * the database) and removes the probe again, so that a command fails before a model is called
 * rather than when it saves the turn.
 */
function checkSqliteFile(file: string): void {
  if (file === ':memory:') return;
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new Error(`The session store ${file} is a directory: pass a file path, e.g. sqlite:${file}/sessions.db.`);
  }
  const fail = (why: string) =>
    new Error(`Cannot write the session store ${file}: ${why}. Pass a path in a directory you can write.`);
  let existing = dirname(file);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (!statSync(existing).isDirectory()) throw fail(`${existing} is a file, not a directory`);
  const probe = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(probe, '');
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
  rmSync(probe, { force: true });
}

const str = (options: StoreOptions, key: string) => options[key] as string;

/**
 * A backend on a database server, named by its URL (`<kind>://…`, as `scheme` matches it): its
 * spec is the URL, kept under `key`, and every process that reaches the server shares it.
 */
function serverBackend(
  kind: string,
  scheme: RegExp,
  key: string,
  open: (url: string, common: CommonStoreOptions) => Promise<SessionStore>,
): StoreBackend {
  return {
    kind,
    forms: `${kind}://…`,
    parse: (spec) => (scheme.test(spec) ? { [key]: spec } : undefined),
    shared: () => true,
    open: (options, common) => open(str(options, key), common),
  };
}

/** The backends this package has, in the order specs are tried. */
const BUILT_IN: readonly StoreBackend[] = [
  {
    kind: 'sqlite',
    forms: 'sqlite:<file>',
    parse(spec, cwd) {
      // A bare path ending in .db/.sqlite is a file too, unless it starts with another scheme
      // (`log:x.db` belongs to the backend that takes `log:`); a drive letter is not a scheme.
      const file = /^sqlite:/i.test(spec)
        ? spec.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
        : /\.(db|sqlite3?)$/i.test(spec) && !/^[a-z][a-z0-9+.-]+:/i.test(spec)
          ? spec
          : null;
      if (file === null) return undefined;
      if (file === '') throw new Error('A sqlite: store needs a file, e.g. sqlite:./sessions.db.');
      return { path: file === ':memory:' ? file : resolve(cwd, file) };
    },
    shared: (options) => options.path !== ':memory:',
    check: (options) => checkSqliteFile(str(options, 'path')),
    async open(options, common) {
      // node:sqlite, or better-sqlite3 where Node has none: sqliteStore says what to install.
      const { sqliteStore } = await import('./sqlite.js');
      return sqliteStore({ path: str(options, 'path'), ...common });
    },
  },
  serverBackend('postgres', /^postgres(ql)?:\/\//i, 'connectionString', async (connectionString, common) => {
    const { postgresStore } = await loadBackend('postgres', 'pg', () => import('./postgres.js'));
    return postgresStore({ connectionString, ...common });
  }),
  serverBackend('redis', /^rediss?:\/\//i, 'url', async (url, common) => {
    const { redisStore } = await loadBackend('redis', 'ioredis', () => import('./redis.js'));
    return redisStore({ url, ...common });
  }),
  {
    kind: 'memory',
    forms: 'memory',
    parse: (spec) => (spec === 'memory' || spec === 'memory:' ? {} : undefined),
    shared: () => false,
    open: async () => (await import('@skilltree/core')).memoryStore(),
  },
];

/** Backends registered from outside this package, by kind. */
const registered = new Map<string, StoreBackend>();

/** Every backend: this package's, then the registered ones, in the order specs are tried. */
export function storeBackends(): readonly StoreBackend[] {
  return [...BUILT_IN, ...registered.values()];
}

/**
 * Adds a backend from outside this package: after this, `parseStoreSpec`, `openStore` and every
 * `skilltree` command (`--store`) take its specs. Registering a kind again replaces its row (a
 * module evaluated again, as `skilltree dev` does on an edit, registers again); the built-in kinds
 * cannot be replaced.
 *
 * @example
 * registerStoreBackend({
 *   kind: 'dynamo',
 *   forms: 'dynamo:<table>',
 *   parse: (spec) => (spec.startsWith('dynamo:') ? { table: spec.slice(7) } : undefined),
 *   shared: () => true,
 *   open: async (options) => (await import('./dynamo-store.js')).dynamoStore(options),
 * });
 */
export function registerStoreBackend(backend: StoreBackend): void {
  const kind = backend?.kind;
  if (typeof kind !== 'string' || !/^[a-z][a-z0-9-]*$/.test(kind)) {
    throw new Error(`A store backend needs a kind of lowercase letters, digits and "-" (got ${JSON.stringify(kind)}).`);
  }
  for (const key of ['parse', 'shared', 'open'] as const) {
    if (typeof backend[key] !== 'function') throw new Error(`The store backend "${kind}" has no ${key}() function.`);
  }
  if (BUILT_IN.some((b) => b.kind === kind)) {
    throw new Error(`The store backend "${kind}" is built in: register yours under another kind.`);
  }
  registered.set(kind, backend);
}

/** The spec forms of this package's backends, for messages. */
export const STORE_SPECS = listForms(BUILT_IN);

/** `a, b, c or d`: the forms of `backends`. */
export function listForms(backends: readonly StoreBackend[]): string {
  const forms = backends.map((b) => b.forms);
  return forms.length < 2 ? (forms[0] ?? '') : `${forms.slice(0, -1).join(', ')} or ${forms[forms.length - 1]}`;
}
