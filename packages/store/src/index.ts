/**
 * `@skilltree/store`: where `createSessions` keeps sessions. Each backend has its own subpath, so
 * you install only its driver: `@skilltree/store/sqlite` (nothing on Node 22.13+ and 24, which
 * have `node:sqlite`; better-sqlite3 on Node 20), `/postgres` (pg), `/redis` (ioredis). `/testing`
 * is the conformance suite every store passes. This entry point parses and opens a store from a
 * spec string, as command lines and configuration files name them, through the table of backends
 * (`backends.ts`).
 *
 * @packageDocumentation
 */
import type { SessionStore } from '@skilltree/core';
import { type CommonStoreOptions, listForms, type StoreBackend, type StoreOptions, storeBackends } from './backends.js';

export {
  type CommonStoreOptions,
  loadBackend,
  registerStoreBackend,
  STORE_SPECS,
  type StoreBackend,
  type StoreOptions,
  storeBackends,
} from './backends.js';
export { SCHEMA_VERSION } from './common.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions extends CommonStoreOptions {
  /** Relative `sqlite:` paths resolve against this folder. Default: `process.cwd()`. */
  cwd?: string;
}

/**
 * A parsed store spec: the backend's `kind` and the options it opens with, e.g.
 * `{ kind: 'sqlite', path: '/srv/sessions.db' }`, `{ kind: 'postgres', connectionString }`,
 * `{ kind: 'redis', url }` or `{ kind: 'memory' }`.
 */
export interface StoreSpec {
  readonly kind: string;
  readonly [option: string]: unknown;
}

function backendOf(spec: StoreSpec): StoreBackend {
  const backend = storeBackends().find((b) => b.kind === spec?.kind);
  if (!backend) {
    throw new Error(`Unknown store kind "${String(spec?.kind)}": use ${listForms(storeBackends())}.`);
  }
  return backend;
}

function optionsOf(spec: StoreSpec): StoreOptions {
  const { kind: _, ...options } = spec;
  return options;
}

/**
 * Parses a store spec as command lines and configuration files name stores: `memory`,
 * `sqlite:./sessions.db` (also `sqlite:///abs/path.db`, or a bare path ending in `.db`/`.sqlite`),
 * `postgres://…`/`postgresql://…`, `redis://…`/`rediss://…`, and the forms of any registered
 * backend. Relative SQLite paths resolve against `cwd`. Throws, naming the spec and the accepted
 * forms, for anything else.
 *
 * @example
 * parseStoreSpec('sqlite:./sessions.db', '/srv'); // { kind: 'sqlite', path: '/srv/sessions.db' }
 */
export function parseStoreSpec(spec: string, cwd: string = process.cwd()): StoreSpec {
  const value = typeof spec === 'string' ? spec.trim() : '';
  const backends = storeBackends();
  for (const backend of backends) {
    const options = backend.parse(value, cwd);
    if (options !== undefined) return { kind: backend.kind, ...options };
  }
  throw new Error(`Unknown store "${spec}": use ${listForms(backends)}.`);
}

/**
 * Whether processes on one machine can share the store `spec` names (several workers on one port
 * need one): not `memory` nor `sqlite::memory:`.
 *
 * @example
 * isSharedStore(parseStoreSpec('sqlite:./sessions.db')); // true
 */
export function isSharedStore(spec: StoreSpec): boolean {
  return backendOf(spec).shared(optionsOf(spec));
}

/**
 * Opens the store a spec names (a string, see {@link parseStoreSpec}, or a parsed spec), importing
 * only that backend (and its driver). `memory` is core's `memoryStore()`. A store that cannot be
 * opened (a SQLite file in a folder that cannot be written) fails before anything is imported.
 *
 * @example
 * const store = await openStore(process.env.SESSION_STORE ?? 'sqlite:./sessions.db');
 */
export async function openStore(spec: string | StoreSpec, options: OpenStoreOptions = {}): Promise<SessionStore> {
  const parsed = typeof spec === 'string' ? parseStoreSpec(spec, options.cwd) : spec;
  const backend = backendOf(parsed);
  const own = optionsOf(parsed);
  backend.check?.(own);
  return backend.open(own, options.prefix === undefined ? {} : { prefix: options.prefix });
}
