/**
 * One connection to an MCP server, shared by the `<McpTools>` elements that name the same server in
 * the same skill of the same session. Rendering may start it (so that a suspended first render has
 * something to wait for); effects retain and release it; the last release closes it, which ends a
 * stdio server's process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { SessionHandle } from '@skilltree/core';
import type { ConnectionOptions, ConnectionState } from './connection-state.js';
import { formatBytes } from './result.js';
import { makeTransport } from './transport.js';

const CLIENT_INFO = { name: 'skilltree', version: '0.1.0' };

/**
 * What the SDK's stdio transport reports when a message from the server is larger than its read
 * buffer (10 MB by default): it drops the message and closes the connection, which would otherwise
 * read as "the server process exited".
 */
const OVERSIZE = /exceeded maximum size of (\d+) bytes/;
/** How long a connection that rendering started may wait for the effect that retains it. */
const ORPHAN_LIMIT = 60_000;
const ORPHAN_CHECK = 500;
const STDERR_TAIL = 4096;

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // A server that throws an McpError sends its message with the prefix, and the client adds it again.
  let text = error.message.replace(/(MCP error -?\d+: )+/g, '$1');
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && !text.includes(cause.message)) text += ` (${cause.message})`;
  return text;
}

/**
 * Whether the session has been disposed. `SessionHandle` does not say; the handle components get is
 * the `Session` itself, whose `disposed` getter does.
 */
function isDisposed(session: SessionHandle): boolean {
  return (session as { disposed?: unknown }).disposed === true;
}

/** Live connections: every one is retained, connecting, or waiting for its close to finish. */
const live = new Set<McpConnection>();

/** Open connections right now, across sessions (for tests and leak checks). */
export function openConnections(): number {
  return live.size;
}

export class McpConnection {
  readonly key: string;
  readonly ready: Promise<void>;
  #state: ConnectionState = { status: 'connecting', tools: [] };
  readonly #options: ConnectionOptions;
  readonly #listeners = new Set<() => void>();
  readonly #evict: (connection: McpConnection) => void;
  #client: Client | null = null;
  #transport: Transport | null = null;
  #retainers = 0;
  #everRetained = false;
  #closing = false;
  #evicted = false;
  #closeTimer: ReturnType<typeof setTimeout> | undefined;
  #orphanTimer: ReturnType<typeof setInterval> | undefined;
  #stderr = '';
  /** The SDK's size limit, once a message from the server went over it. */
  #oversize: number | null = null;
  #relisting: Promise<void> | null = null;
  #relistAgain = false;
  readonly #created = Date.now();

  constructor(key: string, options: ConnectionOptions, evict: (connection: McpConnection) => void) {
    this.key = key;
    this.#options = options;
    this.#evict = evict;
    live.add(this);
    // Marked fulfilled the way React's use() reads a thenable, so that a render after the connect
    // does not suspend again for a promise that has already settled.
    const ready = this.#open().then(() => {
      Object.assign(ready, { status: 'fulfilled', value: undefined });
    });
    this.ready = ready;
    this.#orphanTimer = setInterval(() => this.#checkOrphan(), ORPHAN_CHECK);
    this.#orphanTimer.unref?.();
  }

  get label(): string {
    return this.#options.label;
  }

  /**
   * False for a connection that failed or lost its server and that every owner has released: a
   * skill read again right after unloading must connect anew, not find the dead one.
   */
  get reusable(): boolean {
    return !(this.#everRetained && this.#retainers === 0 && this.#closing);
  }

  /** True once closed by its owners: the next render makes a new connection. */
  get evicted(): boolean {
    return this.#evicted;
  }

  /** The current state; a new object after every change (a `useSyncExternalStore` snapshot). */
  getState = (): ConnectionState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** Keeps the connection open until the returned function is called. */
  retain(): () => void {
    this.#retainers++;
    this.#everRetained = true;
    clearTimeout(this.#closeTimer);
    this.#closeTimer = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#retainers--;
      if (this.#retainers > 0) return;
      // StrictMode runs cleanup and setup again in the same commit: close only if nobody came back.
      clearTimeout(this.#closeTimer);
      this.#closeTimer = setTimeout(() => {
        if (this.#retainers === 0) void this.close();
      }, 0);
    };
  }

  #set(patch: Partial<ConnectionState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }

  #warn(message: string): void {
    try {
      if (!isDisposed(this.#options.session)) this.#options.session.warn(message, `mcp:${this.label}`);
    } catch {
      // A warning must never break the connection.
    }
  }

  /** The last lines the server wrote to stderr, for failure messages. */
  #stderrTail(): string {
    const lines = this.#stderr
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const tail = lines.slice(-3).join(' | ');
    return tail.length > 300 ? `…${tail.slice(-300)}` : tail;
  }

  #withStderr(reason: string): string {
    const tail = this.#stderrTail();
    return tail ? `${reason} (stderr: ${tail})` : reason;
  }

  async #open(): Promise<void> {
    const { connectTimeout } = this.#options;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const client = new Client(CLIENT_INFO, { capabilities: {} });
      this.#client = client;
      client.onclose = () => this.#onClosed();
      client.onerror = (error) => {
        const over = OVERSIZE.exec(errorText(error));
        if (over) this.#oversize = Number(over[1]);
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#relist());
      const transport = await makeTransport(this.#options.spec, (text) => {
        this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
      });
      this.#transport = transport;
      if (this.#closing) {
        await transport.close().catch(() => {});
        return;
      }
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the server did not answer within ${connectTimeout} ms`)),
          connectTimeout,
        );
      });
      timedOut.catch(() => {});
      await Promise.race([client.connect(transport, { timeout: connectTimeout }), timedOut]);
      if (this.#closing) return await this.#shutdown();
      const tools = await Promise.race([this.#listAll(), timedOut]);
      clearTimeout(timer);
      if (this.#closing) return await this.#shutdown();
      const info = client.getServerVersion();
      const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
      this.#set({
        status: 'connected',
        tools,
        serverInfo: info ? { name: info.name, version: info.version } : undefined,
        instructions: client.getInstructions() || undefined,
        pid,
      });
    } catch (error) {
      clearTimeout(timer);
      if (this.#closing) return await this.#shutdown();
      this.#closing = true;
      this.#set({ status: 'failed', error: this.#failure(error) });
      await this.#shutdown();
    }
  }

  #failure(error: unknown): string {
    const { spec } = this.#options;
    const code = (error as { code?: unknown } | null)?.code;
    if (spec.kind === 'stdio' && code === 'ENOENT') return `could not start "${spec.command}": command not found`;
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return this.#withStderr('the server closed the connection before it was ready');
    }
    return this.#withStderr(errorText(error));
  }

  async #listAll(): Promise<McpTool[]> {
    const client = this.#client!;
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.#options.connectTimeout });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** `notifications/tools/list_changed`: lists again (once more if another arrives meanwhile). */
  #relist(): void {
    if (this.#relisting) {
      this.#relistAgain = true;
      return;
    }
    this.#relisting = (async () => {
      do {
        this.#relistAgain = false;
        try {
          const tools = await this.#listAll();
          if (this.#state.status === 'connected') this.#set({ tools });
        } catch (error) {
          if (this.#state.status === 'connected') {
            this.#warn(`MCP server "${this.label}": listing tools after a change failed: ${errorText(error)}`);
          }
        }
      } while (this.#relistAgain && this.#state.status === 'connected');
      this.#relisting = null;
    })();
  }

  #onClosed(): void {
    // While connecting, the pending request fails and #open reports it.
    if (this.#closing || this.#state.status !== 'connected') return;
    // The server went away on its own (the process exited, the connection dropped).
    this.#closing = true;
    const reason =
      this.#oversize !== null
        ? `a message from the server was larger than ${formatBytes(this.#oversize)}, the most the MCP SDK reads at once, so the connection was closed`
        : this.#options.spec.kind === 'stdio'
          ? this.#withStderr('the server process exited')
          : this.#withStderr('the server closed the connection');
    this.#set({ status: 'closed', error: reason, pid: undefined });
    this.#warn(`MCP server "${this.label}" is gone: ${reason}`);
    void this.#shutdown();
  }

  /** Calls a tool; throws with a message for the model when the server is gone or answers with an error. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeout?: number },
  ): Promise<unknown> {
    const state = this.#state;
    if (state.status !== 'connected' || !this.#client) {
      throw new Error(`MCP server "${this.label}" is gone: ${state.error ?? 'not connected'}.`);
    }
    try {
      return await this.#client.callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeout,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (this.#oversize !== null) {
        throw new Error(
          `MCP server "${this.label}": the result was larger than ${formatBytes(this.#oversize)}, the most the MCP SDK reads in one message, so the connection was closed. Ask the tool for less (a narrower query, a smaller page).`,
        );
      }
      // The SDK reports the transport's close before it fails the pending calls.
      if (this.#state.status !== 'connected') {
        throw new Error(`MCP server "${this.label}" is gone: ${this.#state.error ?? 'connection closed'}.`);
      }
      throw new Error(`MCP server "${this.label}" answered with an error: ${errorText(error)}`);
    }
  }

  #checkOrphan(): void {
    if (this.#everRetained || this.#evicted) {
      clearInterval(this.#orphanTimer);
      return;
    }
    const { session, skill } = this.#options;
    let gone: boolean;
    try {
      gone =
        isDisposed(session) ||
        (skill !== null && !session.loadedSkills.includes(skill)) ||
        Date.now() - this.#created > ORPHAN_LIMIT;
    } catch {
      gone = true;
    }
    if (gone) void this.close();
  }

  /**
   * Closes the connection (a stdio server's process exits) and forgets it, so that the next render
   * connects anew. Safe to call twice.
   */
  async close(): Promise<void> {
    if (!this.#evicted) {
      this.#evicted = true;
      this.#evict(this);
    }
    clearInterval(this.#orphanTimer);
    clearTimeout(this.#closeTimer);
    if (this.#closing) return;
    this.#closing = true;
    this.#set({ status: 'closed', error: 'closed', pid: undefined });
    await this.#shutdown();
  }

  /** Ends the client and its transport. Runs again harmlessly when a close races a connect. */
  async #shutdown(): Promise<void> {
    const transport = this.#transport;
    try {
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
        await transport.terminateSession().catch(() => {});
      }
      await this.#client?.close();
    } catch {
      // Closing a connection that is already broken is not an error worth reporting.
    } finally {
      live.delete(this);
    }
  }
}

const bySession = new WeakMap<SessionHandle, Map<string, McpConnection>>();

/**
 * The connection for `key` in `session`: the live one, or a new one that starts connecting now.
 * Called while rendering, so that a render that suspends on it finds the same one when React retries.
 */
export function getConnection(key: string, options: ConnectionOptions): McpConnection {
  let map = bySession.get(options.session);
  if (!map) {
    map = new Map();
    bySession.set(options.session, map);
  }
  const found = map.get(key);
  if (found?.reusable) return found;
  if (found) void found.close();
  const sessionMap = map;
  const connection = new McpConnection(key, options, (c) => {
    if (sessionMap.get(c.key) === c) sessionMap.delete(c.key);
  });
  map.set(key, connection);
  return connection;
}
