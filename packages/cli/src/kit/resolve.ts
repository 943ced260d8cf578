/**
 * Packages as the agent module sees them. The module's own `react` and `@skilltree/core` must be
 * the ones its sessions use (one instance for hooks and context), and its own `@skilltree/store`
 * and `@skilltree/models` hold the backends and providers its project installed or registered.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Imports `specifier` as the file `from` resolves it, when the module found passes `usable`;
 * null when the file does not see the package (or sees one too old to use).
 *
 * @example
 * const core = await importNextTo(agentPath, '@skilltree/core', (m): m is CoreModule => typeof m?.createSession === 'function');
 */
export async function importNextTo<T>(
  from: string,
  specifier: string,
  usable: (mod: any) => mod is T,
): Promise<T | null> {
  try {
    const resolved = createRequire(from).resolve(specifier);
    const mod: unknown = await import(pathToFileURL(resolved).href);
    return usable(mod) ? mod : null;
  } catch {
    return null;
  }
}
