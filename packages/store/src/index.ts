/**
 * `@skilltree/store`: where `createSessions` keeps sessions. Each backend has its own subpath, so
 * you install only its driver: `@skilltree/store/sqlite` (nothing on Node 22.13+ and 24, which
 * have `node:sqlite`; better-sqlite3 on Node 20), `/postgres` (pg), `/redis` (ioredis). `/testing`
 * is the conformance suite every store passes. This entry point opens a store from a spec string,
 * as command lines and configuration files name them.
 *
 * @packageDocumentation
 */
import { resolve } from 'node:path';
import type { SessionStore } from '@skilltree/core';

export { SCHEMA_VERSION } from './common.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** Relative `sqlite:` paths resolve against this folder. Default: `process.cwd()`. */
  cwd?: string;
  /** Prefix of table names or keys (see each store's options). */
  prefix?: string;
}

/** What a store spec may look like, for error messages. */
export const STORE_SPECS = 'sqlite:<file>, postgres://…, redis://… or memory';

/** A parsed store spec: which backend, and what it connects to. */
export type StoreSpec =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; connectionString: string }
  | { kind: 'redis'; url: string };

/**
 * Parses a store spec as command lines and configuration files name stores: `memory`,
 * `sqlite:./sessions.db` (also `sqlite:///abs/path.db`, or a bare path ending in `.db`/`.sqlite`),
 * `postgres://…`/`postgresql://…`, `redis://…`/`rediss://…`. Relative SQLite paths resolve against
 * `cwd`. Throws, naming the spec and the accepted forms, for anything else.
 *
 * @example
 * parseStoreSpec('sqlite:./sessions.db', '/srv'); // { kind: 'sqlite', path: '/srv/sessions.db' }
 */
export function parseStoreSpec(spec: string, cwd: string = process.cwd()): StoreSpec {
  const value = spec.trim();
  if (value === 'memory' || value === 'memory:') return { kind: 'memory' };
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', connectionString: value };
  if (/^rediss?:\/\//i.test(value)) return { kind: 'redis', url: value };
  const prefixed = /^sqlite:/i.test(value);
  const file = prefixed
    ? value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
    : /\.(db|sqlite3?)$/i.test(value)
      ? value
      : null;
  if (file === null) throw new Error(`Unknown store "${spec}": use ${STORE_SPECS}.`);
  if (file === '') throw new Error('A sqlite: store needs a file, e.g. sqlite:./sessions.db.');
  return { kind: 'sqlite', path: file === ':memory:' ? file : resolve(cwd, file) };
}

/**
 * Opens the store a spec names (see {@link parseStoreSpec}), importing only that backend (and its
 * driver). `memory` is core's `memoryStore()`.
 *
 * @example
 * const store = await openStore(process.env.SESSION_STORE ?? 'sqlite:./sessions.db');
 */
export async function openStore(spec: string, options: OpenStoreOptions = {}): Promise<SessionStore> {
  const parsed = parseStoreSpec(spec, options.cwd);
  const prefix = options.prefix === undefined ? {} : { prefix: options.prefix };
  switch (parsed.kind) {
    case 'memory':
      return (await import('@skilltree/core')).memoryStore();
    case 'postgres': {
      const { postgresStore } = await driver('postgres', 'pg', () => import('./postgres.js'));
      return postgresStore({ connectionString: parsed.connectionString, ...prefix });
    }
    case 'redis': {
      const { redisStore } = await driver('redis', 'ioredis', () => import('./redis.js'));
      return redisStore({ url: parsed.url, ...prefix });
    }
    case 'sqlite': {
      // node:sqlite, or better-sqlite3 where Node has none: sqliteStore says what to install.
      const { sqliteStore } = await import('./sqlite.js');
      return sqliteStore({ path: parsed.path, ...prefix });
    }
  }
}

async function driver<T>(backend: string, pkg: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(pkg)) {
      throw new Error(`The ${backend} session store needs the "${pkg}" package: install it next to @skilltree/store.`);
    }
    throw error;
  }
}
