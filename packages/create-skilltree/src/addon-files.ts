/**
 * The files each `--with` addon writes into a new project, as text: an example and its test per
 * addon. Their import lines are the new project's, not this package's.
 */

/** `sessions.tsx`, written by the store addon. */
export const STORE = `import { createSessions, type Model, type Sessions } from '@skilltree/core';
import { sqliteStore } from '@skilltree/store/sqlite';
import { demo, TodoAgent } from './agent.js';

/**
 * Sessions kept in a SQLite file: each conversation, with its loaded skills and its stores,
 * outlives the process, and several processes on this machine may share the file. Node 22.13+ and
 * 24 have SQLite built in; on Node 20 the store uses better-sqlite3.
 */
export function openSessions(path = '.skilltree/sessions.db', model: Model = demo.model()): Sessions {
  return createSessions(<TodoAgent />, { store: sqliteStore({ path }), model });
}
`;

/** `sessions.test.tsx`, written by the store addon. */
export const STORE_TEST = `import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel, textOf } from '@skilltree/core';
import { expect, test } from 'vitest';
import { demo } from './agent.js';
import { openSessions } from './sessions.js';

test('a conversation outlives the process: reopened from its file, it has its todos and messages', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'sessions-')), 'sessions.db');
  const first = openSessions(path);
  expect((await first.send('alice', demo.messages[0])).text).toBe('Added "water the plants" to your todo list.');
  await first.close(); // the process stops

  const again = openSessions(path, scriptedModel([{ text: 'One item: water the plants.' }]));
  expect(await again.get('alice')).toMatchObject({ stores: { todos: { items: ['water the plants'] } } });
  expect((await again.send('alice', 'What is on my list?')).text).toBe('One item: water the plants.');
  const said = (await again.messages('alice')).filter((m) => m.role === 'user').map((m) => textOf(m));
  expect(said).toEqual([demo.messages[0], 'What is on my list?']);
  expect(await again.get('bob')).toBeNull(); // another user has no conversation yet
  await again.close();
});
`;

/** `server.tsx`, written by the server addon. */
export const SERVER = `import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createSessions, type Sessions } from '@skilltree/core';
import { createHandler, toNodeListener } from '@skilltree/server';
import { demo, TodoAgent } from './agent.js';

/**
 * The agent behind the API that the AI SDK's \`useChat\` talks to: \`POST /api/chat\` answers with the
 * UI message stream, \`GET /api/chat/:id\` returns the conversation. Without \`authorize\`, only this
 * machine may connect; pass \`createHandler({ sessions, authorize })\` to serve users.
 */
export function chatServer(sessions: Sessions = createSessions(<TodoAgent />, { model: demo.model() })): Server {
  return createServer(toNodeListener(createHandler({ sessions })));
}

// \`npm run serve\`: useChat's endpoint on http://127.0.0.1:3000/api/chat
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  chatServer().listen(3000, '127.0.0.1', () => console.log('useChat endpoint: http://127.0.0.1:3000/api/chat'));
}
`;

/** `server.test.tsx`, written by the server addon. */
export const SERVER_TEST = `import type { AddressInfo } from 'node:net';
import { Chat } from '@ai-sdk/react';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { DefaultChatTransport } from 'ai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { demo } from './agent.js';
import { chatServer } from './server.js';

const server = chatServer();
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// \`Chat\` is the state behind \`useChat\` in a React page; here it runs in Node, against the server.
test("useChat's chat, through DefaultChatTransport, gets the agent's streamed reply; the server keeps it", async () => {
  const chat = new Chat<SkilltreeUIMessage>({
    id: 'chat-1',
    transport: new DefaultChatTransport<SkilltreeUIMessage>({ api: \`\${base}/api/chat\` }),
  });

  await chat.sendMessage({ text: demo.messages[0] });

  expect(chat.error).toBeUndefined();
  const reply = chat.messages.at(-1);
  const text = reply?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  expect(text).toBe('Added "water the plants" to your todo list.');
  expect(reply?.parts.some((part) => part.type === 'dynamic-tool' && part.toolName === 'add_todo')).toBe(true);

  const history = await fetch(\`\${base}/api/chat/chat-1\`);
  expect(((await history.json()) as SkilltreeUIMessage[]).map((m) => m.role)).toEqual(['user', 'assistant']);
});
`;

/** `skills/plant-care/SKILL.md`, written by the agent-skills addon. */
export const SKILL_MD = `---
name: plant-care
description: How often to water common house plants. Use when the user asks when to water a plant.
---
# Watering house plants

Look the plant up in references/schedule.md and answer with its interval. If the plant is not
listed, say so; do not guess.
`;

/** `skills/plant-care/references/schedule.md`, written by the agent-skills addon. */
export const SKILL_SCHEDULE = `# Watering schedule

| plant  | water every |
| ------ | ----------- |
| basil  | 2 days      |
| fern   | 4 days      |
| cactus | 3 weeks     |
`;

/** `folder-agent.tsx`, written by the agent-skills addon. */
export const FOLDERS = `import { loadSkillFolders } from '@skilltree/agent-skills';
import { Agent, Instructions } from '@skilltree/core';

/**
 * An agent whose skills are Agent Skills folders: each sub-folder of ./skills with a SKILL.md. The
 * catalog lists their names and descriptions; a read skill's instructions are its SKILL.md body, and
 * \`<name>_read_file\` reads its other files.
 */
export function FolderAgent() {
  return (
    <Agent>
      <Instructions>You are a helpful assistant.</Instructions>
      {loadSkillFolders(new URL('./skills', import.meta.url))}
    </Agent>
  );
}
`;

/** `folder-agent.test.tsx`, written by the agent-skills addon. */
export const FOLDERS_TEST = `import { textOf } from '@skilltree/core';
import { cleanup, renderAgent } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { FolderAgent } from './folder-agent.js';

afterEach(cleanup);

test('a SKILL.md folder is a skill: in the catalog, then its instructions and files once read', async () => {
  const agent = renderAgent(<FolderAgent />);
  expect(agent.request().system).toContain('plant-care');
  expect(agent).not.toHaveTool('plant-care_read_file');

  await agent.readSkill('plant-care');

  expect(agent).toHaveContext('Look the plant up in references/schedule.md');
  const schedule = await agent.callTool('plant-care_read_file', { path: 'references/schedule.md' });
  expect(textOf(schedule)).toContain('| cactus | 3 weeks     |');
  const outside = await agent.callTool('plant-care_read_file', { path: '../package.json' });
  expect(outside.isError).toBe(true); // files outside the folder are refused
});
`;

/** `mcp-agent.tsx`, written by the mcp addon. */
export const MCP = `import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Agent, Instructions, Skill } from '@skilltree/core';
import { McpTools } from '@skilltree/mcp';
import { z } from 'zod';

/** An MCP server written with the official SDK. Here it runs in this process; a real one is a command or a URL. */
export function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool(
    'forecast',
    { description: "Tomorrow's weather in a city", inputSchema: { city: z.string().min(1) } },
    async ({ city }) => ({ content: [{ type: 'text', text: \`Sunny in \${city}\` }] }),
  );
  return server;
}

/** A fresh in-process connection for each time the skill loads. */
function connect() {
  const [client, server] = InMemoryTransport.createLinkedPair();
  void weatherServer().connect(server);
  return client;
}

/**
 * An agent with a skill whose tools come from the MCP server: connected when the skill loads,
 * closed when it unloads. For a server you run: \`<McpTools command="npx" args={[...]} />\` or
 * \`<McpTools url="http://127.0.0.1:3001/mcp" />\`.
 */
export function WeatherAgent() {
  return (
    <Agent>
      <Instructions>You are a helpful assistant.</Instructions>
      <Skill name="weather" description="Weather forecasts by city">
        <McpTools name="weather" transport={connect} prefix="weather_" />
      </Skill>
    </Agent>
  );
}
`;

/** `mcp-agent.test.tsx`, written by the mcp addon. */
export const MCP_TEST = `import { textOf } from '@skilltree/core';
import { cleanup, renderAgent } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { WeatherAgent } from './mcp-agent.js';

afterEach(cleanup);

test("the MCP server's tools are the skill's tools while it is loaded", async () => {
  const agent = renderAgent(<WeatherAgent />);
  expect(agent).not.toHaveTool('weather_forecast');

  await agent.readSkill('weather'); // waits until the server has listed its tools

  expect(agent).toHaveTool('weather_forecast');
  expect(textOf(await agent.callTool('weather_forecast', { city: 'Oslo' }))).toMatch(/^Sunny in Oslo/);
  expect((await agent.callTool('weather_forecast', { city: '' })).isError).toBe(true);
});
`;

/** `model.ts`, written by the models addon. */
export const MODELS = `import type { Model } from '@skilltree/core';
import { anthropic } from '@skilltree/models/anthropic';
import { openai } from '@skilltree/models/openai';

/**
 * The real model, chosen by the key that is set: ANTHROPIC_API_KEY gives Claude; else
 * OPENAI_API_KEY gives an OpenAI model, and OPENAI_BASE_URL any OpenAI-compatible server (Ollama,
 * vLLM, LM Studio: \`OPENAI_BASE_URL=http://localhost:11434/v1\`, no key needed). With neither, null:
 * play the scripted demo (\`demo.model()\` from agent.tsx) instead.
 *
 * @example
 * const session = createSession(<TodoAgent />, { model: chooseModel() ?? demo.model() });
 */
export function chooseModel(env: Record<string, string | undefined> = process.env): Model | null {
  if (env.ANTHROPIC_API_KEY) {
    return anthropic({ model: 'claude-sonnet-4-5', apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL });
  }
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    return openai({ model: 'gpt-4.1', apiKey: env.OPENAI_API_KEY || 'none', baseURL: env.OPENAI_BASE_URL });
  }
  return null;
}
`;

/** `model.test.tsx`, written by the models addon. */
export const MODELS_TEST = `import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanup, renderAgent } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { TodoAgent, todos } from './agent.js';
import { chooseModel } from './model.js';

afterEach(cleanup);

test('the key that is set chooses the provider; with none there is no model (the demo plays)', () => {
  expect(chooseModel({ ANTHROPIC_API_KEY: 'sk-ant-test' })?.name).toBe('anthropic:claude-sonnet-4-5');
  expect(chooseModel({ OPENAI_API_KEY: 'sk-test' })?.name).toBe('openai:gpt-4.1');
  expect(chooseModel({ OPENAI_BASE_URL: 'http://localhost:11434/v1' })?.name).toBe('openai:gpt-4.1');
  expect(chooseModel({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' })?.name).toBe('anthropic:claude-sonnet-4-5');
  expect(chooseModel({})).toBeNull();
});

// An OpenAI-compatible server on 127.0.0.1, as Ollama or vLLM would be: it streams the answers a
// model would give (load the skill, add the todo, reply). The test needs no key and no network.
// Like many local servers it has only Chat Completions: openai() asks for the Responses API once,
// gets a 404 and uses Chat Completions from then on (it says so once on stderr).
const answers: { tool?: { name: string; arguments: unknown }; text?: string }[] = [
  { tool: { name: 'read_skill', arguments: { name: 'todos' } } },
  { tool: { name: 'add_todo', arguments: { text: 'water the plants' } } },
  { text: 'Added "water the plants" to your todo list.' },
];
const received: { authorization?: string; model: string; tools: string[] }[] = [];

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return JSON.parse(body);
}

const server = createServer(async (request, response) => {
  if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: \`No route \${request.method} \${request.url}\` } }));
    return;
  }
  const body = await bodyOf(request);
  const tools = (body.tools as { function: { name: string } }[] | undefined) ?? [];
  received.push({
    authorization: request.headers.authorization,
    model: String(body.model),
    tools: tools.map((t) => t.function.name),
  });
  const answer = answers[received.length - 1] ?? { text: 'Done.' };
  const chunk = (delta: unknown, finish: string | null = null) =>
    \`data: \${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\\n\\n\`;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  if (answer.tool) {
    const call = { index: 0, id: \`call_\${received.length}\`, type: 'function' };
    response.write(chunk({ role: 'assistant', tool_calls: [{ ...call, function: { name: answer.tool.name, arguments: JSON.stringify(answer.tool.arguments) } }] }));
    response.write(chunk({}, 'tool_calls'));
  } else {
    response.write(chunk({ role: 'assistant', content: answer.text }));
    response.write(chunk({}, 'stop'));
  }
  response.end('data: [DONE]\\n\\n');
});
let baseURL = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}/v1\`;
});
afterAll(() => server.close());

test('the chosen OpenAI model drives the agent through an OpenAI-compatible server', async () => {
  const model = chooseModel({ OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: baseURL });
  const agent = renderAgent(<TodoAgent />, { model: model! });

  const turn = await agent.say('Remind me to water the plants');

  expect(turn.text).toBe('Added "water the plants" to your todo list.');
  expect(agent.session.store(todos).getState().items).toEqual(['water the plants']);
  expect(received.map((r) => r.model)).toEqual(['gpt-4.1', 'gpt-4.1', 'gpt-4.1']);
  expect(received[0].authorization).toBe('Bearer sk-local');
  expect(received[0].tools).toContain('read_skill');
  expect(received[1].tools).toContain('add_todo'); // offered once the skill was read
});
`;
