/**
 * `@skilltree/store`: where `createSessions` keeps sessions. Each backend has its own subpath, so
 * you install only its driver: `@skilltree/store/sqlite` (better-sqlite3), `/postgres` (pg),
 * `/redis` (ioredis). `/testing` is the conformance suite every store passes. This entry point
 * opens a store from a spec string, as command lines and configuration files name them.
 *
 * @packageDocumentation
 */
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

/**
 * Opens the store a spec names, importing only that backend (and its driver):
 * `sqlite:./sessions.db` (or a path ending in `.db`/`.sqlite`), `postgres://…` or
 * `postgresql://…`, `redis://…` or `rediss://…`, and `memory` (core's `memoryStore()`).
 *
 * @example
 * const store = await openStore(process.env.SESSION_STORE ?? 'sqlite:./sessions.db');
 */
export async function openStore(spec: string, options: OpenStoreOptions = {}): Promise<SessionStore> {
  const value = spec.trim();
  const prefix = options.prefix === undefined ? {} : { prefix: options.prefix };
  if (value === 'memory' || value === 'memory:') return (await import('@skilltree/core')).memoryStore();
  if (/^postgres(ql)?:\/\//i.test(value)) {
    const { postgresStore } = await driver('postgres', 'pg', () => import('./postgres.js'));
    return postgresStore({ connectionString: value, ...prefix });
  }
  if (/^rediss?:\/\//i.test(value)) {
    const { redisStore } = await driver('redis', 'ioredis', () => import('./redis.js'));
    return redisStore({ url: value, ...prefix });
  }
  const file = value.startsWith('sqlite:')
    ? value.slice('sqlite:'.length)
    : /\.(db|sqlite3?)$/i.test(value)
      ? value
      : '';
  if (file === '') throw new Error(`Unknown session store "${spec}": use ${STORE_SPECS}.`);
  const { sqliteStore } = await driver('sqlite', 'better-sqlite3', () => import('./sqlite.js'));
  const { resolve } = await import('node:path');
  return sqliteStore({ path: file === ':memory:' ? file : resolve(options.cwd ?? process.cwd(), file), ...prefix });
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
