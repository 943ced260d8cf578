import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Agent, Skill, textOf } from '@skilltree/core';
import { McpTools } from '@skilltree/mcp';
import { renderAgent } from '@skilltree/testing/pure'; // pure: a script, not a test file
import { z } from 'zod';

// An MCP server in this process, written with the official SDK.
function calculator() {
  const server = new McpServer({ name: 'calculator', version: '1.0.0' });
  server.registerTool(
    'math.add',
    { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return server;
}

// Called once per connection: each time the skill loads, a fresh linked pair.
function connect() {
  const [client, server] = InMemoryTransport.createLinkedPair();
  void calculator().connect(server);
  return client;
}

const agent = renderAgent(
  <Agent>
    <Skill name="calculator" description="Arithmetic">
      <McpTools name="calculator" transport={connect} prefix="calc_" />
    </Skill>
  </Agent>,
);

await agent.readSkill('calculator'); // waits until the server has listed its tools
const add = agent.getByTool('calc_math_add');
console.log(add.name, '—', add.description);
console.log(JSON.stringify(add.inputSchema));

console.log(textOf(await agent.callTool('calc_math_add', { a: 2, b: 3 })));
console.log(textOf(await agent.callTool('calc_math_add', { a: 'two', b: 3 })));
agent.unmount(); // the skill unmounts: the connection closes
