/** What a connection to an MCP server is given, and what it reports as it lives. */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { SessionHandle } from '@skilltree/core';
import type { ServerSpec } from './transport.js';

/** Where a connection is in its life: `failed` never connected; `closed` was connected (or closed while connecting). */
export type McpConnectionStatus = 'connecting' | 'connected' | 'failed' | 'closed';

/** What `<McpTools>` renders from: replaced, never mutated, on every change. */
export interface ConnectionState {
  /** Where the connection is in its life. */
  status: McpConnectionStatus;
  /** The server's tools, as `tools/list` gave them (kept after the server goes away). */
  tools: McpTool[];
  /** Why the connection failed or closed, for the model and for inspectors. */
  error?: string;
  /** The server's `initialize` answer. */
  serverInfo?: { name: string; version: string };
  /** The server's instructions for the model, from its `initialize` answer. */
  instructions?: string;
  /** The stdio server's process id, while it runs. */
  pid?: number;
}

/** What a connection needs: the server, how to name it, how long to wait, and whose it is. */
export interface ConnectionOptions {
  spec: ServerSpec;
  /** How the server is named in messages. */
  label: string;
  connectTimeout: number;
  session: SessionHandle;
  skill: string | null;
}
