/**
 * `<McpTools>` against an in-process server over the SDK's `InMemoryTransport`.
 */

import { Agent, createSession, Skill, scriptedModel, Text, textOf } from '@skilltree/core';
import { MCP_LIMITS, McpTools } from '@skilltree/mcp';
import { Suspense } from 'react';
import { describe, expect, test } from 'vitest';
import { openConnections } from '../src/connection.js';
import { defaultTools, type FixtureTool, inMemoryServer } from './fixtures/server.js';

/** A 1×1 PNG, base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

import {
  agentWith,
  call,
  fullText,
  linesOf,
  metaOf,
  ownText,
  read,
  readFailedServer,
  toolNamesOf,
  until,
} from './helpers.js';
import { sessionTracker } from './session-tracker.js';

const track = sessionTracker();

describe('connecting', () => {
  test("reading a skill with <McpTools> offers the server's tools with their JSON Schemas", async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    expect(toolNamesOf(session)).toEqual(['read_skill']);

    await read(session);

    const tools = session.request().tools;
    expect(tools.map((t) => t.name)).toEqual(['read_skill', 'echo', 'add']);
    expect(tools[2]).toEqual({
      name: 'add',
      description: 'Add two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    });
    expect(server.stats.connections).toBe(1);
  });

  test("a model's read_skill waits for the server: its result and the next request already offer the tools", async () => {
    const server = inMemoryServer(defaultTools(), { connectDelay: 50 });
    const requests: string[][] = [];
    const session = track(
      agentWith(
        <>
          <Text>Calculator skill.</Text>
          <McpTools name="calc" transport={server.transport} />
        </>,
        {
          model: scriptedModel([
            { toolCalls: [{ id: '', name: 'read_skill', input: { name: 'tools' } }] },
            (req) => {
              requests.push(req.tools.map((t) => t.name));
              return { toolCalls: [{ id: '', name: 'add', input: { a: 1, b: 2 } }] };
            },
            { text: 'It is 3.' },
          ]),
        },
      ),
    );

    await session.send('What is 1 + 2?');

    expect(requests).toEqual([['read_skill', 'echo', 'add']]);
    expect(session.transcript.filter((m) => m.role === 'tool').map(textOf)).toEqual([
      'Loaded skill "tools"; it is now active.\ncontextChanged tools loaded\ncontextChanged tools added: Calculator skill.',
      '3',
    ]);
  });

  test('a server slower than the tool timeout: the read says the skill is still loading, the tools come later', async () => {
    const server = inMemoryServer(defaultTools(), { connectDelay: 300 });
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />, { toolTimeout: 50 }));

    const result = await read(session);

    expect(fullText(result)).toContain('It is still loading (waited 50 ms)');
    expect(toolNamesOf(session)).toEqual(['read_skill']);
    await until(() => toolNamesOf(session).includes('add'), 'the tools to appear');
    expect(server.stats.connections).toBe(1);
  });

  test('inside its own Suspense boundary it shows the fallback until listed, and the retry finds the same connection', async () => {
    const server = inMemoryServer(defaultTools(), { connectDelay: 100 });
    const session = track(
      agentWith(
        <Suspense fallback={<Text>Loading the calculator…</Text>}>
          <Text>Calculator ready.</Text>
          <McpTools name="calc" transport={server.transport} />
        </Suspense>,
        { strictMode: true },
      ),
    );
    await call(session, 'read_skill', { name: 'tools' });
    expect(linesOf(session, 'tools')).toEqual(['Loading the calculator…']);

    await until(() => toolNamesOf(session).includes('add'), 'the tools to appear');
    expect(linesOf(session, 'tools')).toEqual(['Calculator ready.']);
    expect(server.stats.connections).toBe(1);
  });

  test('nothing connects before the skill is read', async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    await session.settled();
    expect(server.stats.connections).toBe(0);
    expect(openConnections()).toBe(0);
  });

  test("the server's instructions are rendered only when serverInstructions is set", async () => {
    const server = inMemoryServer(defaultTools(), { instructions: 'Prefer add over echo.' });
    const session = track(
      createSession(
        <Agent>
          <Skill name="plain" description="p">
            <McpTools name="a" transport={server.transport} />
          </Skill>
          <Skill name="told" description="t">
            <McpTools name="b" prefix="b_" transport={server.transport} serverInstructions />
          </Skill>
        </Agent>,
      ),
    );
    await read(session, 'plain');
    await read(session, 'told');
    const context = session.request().context;
    expect(context.match(/Prefer add over echo\./g)).toHaveLength(1);
    expect(linesOf(session, 'told')).toEqual(['Prefer add over echo.']);
  });
});

describe('calls', () => {
  test('calls are forwarded to tools/call and text content becomes the result', async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    await read(session);

    const result = await call(session, 'add', { a: 2, b: 3 });

    expect(fullText(result)).toBe('5');
    expect(result.isError).toBeUndefined();
    expect(server.stats.calls).toEqual([{ name: 'add', args: { a: 2, b: 3 } }]);
  });

  test("input is validated against the tool's JSON Schema: the server is not called", async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    await read(session);

    const result = await call(session, 'add', { a: 'two' });

    expect(result.isError).toBe(true);
    expect(fullText(result)).toMatch(/^Invalid input for tool "add": /);
    expect(fullText(result)).toContain('a:');
    expect(fullText(result)).toContain('b:');
    expect(server.stats.calls).toEqual([]);
  });

  test("an isError result becomes an error result carrying the server's text", async () => {
    const tools: FixtureTool[] = [
      {
        name: 'fail',
        inputSchema: { type: 'object' },
        handler: () => ({ content: [{ type: 'text', text: 'disk full' }], isError: true }),
      },
    ];
    const session = track(agentWith(<McpTools name="s" transport={inMemoryServer(tools).transport} />));
    await read(session);

    const result = await call(session, 'fail');

    expect(result).toMatchObject({ isError: true, errorKind: 'threw' });
    expect(fullText(result)).toBe('Tool "fail" failed: disk full');
  });

  test('a protocol error becomes an error result naming the server', async () => {
    const tools: FixtureTool[] = [{ name: 'gone', inputSchema: { type: 'object' } }];
    const server = inMemoryServer(tools);
    const session = track(agentWith(<McpTools name="s" transport={server.transport} />));
    await read(session);
    server.tools.length = 0; // the server forgets the tool without telling the client

    const result = await call(session, 'gone');

    expect(result.isError).toBe(true);
    expect(fullText(result)).toBe(
      'Tool "gone" failed: MCP server "s" answered with an error: MCP error -32602: Unknown tool: gone',
    );
    // The session goes on.
    expect((await call(session, 'read_skill', { name: 'tools' })).isError).toBeUndefined();
  });

  test('images and embedded resources become file parts the model sees, with their media type and bytes; audio, links and files skilltree does not take stay placeholder lines', async () => {
    const png = PNG;
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString(
      'base64',
    );
    const tools: FixtureTool[] = [
      {
        name: 'mixed',
        inputSchema: { type: 'object' },
        handler: () => ({
          content: [
            { type: 'text', text: 'Here it is.' },
            { type: 'image', data: png, mimeType: 'image/png' },
            { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
            { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
            {
              type: 'resource',
              resource: { uri: 'file:///docs/q3%20report.pdf', mimeType: 'application/pdf', blob: pdf },
            },
            { type: 'resource_link', uri: 'file:///b.md', name: 'b.md' },
            // SVG can carry script, and bytes that are not what they claim are refused: both stay placeholders.
            { type: 'image', data: svg, mimeType: 'image/svg+xml' },
            { type: 'image', data: Buffer.alloc(12 * 1024).toString('base64'), mimeType: 'image/png' },
          ],
        }),
      },
      {
        name: 'only_image',
        inputSchema: { type: 'object' },
        handler: () => ({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] }),
      },
    ];
    const session = track(agentWith(<McpTools name="s" transport={inMemoryServer(tools).transport} />));
    await read(session);

    const mixed = await call(session, 'mixed');
    expect(mixed.isError).toBeUndefined();
    expect(mixed.content).toEqual([
      {
        type: 'text',
        text: [
          'Here it is.',
          '[audio: audio/wav, 3 B]',
          '[resource link: file:///b.md, b.md]',
          '[image: image/svg+xml, 71 B]',
          '[image: image/png, 12 KB]',
        ].join('\n'),
      },
      { type: 'file', mediaType: 'image/png', data: png },
      { type: 'file', mediaType: 'text/plain', data: Buffer.from('hello').toString('base64'), filename: 'a.txt' },
      { type: 'file', mediaType: 'application/pdf', data: pdf, filename: 'q3 report.pdf' },
    ]);
    // What the model reads as text names each file.
    expect(fullText(mixed)).toContain('[file: image/png][file: a.txt][file: q3 report.pdf]');
    // A result of files only has no text beside them.
    expect((await call(session, 'only_image')).content).toEqual([{ type: 'file', mediaType: 'image/png', data: png }]);
  });

  test('audio results pass through as file parts: a model that takes audio gets the audio, any other a line describing it', async () => {
    // A WAV header (RIFF … WAVE fmt), as a server that records speech returns it.
    const wav = Buffer.from([
      0x52, 0x49, 0x46, 0x46, 36, 0, 0, 0, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20, 16, 0, 0, 0,
    ]).toString('base64');
    const tools: FixtureTool[] = [
      {
        name: 'record',
        inputSchema: { type: 'object' },
        handler: () => ({
          content: [
            { type: 'text', text: 'Recorded.' },
            { type: 'audio', data: wav, mimeType: 'audio/wav' },
          ],
        }),
      },
    ];
    const sent = async (accepts?: { audio: boolean }) => {
      const model = scriptedModel([], accepts ? { accepts } : {});
      const session = track(agentWith(<McpTools name="s" transport={inMemoryServer(tools).transport} />, { model }));
      await read(session);
      const result = await call(session, 'record');
      expect(result.content.slice(0, 2)).toEqual([
        { type: 'text', text: 'Recorded.' },
        { type: 'file', mediaType: 'audio/wav', data: wav },
      ]);
      return session.request().messages.at(-1)?.content;
    };
    expect((await sent({ audio: true }))?.[1]).toEqual({ type: 'file', mediaType: 'audio/wav', data: wav });
    expect((await sent())?.[1]).toEqual({
      type: 'text',
      text: '\n[audio, audio/wav, 20 B: this model cannot hear audio]',
    });
  });

  test('structuredContent stands in for missing text; an empty result reads (no content)', async () => {
    const tools: FixtureTool[] = [
      {
        name: 'weather',
        inputSchema: { type: 'object' },
        handler: () => ({ content: [], structuredContent: { temperature: 21, unit: 'C' } }),
      },
      { name: 'nothing', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) },
    ];
    const session = track(agentWith(<McpTools name="s" transport={inMemoryServer(tools).transport} />));
    await read(session);

    expect(fullText(await call(session, 'weather'))).toBe('{"temperature":21,"unit":"C"}');
    expect(fullText(await call(session, 'nothing'))).toBe('(no content)');
  });

  test("the tool's abort signal cancels the MCP request (a timeout sends notifications/cancelled)", async () => {
    const tools: FixtureTool[] = [
      {
        name: 'slow',
        inputSchema: { type: 'object' },
        handler: (_args, { signal }) =>
          new Promise((resolve) => signal.addEventListener('abort', () => resolve({ content: [] }))),
      },
    ];
    const server = inMemoryServer(tools);
    const session = track(agentWith(<McpTools name="s" transport={server.transport} timeout={100} />));
    await read(session);

    const result = await call(session, 'slow');

    expect(result).toMatchObject({ isError: true, errorKind: 'timeout' });
    expect(fullText(result)).toBe('Tool "slow" failed: Tool "slow" timed out after 100 ms.');
    await until(() => server.stats.cancelled.includes('slow'), 'the server to see the cancellation');
  });
});

describe('names and filters', () => {
  test("names are sanitised, prefixed and kept unique; calls reach the server's own names", async () => {
    const tools: FixtureTool[] = ['repo.search', 'repo/search', 'x'.repeat(80)].map((name) => ({
      name,
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: `ran ${name.slice(0, 12)}` }] }),
    }));
    const server = inMemoryServer(tools);
    const session = track(agentWith(<McpTools name="gh" prefix="gh." transport={server.transport} />));
    await read(session);

    expect(toolNamesOf(session)).toEqual(['read_skill', 'gh_repo_search', 'gh_repo_search_2', `gh_${'x'.repeat(61)}`]);
    expect(fullText(await call(session, 'gh_repo_search_2'))).toBe('ran repo/search');
    expect(server.stats.calls.map((c) => c.name)).toEqual(['repo/search']);
  });

  test("include and exclude filter the server's tools; an unknown include name is a warning", async () => {
    const server = inMemoryServer();
    const session = track(
      createSession(
        <Agent>
          <Skill name="only" description="o">
            <McpTools name="a" transport={server.transport} include={['add', 'divide']} />
          </Skill>
          <Skill name="but" description="b">
            <McpTools name="b" prefix="b_" transport={server.transport} exclude={['add']} />
          </Skill>
        </Agent>,
      ),
    );
    await read(session, 'only');
    await read(session, 'but');

    expect(toolNamesOf(session)).toEqual(['read_skill', 'add', 'b_echo']);
    expect(session.warnings).toEqual([
      {
        message: '<McpTools include> names tools that MCP server "a" does not have: divide.',
        source: 'mcp:a',
      },
    ]);
  });
});

describe('caps on what a server writes into every request', () => {
  const tool = (name: string, description: string, inputSchema: FixtureTool['inputSchema'] = { type: 'object' }) => ({
    name,
    description,
    inputSchema,
    handler: () => ({ content: [{ type: 'text' as const, text: `ran ${name}` }] }),
  });

  test('a tool description over 1,024 characters is cut to 1,024 (the last one "…") with a warning, like a SKILL.md description', async () => {
    const server = inMemoryServer([tool('long', '😀'.repeat(3000)), tool('short', 'Short and fine')]);
    const session = track(agentWith(<McpTools name="big" transport={server.transport} />));
    await read(session);

    const [, long, short] = session.request().tools;
    expect([...long.description]).toHaveLength(MCP_LIMITS.description);
    expect(long.description).toBe(`${'😀'.repeat(1023)}…`);
    expect(short.description).toBe('Short and fine');
    await until(() => session.warnings.length > 0, 'the warning');
    expect(session.warnings).toEqual([
      {
        message:
          'MCP server "big": the description of tool "long" is 3,000 characters, more than the 1,024 allowed; ' +
          'it was cut to 1,024 (raise <McpTools maxDescriptionChars> to keep more).',
        source: 'mcp:big',
      },
    ]);
  });

  test('a tool whose input schema is over 16,000 characters of JSON is not offered, with a warning; the others are', async () => {
    const huge = { type: 'object' as const, properties: { q: { type: 'string', description: 'x'.repeat(20_000) } } };
    const server = inMemoryServer([tool('huge', 'Takes a huge schema', huge), tool('small', 'Small')]);
    const session = track(agentWith(<McpTools name="big" transport={server.transport} />));
    await read(session);

    expect(toolNamesOf(session)).toEqual(['read_skill', 'small']);
    await until(() => session.warnings.length > 0, 'the warning');
    expect(session.warnings.map((w) => w.message)).toEqual([
      `MCP server "big": the input schema of tool "huge" is ${JSON.stringify(huge).length.toLocaleString('en-US')} characters of JSON, more than the 16,000 allowed; ` +
        'the tool is not offered. Raise <McpTools maxInputSchemaChars>, or leave it out with exclude.',
    ]);
    expect(fullText(await call(session, 'huge'))).toMatch(/^Unknown tool: huge/);
  });

  test('maxDescriptionChars and maxInputSchemaChars set the caps; a cap that is not a whole number from 1 is an error', async () => {
    const huge = { type: 'object' as const, properties: { q: { type: 'string', description: 'x'.repeat(20_000) } } };
    const server = inMemoryServer([tool('huge', 'd'.repeat(50), huge)]);
    const session = track(
      agentWith(
        <McpTools name="big" transport={server.transport} maxDescriptionChars={10} maxInputSchemaChars={30_000} />,
      ),
    );
    await read(session);
    expect(session.request().tools[1]).toMatchObject({ name: 'huge', description: `${'d'.repeat(9)}…` });

    const bad = track(agentWith(<McpTools name="bad" transport={server.transport} maxDescriptionChars={0} />));
    const refused = await call(bad, 'read_skill', { name: 'tools' });
    expect(fullText(refused)).toContain('<McpTools maxDescriptionChars> must be a whole number from 1 up (got 0).');
  });
});

describe('lifecycle', () => {
  test('unloading the skill closes the connection; reading it again reconnects', async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    await read(session);
    expect(server.stats.open).toBe(1);

    await session.readSkill('other'); // maxLoadedSkills 1: "tools" unloads
    await session.settled();
    await until(() => server.stats.open === 0, 'the server to see the close');
    expect(openConnections()).toBe(0);
    expect(toolNamesOf(session)).toEqual(['read_skill']);

    await read(session);
    expect(server.stats).toMatchObject({ connections: 2, open: 1 });
    expect(fullText(await call(session, 'add', { a: 1, b: 1 }))).toBe('2');
  });

  test('StrictMode: no connection leaks, one open while loaded and none after unload', async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />, { strictMode: true }));
    await read(session);
    await new Promise((resolve) => setTimeout(resolve, 50)); // past the deferred close of a cleanup
    expect(server.stats.open).toBe(1);
    expect(openConnections()).toBe(1);
    expect(fullText(await call(session, 'echo', { message: 'hi' }))).toBe('echo: hi');

    await session.readSkill('other');
    await session.settled();
    await until(() => server.stats.open === 0, 'the server to see the close');
    expect(openConnections()).toBe(0);
  });

  test('a skill unloaded while its server is still connecting leaves no connection open', async () => {
    const server = inMemoryServer(defaultTools(), { connectDelay: 300 });
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />, { toolTimeout: 50 }));
    expect(fullText(await read(session))).toContain('still loading');
    await read(session, 'other'); // before the server has answered
    await until(() => server.stats.connections === 1 && server.stats.open === 0, 'the server to see the close');
    await until(() => openConnections() === 0, 'the connection to close');
    expect(toolNamesOf(session)).toEqual(['read_skill']);
  });

  test('a session disposed while its server is still connecting leaves no connection open', async () => {
    const server = inMemoryServer(defaultTools(), { connectDelay: 300 });
    const session = agentWith(<McpTools name="calc" transport={server.transport} />, { toolTimeout: 50 });
    expect(fullText(await read(session))).toContain('still loading');
    session.dispose();
    await until(() => server.stats.connections === 1 && server.stats.open === 0, 'the server to see the close');
    await until(() => openConnections() === 0, 'the connection to close');
  });

  test('disposing the session closes the connection', async () => {
    const server = inMemoryServer();
    const session = agentWith(<McpTools name="calc" transport={server.transport} />);
    await read(session);
    session.dispose();
    await until(() => server.stats.open === 0 && openConnections() === 0, 'the connection to close');
  });

  test('two <McpTools> for the same server in one skill share one connection', async () => {
    const server = inMemoryServer();
    const session = track(
      agentWith(
        <>
          <McpTools name="calc" transport={server.transport} include={['add']} />
          <McpTools name="calc" transport={server.transport} include={['echo']} prefix="e_" />
        </>,
      ),
    );
    await read(session);
    expect(toolNamesOf(session)).toEqual(['read_skill', 'add', 'e_echo']);
    expect(server.stats.connections).toBe(1);
  });

  test('notifications/tools/list_changed re-renders the tool list', async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    await read(session);

    server.tools.push({
      name: 'multiply',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      handler: ({ a, b }) => ({ content: [{ type: 'text', text: String(Number(a) * Number(b)) }] }),
    });
    server.tools.splice(0, 1); // echo goes away
    await server.changed();
    await until(() => toolNamesOf(session).includes('multiply'), 'the new tool to appear');

    expect(toolNamesOf(session)).toEqual(['read_skill', 'add', 'multiply']);
    expect(fullText(await call(session, 'multiply', { a: 6, b: 7 }))).toBe('42');
    expect(fullText(await call(session, 'echo', { message: 'x' }))).toMatch(/^Unknown tool: echo/);
  });
});

describe('faults', () => {
  test('a server that dies: the next call says it is gone, the skill says so, the session goes on', async () => {
    const server = inMemoryServer();
    const session = track(
      agentWith(
        <>
          <Text>Calculator skill.</Text>
          <McpTools name="calc" transport={server.transport} />
        </>,
      ),
    );
    await read(session);

    await server.latest().close();
    await until(() => session.request().context.includes('is gone'), 'the skill to say the server is gone');

    const result = await call(session, 'add', { a: 1, b: 2 });
    expect(result.isError).toBe(true);
    const [first, ...changes] = fullText(result).split('\n');
    expect(first).toBe('Tool "add" failed: MCP server "calc" is gone: the server closed the connection.');
    // The skill's line changed outside a tool call, so it is recorded with this message.
    expect(changes).toContain(
      'contextChanged tools added: MCP server "calc" is gone: the server closed the connection. Its tools no longer work.',
    );
    expect(session.warnings.map((w) => w.message)).toEqual([
      'MCP server "calc" is gone: the server closed the connection',
    ]);
    // The session goes on: other reads and a reload (which reconnects) work.
    expect((await call(session, 'read_skill', { name: 'other' })).isError).toBeUndefined();
    await read(session);
    expect(ownText(await call(session, 'add', { a: 1, b: 2 }))).toBe('3');
    expect(server.stats).toMatchObject({ connections: 2, open: 1 });
  });

  test("a server that fails to connect: the read's result says why, no tools are offered, and the session goes on", async () => {
    const server = inMemoryServer(defaultTools(), { failConnect: 'ECONNREFUSED 127.0.0.1:9' });
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    const result = await readFailedServer(
      session,
      'MCP server "calc" failed: ECONNREFUSED 127.0.0.1:9. Its tools are not available.',
    );
    expect(fullText(result)).toBe(
      'Loaded skill "tools"; it is now active.\ncontextChanged tools loaded\n' +
        'contextChanged tools added: MCP server "calc" failed: ECONNREFUSED 127.0.0.1:9. Its tools are not available.',
    );
  });

  test('a server that never answers fails after connectTimeout', async () => {
    const session = track(
      agentWith(
        <McpTools
          name="mute"
          connectTimeout={100}
          transport={() => ({ start: async () => {}, send: async () => {}, close: async () => {} })}
        />,
      ),
    );
    await read(session);
    expect(session.request().context).toContain(
      'MCP server "mute" failed: the server did not answer within 100 ms. Its tools are not available.',
    );
  });

  test('props that name no server (or two) are a clear error when the skill is read', async () => {
    const session = track(agentWith(<McpTools {...({} as { command: string })} />));
    await expect(session.readSkill('tools')).rejects.toThrow(
      '<McpTools> needs exactly one of command="…" (a stdio server), url="http://…/mcp" (Streamable HTTP) or transport={() => …}.',
    );
  });
});

describe('inspectors and agent level', () => {
  test('each tool carries meta for inspectors: kind, server, state', async () => {
    const server = inMemoryServer();
    const session = track(agentWith(<McpTools name="calc" transport={server.transport} />));
    await read(session);

    const meta = metaOf(session, 'add');
    expect(meta).toEqual({
      kind: 'mcp',
      server: 'calc',
      state: 'connected',
      transport: 'custom',
      tool: 'add',
      title: 'Addition',
      annotations: { readOnlyHint: true },
      serverInfo: { name: 'fixture', version: '1.2.3' },
    });
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta);

    await server.latest().close();
    await until(() => metaOf(session, 'add')?.state === 'closed', 'meta to show the closed state');
  });

  test('at agent level it does not suspend: the model sees "connecting…", then the tools', async () => {
    const server = inMemoryServer();
    const session = track(
      createSession(
        <Agent>
          <Text>Agent text.</Text>
          <McpTools name="calc" transport={server.transport} />
        </Agent>,
      ),
    );
    expect(session.request().context).toContain('MCP server "calc": connecting…');
    await until(() => toolNamesOf(session).includes('add'), 'the tools to appear');
    expect(session.request().context).not.toContain('connecting');
    expect(toolNamesOf(session)).toEqual(['echo', 'add']);
  });
});
