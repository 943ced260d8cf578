/** Where an MCP server is, and the SDK transport that reaches it. */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Where a server is: a command to spawn, a Streamable HTTP endpoint, or a transport you make. */
export type ServerSpec =
  | {
      kind: 'stdio';
      command: string;
      args: string[];
      env?: Record<string, string>;
      cwd?: string;
      stderr: 'pipe' | 'inherit' | 'ignore';
    }
  | { kind: 'http'; url: string; headers?: Record<string, string> }
  | { kind: 'custom'; transport: () => Transport | Promise<Transport> };

/**
 * A transport to the server `spec` names, not yet started: a stdio server's process starts when
 * the client connects. What that process writes to stderr goes to `onStderr`.
 */
export async function makeTransport(spec: ServerSpec, onStderr: (text: string) => void): Promise<Transport> {
  if (spec.kind === 'custom') return spec.transport();
  if (spec.kind === 'http') {
    return new StreamableHTTPClientTransport(new URL(spec.url), {
      requestInit: spec.headers ? { headers: spec.headers } : undefined,
    });
  }
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    cwd: spec.cwd,
    stderr: spec.stderr,
  });
  transport.stderr?.on('data', (chunk: Buffer | string) => onStderr(String(chunk)));
  return transport;
}
