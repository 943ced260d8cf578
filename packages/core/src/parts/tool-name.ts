/**
 * The one rule for tool names, which skill names and the read tool's name follow too: what every
 * provider accepts (Anthropic's rule, the strictest). Core checks rendered names with it; the
 * packages that make names from outside text (Agent Skills folders, MCP servers) clean with it.
 */

/** The longest tool name the providers accept. */
export const TOOL_NAME_MAX_LENGTH = 64;

/** A name the providers accept for a tool: `^[a-zA-Z0-9_-]{1,64}$`. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Whether `name` is a tool name the providers accept ({@link TOOL_NAME}).
 *
 * @example
 * isToolName('add_to_cart'); // true
 * isToolName('repo.search'); // false
 */
export function isToolName(name: unknown): boolean {
  return typeof name === 'string' && TOOL_NAME.test(name);
}

/**
 * `text` with each character a tool name may not hold replaced by `replacement` (with `runs`, each
 * run of them by one `replacement`). The length is not cut: see {@link TOOL_NAME_MAX_LENGTH}.
 *
 * @example
 * replaceToolNameChars('repo.search', '_'); // 'repo_search'
 * replaceToolNameChars('PDF  Tools!', '-', true); // 'PDF-Tools-'
 */
export function replaceToolNameChars(text: string, replacement: string, runs = false): string {
  return text.replace(runs ? /[^a-zA-Z0-9_-]+/g : /[^a-zA-Z0-9_-]/g, replacement);
}
