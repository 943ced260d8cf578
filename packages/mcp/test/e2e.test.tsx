/**
 * `<McpTools>` against real servers: `@modelcontextprotocol/server-everything` and a small SDK
 * server as child processes over stdio, and an SDK server over Streamable HTTP on 127.0.0.1.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Session } from '@skilltree/core';
import { McpTools } from '@skilltree/mcp';
import { afterAll, describe, expect, test } from 'vitest';
import { httpServer } from './fixtures/http-server.js';
import { agentWith, call, fullText, metaOf, ownText, read, readFailedServer, toolNamesOf, until } from './helpers.js';
import { sessionTracker } from './session-tracker.js';

const node = process.execPath;
const everything = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const fixture = fileURLToPath(new URL('./fixtures/stdio-server.mjs', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'skilltree-mcp-'));

const track = sessionTracker(10_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

function pidOf(session: Session, tool: string): number {
  const pid = metaOf(session, tool)?.pid;
  if (typeof pid !== 'number') throw new Error(`tool ${tool} has no pid in its meta`);
  return pid;
}

describe('a real stdio server (@modelcontextprotocol/server-everything)', () => {
  test('lists its tools and runs them; unloading ends the process; reading again starts a new one', async () => {
    const session = track(
      agentWith(<McpTools name="everything" command={node} args={[everything, 'stdio']} prefix="ev_" />),
    );
    await read(session, 'tools');

    const names = toolNamesOf(session);
    expect(names).toContain('ev_echo');
    expect(names).toContain('ev_get-sum');
    expect(names).toContain('ev_get-tiny-image');
    // The server's JSON Schema, as listed, less its `$schema` dialect line.
    expect(session.request().tools.find((t) => t.name === 'ev_echo')!.inputSchema).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      required: ['message'],
    });
    expect(ownText(await call(session, 'ev_echo', { message: 'hello' }))).toBe('Echo: hello');
    expect(fullText(await call(session, 'ev_get-sum', { a: 2, b: 3 }))).toContain('5');
    // Its image reaches the model as an image: a file part with the PNG's bytes.
    const image = await call(session, 'ev_get-tiny-image');
    const files = image.content.filter((part) => part.type === 'file');
    expect(files).toEqual([{ type: 'file', mediaType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) }]);
    expect(fullText(image)).toContain('[file: image/png]');
    const invalid = await call(session, 'ev_get-sum', { a: 'two' });
    expect(invalid.isError).toBe(true);
    expect(fullText(invalid)).toMatch(/^Invalid input for tool "ev_get-sum": a: /);

    const pid = pidOf(session, 'ev_echo');
    expect(alive(pid)).toBe(true);

    await call(session, 'read_skill', { name: 'other' }); // maxLoadedSkills 1: "tools" unloads
    await until(() => !alive(pid), `server process ${pid} to exit`, 10_000);
    expect(toolNamesOf(session)).toEqual(['read_skill']);

    await read(session, 'tools');
    const second = pidOf(session, 'ev_echo');
    expect(second).not.toBe(pid);
    expect(alive(second)).toBe(true);
    expect(ownText(await call(session, 'ev_echo', { message: 'again' }))).toBe('Echo: again');
  }, 60_000);
});

describe('an SDK server over stdio', () => {
  test('StrictMode spawns one process and unloading ends it', async () => {
    const log = join(tmp, 'strict.pids');
    const session = track(
      agentWith(<McpTools name="fixture" command={node} args={[fixture]} env={{ PID_LOG: log }} />, {
        strictMode: true,
      }),
    );
    await read(session);
    expect(ownText(await call(session, 'echo', { message: 'x' }))).toBe('echo: x');

    await call(session, 'read_skill', { name: 'other' });
    const pids = readFileSync(log, 'utf8').trim().split('\n').map(Number);
    expect(pids).toHaveLength(1);
    await until(() => pids.every((pid) => !alive(pid)), 'the server process to exit');
  });

  test('a server that dies: the next call says it is gone (with its stderr), and the session goes on', async () => {
    const session = track(agentWith(<McpTools name="fixture" command={node} args={[fixture]} />));
    await read(session);
    const pid = pidOf(session, 'echo');

    const crash = await call(session, 'crash');
    expect(crash.isError).toBe(true);
    expect(fullText(crash).split('\n')[0]).toBe(
      'Tool "crash" failed: MCP server "fixture" is gone: the server process exited (stderr: fatal: out of cheese).',
    );
    expect(alive(pid)).toBe(false);

    const next = await call(session, 'echo', { message: 'still there?' });
    expect(next.isError).toBe(true);
    expect(fullText(next).split('\n')[0]).toBe(
      'Tool "echo" failed: MCP server "fixture" is gone: the server process exited (stderr: fatal: out of cheese).',
    );
    expect(session.request().context).toContain(
      'MCP server "fixture" is gone: the server process exited (stderr: fatal: out of cheese). Its tools no longer work.',
    );

    // The session goes on: unloading and reading again starts a new server.
    await call(session, 'read_skill', { name: 'other' });
    await read(session);
    expect(ownText(await call(session, 'echo', { message: 'back' }))).toBe('echo: back');
  });

  test("a result over the SDK's 10 MB limit says so (not that the server exited), and the session goes on", async () => {
    const session = track(agentWith(<McpTools name="fixture" command={node} args={[fixture]} />));
    await read(session);
    const huge = await call(session, 'huge', { megabytes: 11 });
    expect(huge.isError).toBe(true);
    expect(fullText(huge).split('\n')[0]).toBe(
      'Tool "huge" failed: MCP server "fixture": the result was larger than 10.0 MB, the most the MCP SDK reads in one message, so the connection was closed. Ask the tool for less (a narrower query, a smaller page).',
    );
    expect(fullText(huge)).not.toContain('exited');
    const next = await call(session, 'echo', { message: 'still there?' });
    expect(fullText(next).split('\n')[0]).toBe(
      'Tool "echo" failed: MCP server "fixture" is gone: a message from the server was larger than 10.0 MB, the most the MCP SDK reads at once, so the connection was closed.',
    );
    // Reading the skill again starts the server anew.
    await call(session, 'read_skill', { name: 'other' });
    await read(session);
    expect(ownText(await call(session, 'echo', { message: 'back' }))).toBe('echo: back');
  });

  test("an MCP result under the SDK's limit is held to maxToolResultChars, with the note", async () => {
    const session = track(
      agentWith(<McpTools name="fixture" command={node} args={[fixture]} />, { maxToolResultChars: 10_000 }),
    );
    await read(session);
    const big = ownText(await call(session, 'huge', { megabytes: 2 }));
    const total = 2 * 1024 * 1024;
    expect(big).toBe(
      `${'x'.repeat(10_000)}\n[…truncated: ${(total - 10_000).toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters were cut; a tool result carries at most 10,000 (maxToolResultChars).]`,
    );
  });

  test('notifications/tools/list_changed from a real process re-renders the tool list', async () => {
    const session = track(agentWith(<McpTools name="fixture" command={node} args={[fixture]} />));
    await read(session);
    expect(toolNamesOf(session)).toEqual(['read_skill', 'echo', 'crash', 'grow', 'huge']);

    await call(session, 'grow');
    await until(() => toolNamesOf(session).includes('grown_4'), 'the grown tool to appear');
    expect(ownText(await call(session, 'grown_4'))).toBe('grown_4 ran');
  });

  test("a command that does not exist: the read's result says the server could not start, and the session goes on", async () => {
    const session = track(agentWith(<McpTools name="nope" command="skilltree-no-such-mcp-server" />));
    await readFailedServer(
      session,
      'MCP server "nope" failed: could not start "skilltree-no-such-mcp-server": command not found. Its tools are not available.',
    );
  });

  test('a server that exits at start: the failure carries what it printed', async () => {
    const session = track(
      agentWith(
        <McpTools name="broken" command={node} args={[fixture]} env={{ FAIL_AT_START: 'missing API_TOKEN' }} />,
      ),
    );
    await read(session);
    expect(session.request().context).toContain(
      'MCP server "broken" failed: the server closed the connection before it was ready (stderr: missing API_TOKEN). Its tools are not available.',
    );
  });
});

describe('Streamable HTTP', () => {
  test('url connects over Streamable HTTP with the given headers; unloading ends the MCP session', async () => {
    const server = await httpServer();
    try {
      const session = track(agentWith(<McpTools url={server.url} headers={{ Authorization: 'Bearer t0ken' }} />));
      await read(session);

      expect(toolNamesOf(session)).toEqual(['read_skill', 'shout']);
      expect(metaOf(session, 'shout')).toMatchObject({
        kind: 'mcp',
        server: server.url,
        transport: 'http',
        state: 'connected',
      });
      expect(ownText(await call(session, 'shout', { text: 'hi' }))).toBe('HI');
      expect(server.stats.authorization.every((h) => h === 'Bearer t0ken')).toBe(true);

      await call(session, 'read_skill', { name: 'other' });
      await until(() => server.stats.closed === 1, 'the MCP session to be terminated');
      expect(server.stats.opened).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('a URL where nothing listens: the skill says the server failed', async () => {
    const server = await httpServer();
    const url = server.url;
    await server.close();
    const session = track(agentWith(<McpTools name="web" url={url} />));
    await read(session);
    expect(session.request().context).toMatch(
      /MCP server "web" failed: .*fetch failed.*\. Its tools are not available\./,
    );
  });
});
