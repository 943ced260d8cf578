/**
 * Tool names: MCP allows names that model providers refuse (dots, slashes, long names). Each server
 * tool gets a name that matches `^[a-zA-Z0-9_-]{1,64}$`, with the prefix applied, unique within
 * one `<McpTools>`.
 */
import { TOOL_NAME_MAX_LENGTH as MAX, replaceToolNameChars } from '@skilltree/core/provider';

/**
 * The name each server tool is offered under, in the order given: `prefix + name` with every
 * character outside `[a-zA-Z0-9_-]` turned into `_`, cut to 64 characters, and made unique with a
 * `_2`, `_3`… suffix when two names collide.
 *
 * @example
 * toolNames(['repo.search', 'repo/search'], 'gh_'); // Map { 'repo.search' => 'gh_repo_search', 'repo/search' => 'gh_repo_search_2' }
 */
export function toolNames(names: readonly string[], prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const original of names) {
    if (out.has(original)) continue;
    const base = replaceToolNameChars(`${prefix}${original}`, '_').slice(0, MAX) || 'tool';
    let name = base;
    for (let n = 2; used.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX - suffix.length)}${suffix}`;
    }
    used.add(name);
    out.set(original, name);
  }
  return out;
}
