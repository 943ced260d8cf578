/**
 * `<McpTools>`: an MCP server's tools as `<Tool>` elements. Mount = connect, unmount = close.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import {
  Instructions,
  type JsonSchemaInput,
  jsonSchema,
  Text,
  Tool,
  type ToolContext,
  type ToolResult,
  useSession,
  useSkill,
} from '@skilltree/core';
import { type ReactNode, use, useEffect, useMemo, useReducer, useSyncExternalStore } from 'react';
import {
  type ConnectionState,
  getConnection,
  type McpConnection,
  type McpConnectionStatus,
  type ServerSpec,
} from './connection.js';
import { toolNames } from './names.js';
import { formatToolResult, toToolResult } from './result.js';

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

/** The enclosing skill's name, or null at agent level. */
function useSkillName(): string | null {
  try {
    // useSkill() always reads the context before it throws, so the hook order never changes.
    // biome-ignore lint/correctness/useHookAtTopLevel: see above; core exports no optional variant
    return useSkill().name;
  } catch {
    return null;
  }
}

function serverSpec(props: McpToolsProps): ServerSpec {
  const given = [props.command !== undefined, props.url !== undefined, props.transport !== undefined];
  if (given.filter(Boolean).length !== 1) {
    throw new Error(
      '<McpTools> needs exactly one of command="…" (a stdio server), url="http://…/mcp" (Streamable HTTP) or transport={() => …}.',
    );
  }
  if (props.command !== undefined) {
    if (typeof props.command !== 'string' || props.command.trim() === '') {
      throw new Error(`<McpTools command> needs the executable to run (got ${JSON.stringify(props.command)}).`);
    }
    return {
      kind: 'stdio',
      command: props.command,
      args: [...(props.args ?? [])].map(String),
      env: props.env ? { ...props.env } : undefined,
      cwd: props.cwd,
      stderr: props.stderr ?? 'pipe',
    };
  }
  if (props.url !== undefined) {
    const url = String(props.url);
    if (!/^https?:\/\//i.test(url)) {
      throw new Error(`<McpTools url> needs an http:// or https:// URL (got ${JSON.stringify(url)}).`);
    }
    return { kind: 'http', url, headers: props.headers ? { ...props.headers } : undefined };
  }
  if (typeof props.transport !== 'function') {
    throw new Error('<McpTools transport> needs a function that returns a new Transport for each connection.');
  }
  return { kind: 'custom', transport: props.transport };
}

function describe(spec: ServerSpec): string {
  if (spec.kind === 'http') return spec.url;
  if (spec.kind === 'custom') return 'custom';
  const line = [spec.command, ...spec.args].join(' ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** Same server, same skill, same session: one connection. */
function connectionKey(skill: string | null, spec: ServerSpec, name: string | undefined): string {
  if (spec.kind === 'custom') return JSON.stringify([skill, 'custom', name ?? '']);
  if (spec.kind === 'http') return JSON.stringify([skill, 'http', spec.url, spec.headers ?? null]);
  return JSON.stringify([skill, 'stdio', spec.command, spec.args, spec.env ?? null, spec.cwd ?? null]);
}

const inputs = new WeakMap<McpTool, { input: JsonSchemaInput; size: number }>();

/** The tool's input schema for `<Tool input>`, and its size as JSON, made once per listed tool. */
function inputOf(tool: McpTool): { input: JsonSchemaInput; size: number } {
  let made = inputs.get(tool);
  if (!made) {
    const given = tool.inputSchema && typeof tool.inputSchema === 'object' ? tool.inputSchema : { type: 'object' };
    // As for zod inputs, the model gets the schema without its `$schema` dialect line.
    const { $schema: _dialect, ...schema } = given as Record<string, unknown>;
    made = { input: jsonSchema(schema), size: JSON.stringify(schema).length };
    inputs.set(tool, made);
  }
  return made;
}

interface Offered {
  name: string;
  tool: McpTool;
  description: string;
  input: JsonSchemaInput;
}

const fmt = new Intl.NumberFormat('en-US');

/** The caps on what a server writes into the request (see {@link MCP_LIMITS}). */
interface Caps {
  description: number;
  inputSchema: number;
}

/** The tools to offer, each capped; `warnings` say what was cut or left out, and why. */
function offeredTools(
  tools: McpTool[],
  prefix: string,
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
  label: string,
  caps: Caps,
): { offered: Offered[]; warnings: string[] } {
  const kept = tools.filter((t) => (!include || include.includes(t.name)) && !exclude?.includes(t.name));
  const names = toolNames(
    kept.map((t) => t.name),
    prefix,
  );
  const seen = new Set<string>();
  const offered: Offered[] = [];
  const warnings: string[] = [];
  for (const tool of kept) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    const { input, size } = inputOf(tool);
    if (size > caps.inputSchema) {
      warnings.push(
        `MCP server "${label}": the input schema of tool "${tool.name}" is ${fmt.format(size)} characters of JSON, ` +
          `more than the ${fmt.format(caps.inputSchema)} allowed; the tool is not offered. ` +
          'Raise <McpTools maxInputSchemaChars>, or leave it out with exclude.',
      );
      continue;
    }
    let description = tool.description ?? tool.title ?? `Tool "${tool.name}" of MCP server "${label}".`;
    const chars = [...description];
    if (chars.length > caps.description) {
      description = `${chars.slice(0, caps.description - 1).join('')}…`;
      warnings.push(
        `MCP server "${label}": the description of tool "${tool.name}" is ${fmt.format(chars.length)} characters, ` +
          `more than the ${fmt.format(caps.description)} allowed; it was cut to ${fmt.format(caps.description)} ` +
          '(raise <McpTools maxDescriptionChars> to keep more).',
      );
    }
    offered.push({ name: names.get(tool.name)!, tool, description, input });
  }
  return { offered, warnings };
}

/** A cap prop: a whole number from 1 up, else the default, with an error that says so. */
function capOf(value: number | undefined, fallback: number, prop: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`<McpTools ${prop}> must be a whole number from 1 up (got ${String(value)}).`);
  }
  return value;
}

function statusLine(label: string, state: ConnectionState, offered: number): string | null {
  switch (state.status) {
    case 'connecting':
      return `MCP server "${label}": connecting…`;
    case 'failed':
      return `MCP server "${label}" failed: ${state.error ?? 'unknown error'}. Its tools are not available.`;
    case 'closed':
      return `MCP server "${label}" is gone: ${state.error ?? 'connection closed'}. Its tools no longer work.`;
    default:
      return offered === 0 ? `MCP server "${label}": connected, no tools to offer.` : null;
  }
}

/** The longest delay `setTimeout` takes (about 24.8 days). */
const MAX_TIMER = 2 ** 31 - 1;

async function runTool(
  connection: McpConnection,
  original: string,
  input: unknown,
  ctx: ToolContext,
  timeout: number | undefined,
): Promise<string | ToolResult> {
  const args = (input ?? {}) as Record<string, unknown>;
  // The session enforces the timeout: it aborts ctx.signal, which cancels the request. The SDK's own
  // request timeout (60 s by default) must not cut in first, so it is set later than the session's.
  const result = await connection.callTool(original, args, {
    signal: ctx.signal,
    timeout: timeout !== undefined ? timeout + 1000 : MAX_TIMER,
  });
  // An error result is text (an error carries no files); any other maps to text and file parts.
  if ((result as { isError?: unknown }).isError === true) throw new Error(formatToolResult(result));
  return toToolResult(result);
}

/**
 * An MCP server's tools, as tools of the skill (or the agent) that renders this element.
 *
 * On mount it connects with the official SDK (`command` spawns a stdio server, `url` speaks
 * Streamable HTTP, `transport` takes any SDK transport), lists the server's tools and renders one
 * `<Tool>` per tool: the input is validated against the tool's JSON Schema, calls go to
 * `tools/call`, text content becomes the result's text and images and embedded resources its file
 * parts (see {@link toToolResult}), an `isError` result or a protocol error becomes an error result. `notifications/tools/list_changed` re-lists. On unmount (the skill unloads) the
 * connection closes and a stdio server's process exits; loading the skill again reconnects.
 *
 * Inside a skill it suspends until the tools are listed. While connecting, or when the server
 * failed or went away, a `<Text>` line tells the model; the session goes on.
 *
 * @example
 * <Skill name="files" description="Read and write project files">
 *   <McpTools command="npx" args={['-y', '@modelcontextprotocol/server-filesystem', './data']} prefix="fs_" />
 * </Skill>
 */
export function McpTools(props: McpToolsProps): ReactNode {
  const session = useSession();
  const skill = useSkillName();
  const spec = serverSpec(props);
  const label = props.name ?? describe(spec);
  const key = connectionKey(skill, spec, props.name);
  const connection = getConnection(key, {
    spec,
    label,
    connectTimeout: props.connectTimeout ?? 30_000,
    session,
    skill,
  });
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const release = connection.retain();
    // Closed before this commit (it waited too long): render again to connect anew.
    if (connection.evicted) refresh();
    return release;
  }, [connection]);
  const state = useSyncExternalStore(connection.subscribe, connection.getState, connection.getState);

  const { prefix = '', include, exclude, timeout } = props;
  const maxDescription = capOf(props.maxDescriptionChars, MCP_LIMITS.description, 'maxDescriptionChars');
  const maxSchema = capOf(props.maxInputSchemaChars, MCP_LIMITS.inputSchema, 'maxInputSchemaChars');
  const includeKey = include ? JSON.stringify(include) : '';
  const excludeKey = exclude ? JSON.stringify(exclude) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: include/exclude are compared by value
  const { offered, warnings } = useMemo(
    () =>
      offeredTools(state.tools, prefix, include, exclude, label, {
        description: maxDescription,
        inputSchema: maxSchema,
      }),
    [state.tools, prefix, includeKey, excludeKey, label, maxDescription, maxSchema],
  );
  useEffect(() => {
    for (const warning of warnings) session.warn(warning, `mcp:${label}`);
  }, [warnings, label, session]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: include is compared by value
  useEffect(() => {
    if (state.status !== 'connected' || !include) return;
    const missing = include.filter((name) => !state.tools.some((t) => t.name === name));
    if (missing.length > 0) {
      session.warn(
        `<McpTools include> names tools that MCP server "${label}" does not have: ${missing.join(', ')}.`,
        `mcp:${label}`,
      );
    }
  }, [state, includeKey, label, session]);

  // Called on every render while suspending is on (React wants use() at the same place each time);
  // once connected the promise is fulfilled and use() returns at once.
  if (props.suspend ?? skill !== null) use(connection.ready);

  const line = statusLine(label, state, offered.length);
  const meta = (tool: McpTool): McpToolMeta => {
    const m: McpToolMeta = { kind: 'mcp', server: label, state: state.status, transport: spec.kind, tool: tool.name };
    if (tool.title) m.title = tool.title;
    if (tool.annotations) m.annotations = { ...tool.annotations };
    if (state.serverInfo) m.serverInfo = state.serverInfo;
    if (state.pid !== undefined) m.pid = state.pid;
    if (state.error !== undefined) m.error = state.error;
    return m;
  };
  return (
    <>
      {line !== null && <Text>{line}</Text>}
      {props.serverInstructions && state.instructions && <Instructions>{state.instructions}</Instructions>}
      {offered.map(({ name, tool, description, input }) => (
        <Tool
          key={name}
          name={name}
          description={description}
          input={input}
          timeout={timeout}
          meta={meta(tool)}
          run={(input, ctx) => runTool(connection, tool.name, input, ctx, timeout)}
        />
      ))}
    </>
  );
}
