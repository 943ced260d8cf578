/**
 * Each adapter says the most output one call may produce (`Model.maxOutputTokens`): the `max_tokens`
 * it sends, which an owner's budget reserves with each call's input.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdk } from '../src/ai-sdk.js';
import { anthropic } from '../src/anthropic.js';
import { defaultMaxTokens } from '../src/anthropic-models.js';
import { openai } from '../src/openai.js';

describe('an adapter says its most output per call, as a budget reserves it', () => {
  it('anthropic(): the max_tokens it sends, its option or the default for the model', () => {
    expect(anthropic({ model: 'claude-sonnet-4-5', apiKey: 'k' }).maxOutputTokens).toBe(
      defaultMaxTokens('claude-sonnet-4-5'),
    );
    expect(anthropic({ model: 'claude-sonnet-4-5', apiKey: 'k', maxTokens: 1_234 }).maxOutputTokens).toBe(1_234);
  });

  it('openai() and aiSdk(): the cap they send when one is given, else left to the budget default', () => {
    expect(openai({ model: 'gpt-5', apiKey: 'k', maxTokens: 2_000 }).maxOutputTokens).toBe(2_000);
    expect(openai({ model: 'gpt-5', apiKey: 'k' }).maxOutputTokens).toBeUndefined();
    const mock = new MockLanguageModelV3({});
    expect(aiSdk(mock, { maxOutputTokens: 3_000 }).maxOutputTokens).toBe(3_000);
    expect(aiSdk(mock).maxOutputTokens).toBeUndefined();
  });
});
