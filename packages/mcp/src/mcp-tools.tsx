/**
 * `<McpTools>`: an MCP server's tools as `<Tool>` elements. Mount = connect, unmount = close.
 */
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
import { getConnection, type McpConnection } from './connection.js';
import type { ConnectionState } from './connection-state.js';
import { MCP_LIMITS, type McpToolMeta, type McpToolsProps } from './mcp-tools-props.js';
import { toolNames } from './names.js';
import { formatToolResult, toToolResult } from './result.js';
import type { ServerSpec } from './transport.js';

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
