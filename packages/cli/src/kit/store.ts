/**
 * `--store` for `skilltree serve`: `memory` (core's memoryStore), `sqlite:<file>`, `postgres://…` or
 * `redis://…` (from `@skilltree/store`, resolved next to the agent module first, then next to the CLI).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { SessionStore } from '@skilltree/core';
import { parseStoreSpec as parse, type StoreSpec } from '@skilltree/store';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';

/** A parsed `--store` value (the forms `@skilltree/store` takes). */
export type { StoreSpec };

/**
 * Parses `--store` with `@skilltree/store`'s parser. Throws a usage error for anything it refuses.
 *
 * @example
 * parseStoreSpec('sqlite:./sessions.db', '/work'); // { kind: 'sqlite', path: '/work/sessions.db' }
 */
export function parseStoreSpec(spec: string, cwd: string): StoreSpec {
  try {
    return parse(spec, cwd);
  } catch (error) {
    throw new CliError(`--store: ${errorMessage(error)}`, USAGE_ERROR);
  }
}

/** The store as it may be shown (no password). */
export function describeStore(spec: StoreSpec): string {
  switch (spec.kind) {
    case 'memory':
      return 'memory (lost on exit)';
    case 'sqlite':
      return `sqlite:${spec.path}`;
    case 'postgres':
    case 'redis': {
      const raw = spec.kind === 'postgres' ? spec.connectionString : spec.url;
      try {
        const url = new URL(raw);
        if (url.password) url.password = '***';
        return url.toString();
      } catch {
        return spec.kind;
      }
    }
  }
}

/** Whether processes on this machine can share the store (`--workers` needs one). */
export function isShared(spec: StoreSpec): boolean {
  return spec.kind !== 'memory' && !(spec.kind === 'sqlite' && spec.path === ':memory:');
}

const DRIVERS = { sqlite: 'better-sqlite3', postgres: 'pg', redis: 'ioredis' } as const;

/** Imports `@skilltree/store/<kind>`, next to `modulePath` first. */
async function importStore(
  kind: 'sqlite' | 'postgres' | 'redis',
  modulePath: string,
): Promise<Record<string, unknown>> {
  const specifier = `@skilltree/store/${kind}`;
  let resolved: string | null = null;
  for (const from of [modulePath, import.meta.url]) {
    try {
      resolved = createRequire(from).resolve(specifier);
      break;
    } catch {
      // Not installed there.
    }
  }
  if (!resolved) {
    throw new CliError(
      `--store ${kind} needs @skilltree/store and its driver: install them next to your agent (npm install @skilltree/store ${DRIVERS[kind]}), or use --store memory.`,
    );
  }
  try {
    return (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
  } catch (error) {
    const message = errorMessage(error);
    if (message.includes(`'${DRIVERS[kind]}'`) || message.includes(`"${DRIVERS[kind]}"`)) {
      throw new CliError(`--store ${kind} needs the ${DRIVERS[kind]} driver: npm install ${DRIVERS[kind]}.`);
    }
    throw new CliError(`Could not load ${specifier}: ${message}`);
  }
}

/**
 * Opens the store `spec` names. `memoryStore` is the agent's own core's (sessions must come from the
 * same copy of `@skilltree/core` as the agent's hooks).
 */
export async function openStore(
  spec: StoreSpec,
  modulePath: string,
  memoryStore: () => SessionStore,
): Promise<SessionStore> {
  if (spec.kind === 'memory') return memoryStore();
  const mod = await importStore(spec.kind, modulePath);
  const name = `${spec.kind}Store`;
  const factory = mod[name];
  if (typeof factory !== 'function') throw new CliError(`@skilltree/store/${spec.kind} does not export ${name}().`);
  const options =
    spec.kind === 'sqlite'
      ? { path: spec.path }
      : spec.kind === 'postgres'
        ? { connectionString: spec.connectionString }
        : { url: spec.url };
  try {
    return (factory as (options: object) => SessionStore)(options);
  } catch (error) {
    throw new CliError(`Could not open the ${spec.kind} store: ${errorMessage(error)}`);
  }
}
