/**
 * `@skilltree/mcp`: an MCP server's tools inside a skilltree skill. Mount = connect, unmount = close.
 *
 * @packageDocumentation
 */
export type { McpConnectionStatus } from './connection-state.js';
export { McpTools } from './mcp-tools.js';
export {
  MCP_LIMITS,
  type McpCustomServer,
  type McpHttpServer,
  type McpStdioServer,
  type McpToolMeta,
  type McpToolsOptions,
  type McpToolsProps,
} from './mcp-tools-props.js';
export { toolNames } from './names.js';
export { formatBytes, formatToolResult, toToolResult } from './result.js';
