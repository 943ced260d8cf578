/** The props of `<McpTools>`: which server (a command, a URL or a transport), and the options any server takes. */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConnectionStatus } from './connection-state.js';

/** A server started as a child process that speaks MCP over stdin/stdout. */
export interface McpStdioServer {
  /** The executable, e.g. `npx` or `node`. */
  command: string;
  args?: readonly string[];
  /**
   * Extra environment variables. The process gets these on top of a safe default set (`PATH`,
   * `HOME`, `USER`, `SHELL`, `TERM`…), not the whole environment of this process.
   */
  env?: Readonly<Record<string, string>>;
  /** The working directory of the process. Default: this process's. */
  cwd?: string;
  /**
   * Where the server's stderr goes. Default `'pipe'`: kept (the last few KB) so that a server that
   * fails to start or dies is reported with what it printed. `'inherit'` prints it here instead.
   */
  stderr?: 'pipe' | 'inherit' | 'ignore';
  url?: never;
  headers?: never;
  transport?: never;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string | URL;
  /** Headers sent with every request (an `Authorization` header, say). */
  headers?: Readonly<Record<string, string>>;
  command?: never;
  args?: never;
  env?: never;
  cwd?: never;
  stderr?: never;
  transport?: never;
}

/**
 * A server reached over a transport you make: an in-process server over the SDK's
 * `InMemoryTransport`, or any other `Transport`. The function is called once per connection.
 */
export interface McpCustomServer {
  /** Returns a fresh, unstarted transport for each connection. */
  transport: () => Transport | Promise<Transport>;
  command?: never;
  args?: never;
  env?: never;
  cwd?: never;
  stderr?: never;
  url?: never;
  headers?: never;
}

/** Props of {@link McpTools} that do not depend on the transport. */
export interface McpToolsOptions {
  /**
   * How the server is named to the model and in inspectors. Default: the URL, or the command line.
   * Two `<McpTools transport>` in one skill need different names.
   */
  name?: string;
  /**
   * Put before every tool name, verbatim (`prefix="gh_"` offers `create_issue` as `gh_create_issue`).
   * Names are then made valid (`^[a-zA-Z0-9_-]{1,64}$`: other characters become `_`) and unique.
   */
  prefix?: string;
  /** Offer only these tools (the server's own names). */
  include?: readonly string[];
  /** Offer every tool but these (the server's own names). */
  exclude?: readonly string[];
  /** Milliseconds before a call becomes an error result. Default: the session's tool timeout (60 s). */
  timeout?: number;
  /** Milliseconds to start, initialize and list the server's tools before it counts as failed. Default 30 000. */
  connectTimeout?: number;
  /** Render the instructions the server sends in its `initialize` answer, as `<Instructions>`. Default false. */
  serverInstructions?: boolean;
  /**
   * Suspend (React Suspense) until the server's tools are listed, so that the read that loads the
   * skill already offers them. Default: true inside a `<Skill>`, false at agent level (where the
   * agent renders "connecting…" and offers the tools once they are listed).
   */
  suspend?: boolean;
  /**
   * The most characters (code points) of a tool's description the model gets, as for a `SKILL.md`
   * description: a longer one is cut (its last character `…`) and the session warns. Every request
   * carries the descriptions of the tools offered. Default {@link MCP_LIMITS}`.description` (1,024).
   */
  maxDescriptionChars?: number;
  /**
   * The most characters a tool's input schema may take as JSON. A tool whose schema is larger is not
   * offered, and the session warns with its size. Default {@link MCP_LIMITS}`.inputSchema` (16,000).
   */
  maxInputSchemaChars?: number;
}

/**
 * What `<McpTools>` takes from a server per tool, at most, unless its props say otherwise: the
 * server writes this text, and every request carries it. `description` is the Agent Skills cap on a
 * `SKILL.md` description (1,024 characters); `inputSchema` (16,000 characters of JSON, about 4,000
 * tokens) is several times what tools with many parameters need.
 */
export const MCP_LIMITS = { description: 1024, inputSchema: 16_000 } as const;

/** Props of {@link McpTools}: one of `command`, `url` or `transport`, plus {@link McpToolsOptions}. */
export type McpToolsProps = McpToolsOptions & (McpStdioServer | McpHttpServer | McpCustomServer);

/** What each MCP tool's `<Tool meta>` holds, for inspectors (the playground). */
export interface McpToolMeta {
  kind: 'mcp';
  /** The server's name, as `name` or the URL or command line gives it. */
  server: string;
  /** `connecting`, `connected`, `failed` (never connected) or `closed` (the server went away). */
  state: McpConnectionStatus;
  transport: 'stdio' | 'http' | 'custom';
  /** The tool's name on the server (the model sees the sanitised, prefixed one). */
  tool: string;
  /** The tool's `title` and `annotations` (`readOnlyHint`, `destructiveHint`…), as the server lists them. */
  title?: string;
  annotations?: Record<string, unknown>;
  /** The server's own name and version, from its `initialize` answer. */
  serverInfo?: { name: string; version: string };
  /** The stdio server's process id, while it runs. */
  pid?: number;
  /** Why it failed or closed. */
  error?: string;
  [key: string]: unknown;
}
