/**
 * Reasoning goes back only to the adapter that produced it, named from its configuration: the
 * provider, the endpoint it was given, the model. Two adapters that speak the same API with the same
 * model id to different servers never receive each other's reasoning.
 */
import type { Message, ModelRequest } from '@skilltree/core';
import type { ReasoningPart } from '@skilltree/core/provider';
import { anthropicMessageObject } from '@skilltree/test-kit';
import { describe, expect, it } from 'vitest';
import { anthropic } from '../src/anthropic.js';
import { openai } from '../src/openai.js';
import { simpleRequest, text } from './helpers/request.js';

/** A fetch that answers every request with `answer` and keeps the JSON bodies it was sent. */
function stubFetch(answer: unknown) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: unknown, init?: { body?: unknown }) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { bodies, fetch: fetch as unknown as typeof globalThis.fetch };
}

/** A request whose transcript holds `part` in an earlier assistant message. */
function following(part: ReasoningPart): ModelRequest {
  const req = simpleRequest('and then?');
  const messages: Message[] = [
    { role: 'user', content: text('hi') },
    { role: 'assistant', content: [part, ...text('hello')] },
    { role: 'user', content: text('and then?') },
  ];
  return { ...req, messages };
}

const RESPONSES_ANSWER = {
  id: 'resp_1',
  object: 'response',
  status: 'completed',
  model: 'gpt-5.6',
  output: [
    { type: 'reasoning', id: 'rs_compat', encrypted_content: 'enc-from-the-compatible-server', summary: [] },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] },
  ],
  usage: { input_tokens: 5, output_tokens: 3 },
};

const MESSAGES_ANSWER = anthropicMessageObject(
  [
    { type: 'thinking', thinking: 'hm', signature: 'sig-from-the-proxy' },
    { type: 'text', text: 'hello' },
  ],
  'end_turn',
  { input_tokens: 5, output_tokens: 3 },
  'claude-opus-5-5',
);

describe('reasoning names the adapter that produced it', () => {
  it("an OpenAI-compatible provider's reasoning never reaches openai()", async () => {
    const compatWire = stubFetch(RESPONSES_ANSWER);
    const compatible = openai({
      model: 'gpt-5.6',
      apiKey: 'k',
      baseURL: 'https://compatible.example/v1/',
      fetch: compatWire.fetch,
    });
    const produced = (await compatible.generate(simpleRequest(), {})).content?.[0] as ReasoningPart;
    expect(produced).toMatchObject({
      type: 'reasoning',
      provider: 'openai',
      endpoint: 'https://compatible.example/v1',
      model: 'gpt-5.6',
    });

    const openaiWire = stubFetch(RESPONSES_ANSWER);
    await openai({ model: 'gpt-5.6', apiKey: 'k', fetch: openaiWire.fetch }).generate(following(produced), {});
    expect(JSON.stringify(openaiWire.bodies[0])).not.toContain('enc-from-the-compatible-server');

    // The server that produced it gets it back, byte-exact.
    await compatible.generate(following(produced), {});
    expect(compatWire.bodies[1].input).toContainEqual({
      type: 'reasoning',
      id: 'rs_compat',
      encrypted_content: 'enc-from-the-compatible-server',
      summary: [],
    });
  });

  it("a proxy's thinking never reaches anthropic() at Anthropic's endpoint, nor the other way round", async () => {
    const proxyWire = stubFetch(MESSAGES_ANSWER);
    const proxy = anthropic({
      model: 'claude-opus-5-5',
      apiKey: 'k',
      baseURL: 'https://proxy.example',
      fetch: proxyWire.fetch,
    });
    const fromProxy = (await proxy.generate(simpleRequest(), {})).content?.[0] as ReasoningPart;
    expect(fromProxy).toMatchObject({
      provider: 'anthropic',
      endpoint: 'https://proxy.example',
      model: 'claude-opus-5-5',
    });

    const ownWire = stubFetch(MESSAGES_ANSWER);
    const own = anthropic({ model: 'claude-opus-5-5', apiKey: 'k', fetch: ownWire.fetch });
    await own.generate(following(fromProxy), {});
    expect(JSON.stringify(ownWire.bodies[0])).not.toContain('sig-from-the-proxy');

    const fromOwn = (await own.generate(simpleRequest(), {})).content?.[0] as ReasoningPart;
    expect(fromOwn.endpoint).toBeUndefined();
    await proxy.generate(following(fromOwn), {});
    expect(JSON.stringify(proxyWire.bodies.at(-1))).not.toContain('sig-from-the-proxy');
    await own.generate(following(fromOwn), {});
    expect(JSON.stringify(ownWire.bodies.at(-1))).toContain('sig-from-the-proxy');
  });

  it("reasoning from another provider's model is never sent, whatever its payload", async () => {
    const wire = stubFetch(MESSAGES_ANSWER);
    const model = anthropic({ model: 'claude-opus-5-5', apiKey: 'k', fetch: wire.fetch });
    const foreign: ReasoningPart = {
      type: 'reasoning',
      provider: 'openai',
      model: 'claude-opus-5-5',
      text: 'foreign',
      providerData: { signature: 'a-signature-anthropic-would-read' },
    };
    await model.generate(following(foreign), {});
    expect(JSON.stringify(wire.bodies[0])).not.toContain('a-signature-anthropic-would-read');
  });
});
