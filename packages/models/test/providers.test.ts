/**
 * The table of providers: each row creates its adapter's model, and a provider from outside the
 * package is one row added with registerProvider.
 */
import { scriptedModel } from '@skilltree/core';
import { describe, expect, test } from 'vitest';
import { type Provider, providerOf, providers, registerProvider } from '../src/index.js';

/** The built-in prefixes, read before any test registers one. */
const BUILT_IN = providers().map((p) => p.prefix);

describe('the provider table', () => {
  test('lists every built-in row in table order, each with its key variable, endpoint variable and default model', () => {
    expect(providers().map((p) => [p.prefix, p.apiKeyEnv, p.baseUrlEnv, p.defaultModel])).toEqual([
      ['anthropic', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'claude-sonnet-4-5'],
      ['openai', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'gpt-4.1'],
    ]);
  });

  test("each row's factory is its adapter: the model is named <prefix>:<model-id>", async () => {
    for (const provider of providers()) {
      const create = await provider.factory();
      const model = create({ model: provider.defaultModel, apiKey: 'test-key', baseURL: 'http://127.0.0.1:9' });
      expect(model.name).toBe(`${provider.prefix}:${provider.defaultModel}`);
    }
  });

  test('a provider from outside is one row: registered, it is listed and found by its prefix', async () => {
    const row: Provider = {
      name: 'Echo',
      prefix: 'echo-test',
      apiKeyEnv: 'ECHO_API_KEY',
      defaultModel: 'echo-1',
      factory: async () => () => scriptedModel([{ text: 'echo' }]),
    };
    expect(providerOf('echo-test')).toBeUndefined();
    registerProvider(row);
    expect(providerOf('echo-test')).toBe(row);
    expect(providers().at(-1)).toBe(row);
    // Registering again (a module evaluated again) replaces the row.
    registerProvider({ ...row, defaultModel: 'echo-2' });
    expect(
      providers()
        .filter((p) => p.prefix === 'echo-test')
        .map((p) => p.defaultModel),
    ).toEqual(['echo-2']);
  });

  test('the built-in prefixes and the CLI words scripted and demo cannot be taken, and a row must be complete', () => {
    const row = providers()[0];
    for (const prefix of [...BUILT_IN, 'scripted', 'demo']) {
      expect(() => registerProvider({ ...row, prefix }), prefix).toThrow(`The provider prefix "${prefix}" is taken`);
    }
    expect(() => registerProvider({ ...row, prefix: 'Has Space' })).toThrow('needs a prefix of lowercase letters');
    expect(() => registerProvider({ ...row, prefix: 'keyless', apiKeyEnv: '' })).toThrow(
      'The provider "keyless" has no apiKeyEnv.',
    );
    expect(() => registerProvider({ ...row, prefix: 'nofactory', factory: undefined as never })).toThrow(
      'has no factory() function',
    );
  });
});
