/**
 * Model names are read by one set of rules: `provider:model`, and a dated id is its listed model.
 * Cost, traces and the adapters' model tables all read names through them.
 */
import { describe, expect, test } from 'vitest';
import { modelIdentity } from '../src/observe/trace-attributes.js';
import { listedModel, parseModelName, pricedAs } from '../src/provider.js';

describe('parseModelName', () => {
  test('the provider is before the first colon; the model id may hold colons', () => {
    expect(parseModelName('anthropic:claude-sonnet-4-5')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    });
    expect(parseModelName('openai:qwen3:8b')).toEqual({ provider: 'openai', model: 'qwen3:8b' });
    expect(parseModelName('claude-sonnet-4-5')).toEqual({ model: 'claude-sonnet-4-5' });
  });

  test('a wrapping adapter names the wrapped provider second', () => {
    expect(parseModelName('ai-sdk:anthropic.messages:claude-opus-5-5')).toEqual({
      provider: 'anthropic',
      model: 'claude-opus-5-5',
    });
  });

  test('traces and prices read names by the same rule', () => {
    expect(modelIdentity('openai:qwen3:8b')).toEqual({ provider: 'openai', model: 'qwen3:8b' });
    expect(modelIdentity('ai-sdk:openai.chat:gpt-4o')).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(pricedAs('ai-sdk:anthropic.messages:claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
  });
});

describe('listedModel', () => {
  test('a dated model id is the row of its model', () => {
    const rows = ['claude-opus-5', 'claude-opus-5-5'];
    expect(listedModel('claude-opus-5-5-20261001', rows)).toBe('claude-opus-5-5');
    expect(listedModel('claude-opus-5-5@20261001', rows)).toBe('claude-opus-5-5');
    expect(listedModel('claude-opus-5-5-2026-10-01', rows)).toBe('claude-opus-5-5');
    expect(listedModel('claude-opus-5-latest', rows)).toBe('claude-opus-5');
  });

  test('a variant is not its base model', () => {
    expect(listedModel('gpt-4o-mini', ['gpt-4o'])).toBeUndefined();
    expect(listedModel('claude-opus-5-5x', ['claude-opus-5-5'])).toBeUndefined();
  });
});
