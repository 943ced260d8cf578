/**
 * The OpenAI test server enforces the API's rules, so that the adapter's tests mean something: it
 * refuses function tools with reasoning on Chat Completions for GPT-5.4 and later, refuses a
 * reasoning item by id alone under `store: false`, refuses reasoning it did not produce for that
 * model, and counts the reasoning the API drops after a prefix change.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatToolsRefusal, notPersisted, type OpenAIScript, openaiScript } from './helpers/openai-rules.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let script: OpenAIScript;
beforeEach(async () => {
  server = await startServer();
  script = openaiScript(Array.from({ length: 20 }, (_, i) => ({ text: `reply ${i + 1}` })));
  server.queue(...Array.from({ length: 20 }, () => script.handler));
});
afterEach(async () => {
  await server.close();
});

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const tool = { type: 'function', function: { name: 'read_skill', parameters: { type: 'object' } } };
const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'hi' }],
  tools: [tool],
  ...extra,
});

describe('the OpenAI test server: Chat Completions', () => {
  it("refuses function tools with reasoning for GPT-5.4 and later, with the API's text", async () => {
    const refused = await post('/chat/completions', chat('gpt-5.6'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      message:
        "Function tools with reasoning_effort are not supported for gpt-5.6 in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.",
      type: 'invalid_request_error',
      param: 'reasoning_effort',
      code: null,
    });
    expect((await post('/chat/completions', chat('gpt-5.4', { reasoning_effort: 'low' }))).body.error.message).toBe(
      chatToolsRefusal('gpt-5.4'),
    );
    // Reasoning off, a model that does not reason by default, an older model, or no tools: accepted.
    expect((await post('/chat/completions', chat('gpt-5.6', { reasoning_effort: 'none' }))).status).toBe(200);
    expect((await post('/chat/completions', chat('gpt-5.4'))).status).toBe(200);
    expect((await post('/chat/completions', chat('gpt-4.1'))).status).toBe(200);
    expect((await post('/chat/completions', chat('o3'))).status).toBe(200);
    expect((await post('/chat/completions', { ...chat('gpt-5.6'), tools: [] })).status).toBe(200);
    expect(script.refusals.map((r) => r.request)).toEqual([0, 1]);
  });

  it('refuses a tool message without its call, and a call without its tool message', async () => {
    const orphan = await post('/chat/completions', {
      model: 'gpt-4.1',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'c1', content: 'x' },
      ],
    });
    expect(orphan.body.error.message).toMatch(/^Invalid parameter: messages with role 'tool' must be a response/);
    const unanswered = await post('/chat/completions', {
      model: 'gpt-4.1',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'x', arguments: '{}' } }],
        },
        { role: 'user', content: 'well?' },
      ],
    });
    expect(unanswered.body.error.message).toMatch(/did not have response messages: c1$/);
  });
});

describe('the OpenAI test server: Responses', () => {
  const ask = (input: unknown[], extra: Record<string, unknown> = {}) =>
    post('/responses', {
      model: 'gpt-5.6',
      instructions: 'Be brief.',
      input,
      store: false,
      include: ['reasoning.encrypted_content'],
      ...extra,
    });

  /** A first request, and the reasoning item and message it returned. */
  async function first() {
    const response = await ask([{ role: 'user', content: 'hi' }]);
    expect(response.status).toBe(200);
    const [reasoning, message] = response.body.output;
    expect(reasoning).toMatchObject({ type: 'reasoning', encrypted_content: expect.stringMatching(/^enc\./) });
    return { reasoning, message };
  }

  it('a model that reasons returns its reasoning encrypted only when asked with include', async () => {
    await first();
    const plain = await ask([{ role: 'user', content: 'hi' }], { include: undefined });
    expect(plain.body.output[0].type).toBe('reasoning');
    expect(plain.body.output[0].encrypted_content).toBeUndefined();
    const none = await ask([{ role: 'user', content: 'hi' }], { reasoning: { effort: 'none' } });
    expect(none.body.output.map((i: { type: string }) => i.type)).toEqual(['message']);
  });

  it('refuses a reasoning item by id alone under store: false', async () => {
    const { reasoning, message } = await first();
    const { encrypted_content: _, ...byId } = reasoning;
    const refused = await ask([{ role: 'user', content: 'hi' }, byId, message, { role: 'user', content: 'more' }]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(notPersisted(reasoning.id));
  });

  it('refuses reasoning it did not produce for this model, or without the item that followed it', async () => {
    const { reasoning, message } = await first();
    const tampered = { ...reasoning, encrypted_content: `${reasoning.encrypted_content}x` };
    const input = (item: unknown) => [
      { role: 'user', content: 'hi' },
      item,
      message,
      { role: 'user', content: 'more' },
    ];
    expect((await ask(input(tampered))).body.error.message).toBe(
      `The encrypted content for item ${reasoning.id} could not be verified.`,
    );
    expect((await ask(input(reasoning), { model: 'gpt-5.5' })).body.error.message).toBe(
      `The encrypted content for item ${reasoning.id} could not be verified.`,
    );
    const alone = await ask([{ role: 'user', content: 'hi' }, reasoning, { role: 'user', content: 'more' }]);
    expect(alone.body.error.message).toBe(
      `Item '${reasoning.id}' of type 'reasoning' was provided without its required following item.`,
    );
  });

  it('counts reasoning replayed after a prefix change (dropped, not refused); an unchanged prefix keeps it', async () => {
    const { reasoning, message } = await first();
    const next = { role: 'user', content: 'more' };
    // The same prefix (a message's string content is its one text part): kept.
    const same = await ask([{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, reasoning, message, next]);
    expect(same.status).toBe(200);
    expect(script.droppedReasoning).toBe(0);
    // An earlier message edited, the instructions changed, or the tools: dropped each time.
    await ask([{ role: 'user', content: 'hi!' }, reasoning, message, next]);
    await ask([{ role: 'user', content: 'hi' }, reasoning, message, next], { instructions: 'Be briefer.' });
    const changed = await ask([{ role: 'user', content: 'hi' }, reasoning, message, next], {
      tools: [{ type: 'function', name: 'read_skill', parameters: {}, strict: false }],
    });
    expect(changed.status).toBe(200);
    expect(script.droppedReasoning).toBe(3);
    expect(script.drops.map((d) => d.itemId)).toEqual([reasoning.id, reasoning.id, reasoning.id]);
    expect(script.refusals).toEqual([]);
  });

  it('refuses unpaired function calls and outputs, and additional_tools from another role', async () => {
    const call = { type: 'function_call', call_id: 'c1', name: 'x', arguments: '{}' };
    const output = { type: 'function_call_output', call_id: 'c1', output: 'ok' };
    const user = { role: 'user', content: 'hi' };
    expect((await ask([user, call])).body.error.message).toBe('No tool output found for function call c1.');
    expect((await ask([user, output])).body.error.message).toBe(
      'No tool call found for function call output with call_id c1.',
    );
    const tools = { type: 'additional_tools', role: 'user', tools: [{ type: 'function', name: 'x' }] };
    expect((await ask([user, tools])).body.error.message).toBe(
      "Invalid value: 'user'. Supported values are: 'developer'.",
    );
    expect((await ask([user, call, output, { ...tools, role: 'developer' }])).status).toBe(200);
  });

  it('answers 404 for /responses when it plays a chat-only server', async () => {
    const chatOnly = openaiScript([{ text: 'hi' }], { chatOnly: true });
    await server.close();
    server = await startServer();
    server.queue(chatOnly.handler, chatOnly.handler);
    expect((await ask([{ role: 'user', content: 'hi' }])).status).toBe(404);
    expect(
      (await post('/chat/completions', { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] })).status,
    ).toBe(200);
  });
});
