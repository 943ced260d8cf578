// What the model is sent for 100 Agent Skills folders and 5 MCP servers: skilltree's catalog and
// loaded skills, side by side with a client that loads everything at once. Run: pnpm bench (it
// builds what it needs first), or `node packages/agent-skills/bench/token-cost.mjs` after
// `pnpm build`. Plain JS over dist/, so it measures what users run.
//
// Both sides are real sessions, and every figure is `estimateTokens` (core's estimate: 4 characters
// a token) of the request core builds (`session.request()`): the system prompt, the context, the
// tools as JSON (name, description, JSON Schema) and the transcript window. The skills are 100
// folders written to a temporary directory (descriptions of 150–300 characters, SKILL.md bodies
// of 2–6 KB); the servers run in this process over the SDK's InMemoryTransport (10–20 tools each).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createElement as h } from 'react';
import { Agent, createSession, estimateTokens, Instructions, Skill } from '../../core/dist/index.js';
import { McpTools } from '../../mcp/dist/index.js';
import { loadSkillFolders, readSkillFolder } from '../dist/index.js';
import { makeServers } from './token-cost/servers.mjs';
import { writeSkillFolders } from './token-cost/skills.mjs';

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'skilltree-token-cost-'));
const sessions = [];

/** The tokens of one request, by part. */
function tokensOf(request) {
  const parts = {
    system: estimateTokens(request.system),
    context: estimateTokens(request.context),
    tools: estimateTokens(JSON.stringify(request.tools)),
    messages: estimateTokens(JSON.stringify(request.messages)),
  };
  return { ...parts, total: parts.system + parts.context + parts.tools + parts.messages, count: request.tools.length };
}

/** Reads a skill as the model does: a `read_skill` call in the transcript, then its result. */
async function read(session, name) {
  const [call] = session.addAssistantMessage({
    content: '',
    toolCalls: [{ id: '', name: 'read_skill', input: { name } }],
  }).toolCalls;
  const result = await session.callTool(call);
  if (result.isError) throw new Error(`token-cost bench: reading ${name} failed: ${result.content}`);
}

function track(session) {
  sessions.push(session);
  return session;
}

/** skilltree: every folder a `<SkillFolder>`, every server an `<McpTools>` inside its own `<Skill>`. */
function skilltreeAgent(servers) {
  return h(
    Agent,
    null,
    loadSkillFolders(dir),
    servers.map((server) =>
      h(
        Skill,
        { key: server.name, name: server.name, description: server.description },
        h(McpTools, { name: server.name, transport: server.connect, prefix: `${server.name}_` }),
      ),
    ),
  );
}

/** Load-everything: every SKILL.md in the instructions and every server's tools, from the start. */
function everythingAgent(folders, servers) {
  return h(
    Agent,
    null,
    folders.map((folder) =>
      h(Instructions, { key: folder.name }, `## ${folder.name}\n${folder.description}\n\n${folder.body}`),
    ),
    servers.map((server) =>
      h(McpTools, { key: server.name, name: server.name, transport: server.connect, prefix: `${server.name}_` }),
    ),
  );
}

/** A fresh skilltree session with `loaded` read in order; the request after the last read. */
async function skilltreeRequest(servers, loaded) {
  const session = track(createSession(skilltreeAgent(servers)));
  for (const name of loaded) await read(session, name);
  return tokensOf(session.request());
}

/** The load-everything session once every server has listed its tools. */
async function everythingRequest(folders, servers) {
  const session = track(createSession(everythingAgent(folders, servers)));
  const expected = servers.reduce((n, s) => n + s.tools.length, 0);
  const deadline = Date.now() + 10_000;
  while (session.request().tools.length < expected) {
    if (Date.now() > deadline)
      throw new Error('token-cost bench: the MCP servers did not list their tools within 10 s.');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await session.settled();
  }
  return tokensOf(session.request());
}

try {
  const names = writeSkillFolders(dir, 100);
  const folders = names.map((name) => readSkillFolder(join(dir, name), { strict: true }));
  const servers = makeServers();
  const mcpTools = servers.reduce((n, s) => n + s.tools.length, 0);
  const bodies = folders.map((f) => f.body.length);
  const descriptions = folders.map((f) => f.description.length);
  const mean = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const bySize = [...servers].sort((a, b) => JSON.stringify(b.tools).length - JSON.stringify(a.tools).length);

  // Three folder skills picked across the list; then two of them and the largest MCP server; then
  // the three largest servers (the heaviest three skills there are).
  const three = [names[7], names[42], names[77]];
  const rows = [
    ['skilltree, nothing loaded (the catalog)', await skilltreeRequest(servers, [])],
    ['skilltree, 3 folder skills loaded', await skilltreeRequest(servers, three)],
    [
      'skilltree, 2 folders and 1 MCP server loaded',
      await skilltreeRequest(servers, [...three.slice(0, 2), bySize[0].name]),
    ],
    [
      'skilltree, the 3 largest MCP servers loaded',
      await skilltreeRequest(
        servers,
        bySize.slice(0, 3).map((s) => s.name),
      ),
    ],
    [`load everything (${folders.length} SKILL.md, all ${mcpTools} tools)`, await everythingRequest(folders, servers)],
  ];

  const everything = rows.at(-1)[1].total;
  const fmt = (n) => n.toLocaleString('en-US');
  console.log(
    `\nToken cost: ${folders.length} Agent Skills folders + ${servers.length} MCP servers (${mcpTools} tools), per request`,
  );
  console.log(
    `  skills: descriptions ${Math.min(...descriptions)}–${Math.max(...descriptions)} chars (mean ${mean(descriptions)}), SKILL.md bodies ${fmt(Math.min(...bodies))}–${fmt(Math.max(...bodies))} chars (mean ${fmt(mean(bodies))})`,
  );
  console.log(
    `  servers: ${servers.map((s) => `${s.name} ${s.tools.length}`).join(', ')} tools; tokens = estimateTokens (4 chars/token) of session.request()\n`,
  );
  const header = ['', 'system', 'context', 'tools', 'messages', 'total', 'tool defs', 'vs everything'];
  const table = rows.map(([label, t]) => [
    label,
    fmt(t.system),
    fmt(t.context),
    fmt(t.tools),
    fmt(t.messages),
    fmt(t.total),
    String(t.count),
    t.total === everything ? '1×' : `${(everything / t.total).toFixed(1)}× less`,
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...table].map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  for (const r of table) console.log(line(r));
  console.log(
    '\nmessages: the read_skill calls and their results. Core records each line a read adds to the context as a\n' +
      'contextChanged line of that result (cut to 200 characters), so while a read is in the transcript window a\n' +
      "loaded skill's instructions are in the request twice: in the context and in the read's result.",
  );
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
} finally {
  for (const session of sessions) session.dispose();
  rmSync(dir, { recursive: true, force: true });
}
