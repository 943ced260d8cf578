/**
 * The OpenAI model table, one test per row, each against the test server's rules: `Model.appendOnly`
 * is the row's prefix-bound reasoning (on the Responses API only); a model that reasons returns its
 * reasoning encrypted and gets it back on the next request, nothing refused and nothing dropped; on
 * Chat Completions, a model that refuses function tools with reasoning fails before the request,
 * naming the fix, and the same request with `reasoningEffort: 'none'` is accepted.
 */
import { type Message, type ModelRequest, priceFor } from '@skilltree/core';
import type { ModelResponse } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { OPENAI_MODELS, type OpenAIModelInfo, openai, openaiModelInfo, openaiRequestBody } from '../src/openai.js';
import { chatToolsRefusal, openaiScript } from './helpers/openai-rules.js';
import { sampleRequest, text } from './helpers/request.js';
import { serverPerTest } from './helpers/server.js';

const server = serverPerTest();

const reasonsByDefault = (info: OpenAIModelInfo) => info.reasoning === 'default' || info.reasoning === 'always';

/**
 * The first request of a tool loop (the sample's first user message), and the second built from the
 * reply; append-only (as a session sends it to such a model) with `appendOnly`. The classic layout
 * moves the context to the newest user-role message, a prefix change the bound models drop reasoning after.
 */
function loop(first: ModelResponse | null, appendOnly = false): ModelRequest {
  const req = sampleRequest();
  const messages: Message[] = [{ role: 'user', content: text('I need a lamp') }];
  if (first) {
    messages.push(
      { role: 'assistant', content: first.content ?? [], toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: first.toolCalls[0].id, name: 'add_to_cart', content: text('added lamp') },
    );
  }
  req.messages = messages;
  if (appendOnly) req.appendOnly = { system: req.system, tools: req.tools, items: messages };
  return req;
}

describe.each(Object.entries(OPENAI_MODELS))('OPENAI_MODELS: %s', (id, info) => {
  const options = () => ({ model: id, apiKey: 'k', baseURL: `${server.url}/v1` });
  const steps = () => [
    { toolCalls: [{ id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } }] },
    { text: 'Added.' },
  ];

  it(`reasoning ${info.reasoning}, prefix-bound ${info.prefixBoundReasoning}, Chat Completions ${info.chatRefusesToolsWithReasoning ? 'refuses' : 'takes'} tools with reasoning`, async () => {
    expect(openaiModelInfo(id)).toBe(info);
    expect(openaiModelInfo(`${id}-2026-01-31`)).toBe(info);
    expect(openai(options()).appendOnly).toBe(info.prefixBoundReasoning && reasonsByDefault(info));
    expect(openai({ ...options(), api: 'chat' }).appendOnly).toBe(false);
    if (info.reasoning === 'optional' || info.reasoning === 'default') {
      // Bound reasoning makes a model append-only when it reasons, not when reasoning is off.
      const on = info.reasoning === 'optional' ? 'low' : 'medium';
      expect(openai({ ...options(), reasoningEffort: on }).appendOnly).toBe(info.prefixBoundReasoning);
      expect(openai({ ...options(), reasoningEffort: 'none' }).appendOnly).toBe(false);
    }

    // Responses: the tool loop goes through; reasoning comes back encrypted and is replayed.
    const script = openaiScript([...steps(), ...steps()]);
    server.queue(...Array.from({ length: 8 }, () => script.handler));
    const model = openai(options());
    const first = await model.generate(loop(null, model.appendOnly), {});
    const second = await model.generate(loop(first, model.appendOnly), {});
    expect(second.text).toBe('Added.');
    const reasoning = (first.content ?? []).filter((p) => p.type === 'reasoning');
    expect(reasoning).toHaveLength(reasonsByDefault(info) ? 1 : 0);
    for (const part of reasoning)
      expect(part).toMatchObject({
        provider: 'openai',
        endpoint: `${server.url}/v1`,
        model: id,
        providerData: { itemId: expect.any(String), encryptedContent: expect.any(String) },
      });
    const replayed = server.requests[1].body.input.filter((item: { type?: string }) => item.type === 'reasoning');
    expect(replayed).toHaveLength(reasoning.length);
    expect(script.refusals).toEqual([]);
    expect(script.droppedReasoning).toBe(0);

    // Chat Completions with tools: refused by the adapter (naming the fix) exactly where the API refuses.
    const before = server.requests.length;
    const chat = openai({ ...options(), api: 'chat' });
    if (info.chatRefusesToolsWithReasoning && reasonsByDefault(info)) {
      await expect(chat.generate(loop(null), {})).rejects.toThrow(
        `openai: Chat Completions refuses function tools for ${id} with reasoning, which is on by default, and every skilltree request with tools carries them. To use tools, leave out api: 'chat' to use the Responses API, or pass reasoningEffort: 'none' to openai() to turn reasoning off.`,
      );
      expect(server.requests).toHaveLength(before);
      const off = await openai({ ...options(), api: 'chat', reasoningEffort: 'none' }).generate(loop(null), {});
      expect(off.toolCalls).toHaveLength(1);
      expect(server.requests.at(-1)?.body.reasoning_effort).toBe('none');
    } else {
      expect((await chat.generate(loop(null), {})).toolCalls).toHaveLength(1);
    }
    if (info.chatRefusesToolsWithReasoning) {
      // With reasoning asked for, the adapter refuses before sending, and the server agrees.
      const low = openai({ ...options(), api: 'chat', reasoningEffort: 'low' });
      await expect(low.generate(loop(null), {})).rejects.toThrow("with reasoningEffort 'low'");
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify(openaiRequestBody(loop(null), { model: id, reasoningEffort: 'low' })),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(chatToolsRefusal(id));
    }
    expect(script.refusals.filter((r) => r.path.endsWith('/responses'))).toEqual([]);
  });
});

describe('OPENAI_MODELS: list prices', () => {
  it('the models that refuse tools with reasoning on Chat Completions (the newest) have list prices', () => {
    for (const [id, info] of Object.entries(OPENAI_MODELS)) {
      if (!info.chatRefusesToolsWithReasoning || /-(mini|nano)$/.test(id)) continue;
      expect(priceFor(`openai:${id}`), id).toBeDefined();
    }
    // `gpt-5.6` is Sol, at Sol's prices; a dated id is its model.
    expect(priceFor('gpt-5.6')).toEqual(priceFor('gpt-5.6-sol'));
    expect(priceFor('gpt-5.6-terra-2026-07-09')).toMatchObject({
      input: 2.5,
      output: 15,
      cacheRead: 0.25,
      cacheWrite: 3.125,
    });
  });
});

describe('OPENAI_MODELS: ids the table does not know', () => {
  it('get no checks and are not append-only; an id that looks like a reasoning model asks for encrypted reasoning', async () => {
    expect(openaiModelInfo('qwen3:8b')).toBeUndefined();
    expect(openaiModelInfo('openai/gpt-5.6')).toBe(OPENAI_MODELS['gpt-5.6']);
    const script = openaiScript([{ text: 'a' }, { text: 'b' }]);
    server.queue(script.handler, script.handler);
    await openai({ model: 'qwen3:8b', apiKey: 'k', baseURL: `${server.url}/v1` }).generate(sampleRequest(), {});
    await openai({ model: 'gpt-5.9', apiKey: 'k', baseURL: `${server.url}/v1` }).generate(sampleRequest(), {});
    expect(server.requests[0].body.include).toBeUndefined();
    expect(server.requests[1].body.include).toEqual(['reasoning.encrypted_content']);
    expect(openai({ model: 'gpt-5.9', apiKey: 'k' }).appendOnly).toBe(false);
    expect(openai({ model: 'gpt-5.9', apiKey: 'k', appendOnly: true }).appendOnly).toBe(true);
  });
});
