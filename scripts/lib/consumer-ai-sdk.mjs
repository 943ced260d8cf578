// The AI SDK major of a new project follows its Node (create-skilltree: AI SDK 6 on Node 20, 7 on
// Node 22 and later, whose packages declare Node >= 22). This is the consumer test's check that
// both majors work where they are installed: the `aiSdk()` bridge drives the `@ai-sdk/openai` of
// that major (LanguageModelV3 with 4.x's predecessor, V4 with 4.x) against a local OpenAI-compatible
// server, and `@skilltree/server` answers the AI SDK's own chat client (`Chat` from
// `@ai-sdk/react`, its `DefaultChatTransport` and stream reader) through an approval with
// `addToolApprovalResponse`.

/** `@ai-sdk/openai` for AI SDK 7 (4.x: LanguageModelV4). Raise it with `AI_SDK_7` of create-skilltree. */
export const AI_SDK_7_OPENAI = '4.0.118';

/** The AI SDK major a project made on Node `major` gets. */
export const aiMajorFor = (major) => (Number(major) >= 22 ? '7' : '6');

/** The test file the consumer adds: `CONSUMER_EXPECT_AI_MAJOR` is the major create-skilltree chose. */
export const AI_SDK_TEST = `import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAI } from '@ai-sdk/openai';
import { Chat } from '@ai-sdk/react';
import { Agent, createSession, createSessions, memoryStore, type Model, type ModelRequest, textOf, Tool } from '@skilltree/core';
import { aiSdk } from '@skilltree/models/ai-sdk';
import { createHandler, type SkilltreeUIMessage, toNodeListener } from '@skilltree/server';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { z } from 'zod';
import { TodoAgent } from './agent.js';

const expected = process.env.CONSUMER_EXPECT_AI_MAJOR;
// Each test waits on its own events (the chat's status, the server's answers); on a machine busy
// with three Nodes' suites a first import alone can take seconds, so the limit only catches a hang.
const HANG = 60_000;
const servers: { close(): void; closeAllConnections(): void }[] = [];
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
}

// Vitest runs in the project: its node_modules has what npm installed.
const versionOf = (name: string) =>
  JSON.parse(readFileSync(join(process.cwd(), 'node_modules', name, 'package.json'), 'utf8')).version as string;

test('the AI SDK installed is the major create-skilltree chose for this Node', () => {
  expect(versionOf('ai').split('.')[0]).toBe(expected);
});

test("aiSdk() drives this major's @ai-sdk/openai against a local OpenAI-compatible server", async () => {
  const bodies: any[] = [];
  const url = await listen((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      bodies.push(body);
      const base = { id: 'chatcmpl-1', created: 1, model: body.model };
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the wire.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: unknown, finish: string | null = null) => \`data: \${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\\n\\n\`;
      res.write(chunk({ role: 'assistant', content: 'Hello ' }));
      res.write(chunk({ content: 'from the wire.' }));
      res.write(chunk({}, 'stop'));
      res.write(\`data: \${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } })}\\n\\n\`);
      res.end('data: [DONE]\\n\\n');
    });
  });
  const provider = createOpenAI({ baseURL: \`\${url}/v1\`, apiKey: 'test' });
  const languageModel = provider.chat('gpt-4.1');
  expect(languageModel.specificationVersion).toBe(expected === '7' ? 'v4' : 'v3');
  const session = createSession(<TodoAgent />, { model: aiSdk(languageModel) });
  const done = await session.send('Hi!');
  expect(done.text).toBe('Hello from the wire.');
  expect(bodies[0].messages.at(-1)).toMatchObject({ role: 'user' });
  expect(bodies[0].tools.map((t: { function: { name: string } }) => t.function.name)).toContain('read_skill');
}, HANG);

test("@skilltree/server answers this major's chat client: an approval with addToolApprovalResponse runs the tool once", async () => {
  const refunds: string[] = [];
  function RefundAgent() {
    return (
      <Agent>
        <Tool
          name="refund"
          description="Refund an order"
          input={z.object({ order: z.string() })}
          needsApproval
          run={({ order }) => {
            refunds.push(order);
            return \`refunded \${order}\`;
          }}
        />
      </Agent>
    );
  }
  const model: Model = {
    name: 'refund-model',
    async generate(req: ModelRequest) {
      const last = req.messages.at(-1);
      if (last?.role === 'tool') return { text: \`Done: \${textOf(last)}\`, toolCalls: [] };
      return { text: '', toolCalls: [{ id: '', name: 'refund', input: { order: 'A-7' } }] };
    },
  };
  const sessions = createSessions(<RefundAgent />, { store: memoryStore(), model });
  const handler = createHandler({ sessions, authorize: (r) => r.headers.get('x-user'), log: false });
  const url = await listen(toNodeListener(handler));
  const chat = new Chat<SkilltreeUIMessage>({
    id: 'c1',
    transport: new DefaultChatTransport({ api: \`\${url}/api/chat\`, headers: { 'x-user': 'alice' } }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  // The chat's own status says when it is idle: no clock.
  const idle = async () => {
    while (chat.status === 'submitted' || chat.status === 'streaming') await new Promise((r) => setTimeout(r, 5));
  };
  await chat.sendMessage({ text: 'refund A-7' });
  await idle();
  const part = chat.messages.at(-1)?.parts.find((p) => p.type === 'dynamic-tool') as
    | { state: string; approval?: { id: string } }
    | undefined;
  expect(part?.state).toBe('approval-requested');
  expect(refunds).toEqual([]);
  await chat.addToolApprovalResponse({ id: part!.approval!.id, approved: true });
  await idle();
  expect(chat.error).toBeUndefined();
  expect(refunds).toEqual(['A-7']);
  expect(chat.messages.at(-1)?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: refunded A-7' });
  await sessions.close();
}, HANG);
`;
