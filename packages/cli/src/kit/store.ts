/**
 * `--store` for every command: `@skilltree/store` parses and opens the spec (its table of backends
 * decides what a spec means), resolved next to the agent module first, so that the backends the
 * module's project installed or registered are the ones used; the CLI's own copy otherwise.
 */
import type { SessionStore } from '@skilltree/core';
import type { StoreSpec } from '@skilltree/store';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';
import { importNextTo } from './resolve.js';

/** The `@skilltree/store` entry point. */
type StorePackage = typeof import('@skilltree/store');

/** A `--store` value, parsed by the store package the agent module sees. */
export interface StoreChoice {
  /** The spec as given. */
  flag: string;
  spec: StoreSpec;
  /** Whether processes on this machine can share it (`serve --workers` needs one). */
  shared: boolean;
  /** Opens it (a SQLite file that cannot be written fails here, before any model is called). */
  open(): Promise<SessionStore>;
}

function usable(mod: Partial<StorePackage> | null): mod is StorePackage {
  return (
    typeof mod?.parseStoreSpec === 'function' &&
    typeof mod.openStore === 'function' &&
    typeof mod.isSharedStore === 'function'
  );
}

/** `@skilltree/store` as the module at `modulePath` resolves it (one too old to parse specs counts as none), else the CLI's own. */
async function storePackage(modulePath: string): Promise<StorePackage> {
  return (await importNextTo(modulePath, '@skilltree/store', usable)) ?? import('@skilltree/store');
}

/**
 * Parses `flag` with the store package next to `modulePath` (relative SQLite paths against `cwd`).
 * Throws a usage error, naming the forms it takes, for a spec no backend takes.
 *
 * @example
 * const store = await chooseStore('redis://localhost:6379', agent.path, process.cwd());
 * const sessions = await store.open();
 */
export async function chooseStore(flag: string, modulePath: string, cwd: string): Promise<StoreChoice> {
  const pkg = await storePackage(modulePath);
  let spec: StoreSpec;
  try {
    spec = pkg.parseStoreSpec(flag, cwd);
  } catch (error) {
    throw new CliError(`--store: ${errorMessage(error)}`, USAGE_ERROR);
  }
  return {
    flag,
    spec,
    shared: pkg.isSharedStore(spec),
    async open() {
      try {
        return await pkg.openStore(spec, { cwd });
      } catch (error) {
        throw new CliError(errorMessage(error));
      }
    },
  };
}
