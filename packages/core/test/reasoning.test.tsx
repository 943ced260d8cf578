/**
 * Reasoning goes back only to the provider, endpoint and model that produced it (one rule,
 * `replaysTo`), and records written before reasoning parts held a provider payload read as today's.
 */
import { describe, expect, test } from 'vitest';
import { createSession, type Model, type ModelRequest, scriptedModel } from '../src/index.js';
import { parseMessage, type ReasoningPart, replaysTo } from '../src/provider.js';
import { ShopAgent } from './fixtures.js';

const part = (over: Partial<ReasoningPart> = {}): ReasoningPart => ({
  type: 'reasoning',
  provider: 'anthropic',
  model: 'claude-opus-5-5',
  text: 'think',
  providerData: { signature: 'sig' },
  ...over,
});

describe('replaysTo', () => {
  test('reasoning replays to the provider, endpoint and model that produced it', () => {
    expect(replaysTo(part(), { provider: 'anthropic', model: 'claude-opus-5-5' })).toBe(true);
    const atProxy = part({ endpoint: 'https://proxy.example/v1' });
    expect(
      replaysTo(atProxy, { provider: 'anthropic', endpoint: 'https://proxy.example/v1', model: 'claude-opus-5-5' }),
    ).toBe(true);
  });

  test("reasoning from another provider's model is never sent", () => {
    expect(replaysTo(part(), { provider: 'openai', model: 'claude-opus-5-5' })).toBe(false);
    expect(replaysTo(part(), { provider: 'anthropic', model: 'claude-sonnet-5' })).toBe(false);
    expect(
      replaysTo(part(), { provider: 'anthropic', endpoint: 'https://other.example', model: 'claude-opus-5-5' }),
    ).toBe(false);
    expect(
      replaysTo(part({ endpoint: 'https://other.example' }), { provider: 'anthropic', model: 'claude-opus-5-5' }),
    ).toBe(false);
  });

  test('reasoning whose model is unknown is never sent', () => {
    expect(replaysTo(part({ model: '' }), { provider: 'anthropic', model: '' })).toBe(false);
  });

  test('a session sends an append-only model only the reasoning that replays to it', async () => {
    const requests: ModelRequest[] = [];
    const scripted = scriptedModel(
      [
        { reasoning: { provider: 'other', model: 'm', text: 'not mine', providerData: { x: 1 } }, text: 'a' },
        { reasoning: { provider: 'mine', model: 'm', text: 'mine', providerData: { y: 2 } }, text: 'b' },
        { text: 'c' },
      ],
      { appendOnly: true },
    );
    const model: Model = {
      appendOnly: true,
      reasoningSource: { provider: 'mine', model: 'm' },
      generate: (req, opts) => {
        requests.push(req);
        return scripted.generate(req, opts);
      },
    };
    const session = createSession(<ShopAgent />, { model });
    await session.send('one');
    await session.send('two');
    await session.send('three');
    const sent = JSON.stringify(requests[2].appendOnly?.items);
    expect(sent).toContain('"mine"');
    expect(sent).not.toContain('not mine');
  });
});

describe('old records', () => {
  test('an old reasoning record upgrades: its provider fields move into providerData', () => {
    const anthropic = parseMessage({
      role: 'assistant',
      content: [
        { type: 'reasoning', provider: 'anthropic', model: 'claude-opus-5-5', text: 't', signature: 'SIG' },
        { type: 'reasoning', provider: 'anthropic', text: '', redactedData: 'RED' },
        { type: 'reasoning', provider: 'openai', model: 'gpt-5', text: '', encryptedContent: 'ENC', itemId: 'rs_1' },
      ],
    });
    expect(anthropic.content).toEqual([
      {
        type: 'reasoning',
        provider: 'anthropic',
        model: 'claude-opus-5-5',
        text: 't',
        providerData: { signature: 'SIG' },
      },
      // No model was recorded: it reads as unknown, and is never sent back (as before).
      { type: 'reasoning', provider: 'anthropic', model: '', text: '', providerData: { redactedData: 'RED' } },
      {
        type: 'reasoning',
        provider: 'openai',
        model: 'gpt-5',
        text: '',
        providerData: { encryptedContent: 'ENC', itemId: 'rs_1' },
      },
    ]);
  });

  test("today's reasoning record reads back as it was written", () => {
    const written = part({
      endpoint: 'https://proxy.example/v1',
      providerData: { signature: 'S', nested: { a: [1] } },
    });
    expect(parseMessage({ role: 'assistant', content: [written] }).content).toEqual([written]);
  });
});

describe('hostile reasoning records', () => {
  const assistant = (reasoning: Record<string, unknown>) => ({
    role: 'assistant',
    content: [
      { type: 'reasoning', ...reasoning },
      { type: 'text', text: 'ok' },
    ],
  });

  test('a reasoning record whose model or provider is not a string is refused, naming where it is', () => {
    expect(() => parseMessage(assistant({ provider: 'anthropic', model: 42, text: '' }), 'message 3')).toThrow(
      /message 3/,
    );
    expect(() => parseMessage(assistant({ provider: null, model: 'm', text: '' }), 'message 3')).toThrow(/message 3/);
  });

  test("a payload that is not an object is dropped, and a part with an empty endpoint counts as the provider's own", () => {
    const message = parseMessage(
      assistant({ provider: 'anthropic', model: 'claude-opus-5-5', endpoint: '', text: 't', providerData: ['sig'] }),
      'message 0',
    );
    const read = message.content[0] as ReasoningPart;
    expect(read.providerData).toBeUndefined();
    expect(read.endpoint).toBeUndefined();
  });

  test("a record's endpoint keeps it from another endpoint: reasoning from a proxy never reaches the provider's own", () => {
    const proxied = part({ endpoint: 'https://proxy.example/v1' });
    expect(replaysTo(proxied, { provider: 'anthropic', model: 'claude-opus-5-5' })).toBe(false);
    expect(
      replaysTo(part(), { provider: 'anthropic', model: 'claude-opus-5-5', endpoint: 'https://proxy.example/v1' }),
    ).toBe(false);
  });
});
