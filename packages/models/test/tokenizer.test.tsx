/**
 * Rule: `openaiTokenizer(model)` counts exactly what the model's own encoding counts, picks the
 * encoding by model name, never throws on message text, and plugs into `maxTranscriptTokens`.
 */
import { Agent, createSession, type Message, scriptedModel, textOf } from '@skilltree/core';
import { estimateTokens } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { openaiEncoding, openaiTokenizer } from '../src/tokenizer.js';

describe('openaiTokenizer counts what the model counts', () => {
  it("matches OpenAI's published counts for o200k_base (the default) and cl100k_base", () => {
    // From OpenAI's cookbook "How to count tokens with tiktoken".
    expect(openaiTokenizer()('tiktoken is great!')).toBe(6);
    expect(openaiTokenizer('gpt-4o')('お誕生日おめでとう')).toBe(8);
    expect(openaiTokenizer('gpt-4')('お誕生日おめでとう')).toBe(9);
    expect(openaiTokenizer('cl100k_base')('お誕生日おめでとう')).toBe(9);
  });

  it('counts the empty string as zero', () => {
    expect(openaiTokenizer()('')).toBe(0);
  });

  it('counts text that looks like a special token as text instead of throwing', () => {
    const count = openaiTokenizer('gpt-4.1')('a tool result that quotes <|endoftext|> and <|im_start|>');
    expect(count).toBeGreaterThan(10);
  });
});

describe('openaiEncoding picks the encoding by model', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini-2024-07-18', 'o200k_base'],
    ['gpt-4.1-mini', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['openai:gpt-5-mini', 'o200k_base'],
    ['some-future-model', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo-2024-04-09', 'cl100k_base'],
    ['gpt-4-32k-0613', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['text-embedding-3-small', 'cl100k_base'],
    ['gpt-oss-120b', 'o200k_harmony'],
    ['cl100k_base', 'cl100k_base'],
  ])('%s → %s', (model, encoding) => {
    expect(openaiEncoding(model)).toBe(encoding);
  });
});

describe('maxTranscriptTokens with openaiTokenizer', () => {
  it('keeps the window within the budget counted exactly, where the 4-characters estimate would not', async () => {
    const tokenizer = openaiTokenizer('gpt-4.1');
    // Japanese: about one token per character for the model, a quarter token for the estimate.
    const turns = Array.from({ length: 12 }, (_, i) => `注文番号${i}の配送状況を教えてください。届いていません。`);
    const session = createSession(<Agent />, {
      maxTranscriptTokens: 120,
      tokenizer,
      model: scriptedModel(turns.map(() => ({ text: '確認します。' }))),
    });
    for (const text of turns) await session.send(text);
    const { messages } = session.request();
    const cost = (list: readonly Message[]) => list.reduce((n, m) => n + 4 + tokenizer(textOf(m)), 0);
    expect(messages[0].role).toBe('user');
    expect(cost(messages)).toBeLessThanOrEqual(120);
    // One more turn would not fit the exact count.
    const start = session.transcript.length - messages.length;
    expect(cost(session.transcript.slice(start - 2))).toBeGreaterThan(120);
    // The estimate thinks twice as many messages fit: the tokenizer is what keeps the budget.
    const estimated = (list: readonly Message[]) => list.reduce((n, m) => n + 4 + estimateTokens(textOf(m)), 0);
    expect(estimated(session.transcript.slice(start - 4))).toBeLessThanOrEqual(120);
  });
});
