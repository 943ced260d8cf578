/**
 * Window options beyond the seed's default: a token budget, and the opt-in stable window.
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSession, type Message, scriptedModel } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { chooseWindow, estimateTokens } from '../src/transcript/window.js';

function conversation(turns: number, words = 10): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ role: 'user', content: [{ type: 'text', text: `question ${i} ${'word '.repeat(words)}` }] });
    out.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] });
  }
  return out;
}
const users = (messages: Message[]) => messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));

describe('maxTranscriptTokens', () => {
  test('caps the window beside maxTranscriptMessages, and the window still starts at a user message', () => {
    const messages = conversation(20, 40);
    const start = chooseWindow(messages, users(messages), { maxMessages: 60, maxTokens: 200 });
    expect(messages[start].role).toBe('user');
    const tokens = messages.slice(start).reduce((n, m) => n + 4 + estimateTokens(textOf(m)), 0);
    expect(tokens).toBeLessThanOrEqual(200);
    expect(start).toBeGreaterThan(0);
    const withoutBudget = chooseWindow(messages, users(messages), { maxMessages: 60 });
    expect(withoutBudget).toBe(0);
  });

  test('a session option: the request carries only what fits the budget', async () => {
    const tokenizer = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const session = createSession(<Agent />, {
      maxTranscriptTokens: 100,
      tokenizer,
      model: scriptedModel(Array.from({ length: 10 }, () => ({ text: 'ok' }))),
    });
    for (let i = 0; i < 10; i++) await session.send(`message ${i} ${'x '.repeat(20)}`);
    const request = session.request();
    expect(request.messages.length).toBeLessThan(20);
    expect(request.messages[0].role).toBe('user');
    expect(session.config.maxTranscriptTokens).toBe(100);
  });
});

describe('windowMode', () => {
  test("the default is the seed's sliding window: the newest messages that fit", () => {
    const messages = conversation(40);
    expect(chooseWindow(messages, users(messages), { maxMessages: 10 })).toBe(70);
  });

  test('the stable window keeps its first message between turns and jumps by half when full, within the cap', async () => {
    const session = createSession(<Agent />, {
      windowMode: 'stable',
      maxTranscriptMessages: 10,
      model: scriptedModel(Array.from({ length: 30 }, () => ({ text: 'ok' }))),
    });
    const starts: number[] = [];
    for (let i = 0; i < 30; i++) {
      await session.send(`m${i}`);
      const request = session.request();
      expect(request.messages.length).toBeLessThanOrEqual(10);
      expect(request.messages[0].role).toBe('user');
      starts.push(session.view().window.start);
    }
    const moves = starts.filter((start, i) => i > 0 && start !== starts[i - 1]).length;
    // Sliding, the start would move on 25 of the 29 later turns; stable, it jumps every few turns.
    expect(moves).toBeLessThanOrEqual(10);
    expect(starts.at(-1)).toBeGreaterThan(40);
  });

  test('the stable window start survives a snapshot', async () => {
    const { restoreSession } = await import('../src/index.js');
    const session = createSession(<Agent />, {
      windowMode: 'stable',
      maxTranscriptMessages: 10,
      model: scriptedModel(Array.from({ length: 8 }, () => ({ text: 'ok' }))),
    });
    for (let i = 0; i < 8; i++) await session.send(`m${i}`);
    const before = session.view().window.start;
    const restored = restoreSession(<Agent />, session.snapshot(), { windowMode: 'stable', maxTranscriptMessages: 10 });
    expect(restored.view().window.start).toBe(before);
  });
});

describe('estimateCost', () => {
  test('prices uncached input, cache reads and writes, and output each at their own rate', async () => {
    const { estimateCost } = await import('../src/index.js');
    const cost = estimateCost(
      { inputTokens: 1_000_000, cacheReadTokens: 600_000, cacheWriteTokens: 100_000, outputTokens: 10_000 },
      { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    );
    expect(cost.input).toBeCloseTo(0.9);
    expect(cost.cacheRead).toBeCloseTo(0.18);
    expect(cost.cacheWrite).toBeCloseTo(0.375);
    expect(cost.output).toBeCloseTo(0.15);
    expect(cost.total).toBeCloseTo(1.605);
    expect(estimateCost({ inputTokens: 1_000_000 }, 'anthropic:claude-sonnet-4-5').total).toBeCloseTo(3);
    expect(() => estimateCost({}, 'mystery-model')).toThrow('No list price for "mystery-model"');
  });
});
