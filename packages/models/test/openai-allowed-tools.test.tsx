/**
 * Unloads hold on OpenAI. The Responses API has no removal item: once declared, a tool stays in the
 * conversation's `tools` (or an `additional_tools` item), and before `allowed_tools` a model that
 * called an unloaded skill's tool read `Unknown tool`. The adapter sends the offered tools as
 * `tool_choice: { type: 'allowed_tools', mode: 'auto', tools }`, the declared list unchanged (the
 * prefix and its cache kept); the test server enforces OpenAI's rules for it (allowed tools must be
 * declared; a call outside them is never produced).
 */
import { createSession, type Message } from '@skilltree/core';
import type { ToolSpec } from '@skilltree/core/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowedToolChoice, openai } from '../src/openai.js';
import { Ops } from './helpers/long-conversation.js';
import { allowedToolsProblem } from './helpers/openai-allowed-tools.js';
import { canonical, type OpenAIStep, openaiScript } from './helpers/openai-rules.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const call = (name: string, id: string, input: unknown = {}) => ({ id, name, input });
const read = (skill: string, id: string): OpenAIStep => ({ toolCalls: [call('read_skill', id, { name: skill })] });
const textOf = (m: Message) => m.content.map((p) => ('text' in p ? p.text : '')).join('');

/** Three reads with `maxLoadedSkills` 2: the first skill (refunds) unloads, then the model tries its tool. */
const afterUnload = (): OpenAIStep[] => [
  read('refunds', 'c1'),
  read('billing', 'c2'),
  read('shipping', 'c3'),
  { text: 'Refunds are closed for now.', toolCalls: [call('refund_order', 'c4', { id: '7' })] },
  // Only reached when the call was made (and refused as Unknown tool).
  { text: 'Sorry, that did not work.' },
];

function run(model: string, api?: 'chat') {
  const steps = afterUnload();
  const gpt = openaiScript(steps);
  server.queue(...steps.map(() => gpt.handler));
  const adapter = openai({ model, api, apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  return { gpt, session: createSession(<Ops />, { model: adapter }) };
}

describe("an unloaded skill's tools cannot be called on the Responses API (allowed_tools)", () => {
  it('a tool an unload withdrew stays declared but is not allowed: the model never calls it, nothing reads Unknown tool', async () => {
    const { gpt, session } = run('gpt-5.6');
    const done = await session.send('refund order 7');
    expect(gpt.refusals).toEqual([]);
    expect(done.text).toBe('Refunds are closed for now.');
    expect(gpt.withheld).toEqual([{ request: 3, name: 'refund_order' }]);
    expect(session.transcript.some((m) => m.role === 'tool' && textOf(m).startsWith('Unknown tool'))).toBe(false);
    const last = server.requests[3].body;
    // refund_order is still declared (its additional_tools item is where it was)…
    const declared = [
      ...last.tools.map((t: ToolSpec) => t.name),
      ...last.input.filter((i: { type?: string }) => i.type === 'additional_tools').flatMap((i: any) => i.tools),
    ];
    expect(JSON.stringify(declared)).toContain('refund_order');
    // …and left out of the tools the model may call.
    expect(last.tool_choice).toEqual({
      type: 'allowed_tools',
      mode: 'auto',
      tools: expect.not.arrayContaining([{ type: 'function', name: 'refund_order' }]),
    });
    const allowed = last.tool_choice.tools.map((t: { name: string }) => t.name);
    expect(allowed).toEqual(expect.arrayContaining(['read_skill', 'send_invoice', 'track']));
  });

  it('the prefix is kept: the unload changes tool_choice, never tools or the items already sent', async () => {
    const { session } = run('gpt-5.6');
    await session.send('refund order 7');
    const [, , before, after] = server.requests.map((r) => r.body);
    expect(canonical(after.tools)).toBe(canonical(before.tools));
    expect(canonical(after.input.slice(0, before.input.length))).toBe(canonical(before.input));
    // Before the unload every declared tool was offered: no tool_choice at all.
    expect(before.tool_choice).toBeUndefined();
  });

  it('sends nothing while every declared tool is offered, and none when no declared tool is', () => {
    const spec = (name: string): ToolSpec => ({ name, description: name, inputSchema: { type: 'object' } });
    expect(allowedToolChoice([spec('a'), spec('b')], [spec('b'), spec('a')])).toBeUndefined();
    // A redefined tool is declared twice under one name: still every declared tool.
    expect(allowedToolChoice([spec('a'), spec('a')], [spec('a')])).toBeUndefined();
    expect(allowedToolChoice([spec('a')], [])).toBe('none');
    expect(allowedToolChoice([spec('a'), spec('b')], [spec('b'), spec('c')])).toEqual({
      type: 'allowed_tools',
      mode: 'auto',
      // Only declared names: the API refuses others.
      tools: [{ type: 'function', name: 'b' }],
    });
  });
});

describe('Chat Completions declares only the offered tools', () => {
  it("an unloaded skill's tool is not declared, so no tool_choice is needed and the call is never made", async () => {
    const steps: OpenAIStep[] = [
      read('refunds', 'c1'),
      read('billing', 'c2'),
      read('shipping', 'c3'),
      { text: 'Refunds are closed for now.' },
    ];
    const gpt = openaiScript(steps);
    server.queue(...steps.map(() => gpt.handler));
    const adapter = openai({ model: 'gpt-4.1', api: 'chat', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
    await createSession(<Ops />, { model: adapter }).send('refund order 7');
    expect(gpt.refusals).toEqual([]);
    const last = server.requests[3].body;
    const names = last.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).not.toContain('refund_order');
    expect(names).toEqual(expect.arrayContaining(['read_skill', 'send_invoice', 'track']));
    expect(last.tool_choice).toBeUndefined();
  });
});

describe("the test server keeps OpenAI's allowed_tools rules", () => {
  const responses = (names: string[], mode = 'auto') => ({
    type: 'allowed_tools',
    mode,
    tools: names.map((name) => ({ type: 'function', name })),
  });
  const chat = (names: string[]) => ({
    type: 'allowed_tools',
    allowed_tools: { mode: 'auto', tools: names.map((name) => ({ type: 'function', function: { name } })) },
  });

  it('allowed tools must be declared', () => {
    expect(allowedToolsProblem(responses(['a']), ['a', 'b'], 'responses')).toBeNull();
    expect(allowedToolsProblem(responses(['c']), ['a', 'b'], 'responses')).toMatch(/tool 'c' is not declared/);
    expect(allowedToolsProblem(chat(['a']), ['a'], 'chat')).toBeNull();
    expect(allowedToolsProblem(chat(['c']), ['a'], 'chat')).toMatch(/tool 'c' is not declared/);
  });

  it('the mode is auto or required, and the list is not empty', () => {
    expect(allowedToolsProblem(responses(['a'], 'required'), ['a'], 'responses')).toBeNull();
    expect(allowedToolsProblem(responses(['a'], 'any'), ['a'], 'responses')).toMatch(/'auto' and 'required'/);
    expect(allowedToolsProblem(responses([]), ['a'], 'responses')).toMatch(/non-empty/);
  });

  it('a request that allows an undeclared tool is refused with a 400', async () => {
    const gpt = openaiScript([{ text: 'never' }]);
    server.queue(gpt.handler);
    const body = {
      model: 'gpt-4.1',
      input: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', name: 'a', parameters: { type: 'object' } }],
      tool_choice: responses(['b']),
    };
    const res = await fetch(`${server.url}/v1/responses`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(gpt.refusals).toEqual([expect.objectContaining({ problem: expect.stringMatching(/tool 'b'/) })]);
  });

  it('a call outside the allowed tools is never produced, on either API', async () => {
    const step: OpenAIStep = { text: 'ok', toolCalls: [call('a', 'x1'), call('b', 'x2')] };
    const gpt = openaiScript([step, step]);
    server.queue(gpt.handler, gpt.handler);
    const tools = [
      { type: 'function', name: 'a', parameters: { type: 'object' } },
      { type: 'function', name: 'b', parameters: { type: 'object' } },
    ];
    const r = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'gpt-4.1',
        input: [{ role: 'user', content: 'hi' }],
        tools,
        tool_choice: responses(['a']),
      }),
    });
    const out = (await r.json()).output.filter((o: { type: string }) => o.type === 'function_call');
    expect(out.map((o: { name: string }) => o.name)).toEqual(['a']);
    const c = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'gpt-4.1',
        messages: [{ role: 'user', content: 'hi' }],
        tools: tools.map(({ name, parameters }) => ({ type: 'function', function: { name, parameters } })),
        tool_choice: chat(['b']),
      }),
    });
    const calls = (await c.json()).choices[0].message.tool_calls;
    expect(calls.map((t: { function: { name: string } }) => t.function.name)).toEqual(['b']);
    expect(gpt.withheld).toEqual([
      { request: 0, name: 'b' },
      { request: 1, name: 'a' },
    ]);
  });
});
