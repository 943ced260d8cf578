/**
 * Every token is charged, and overshoot is bounded: reasoning streamed before a stop (or before the
 * stream broke) is charged as output, a response without usage is charged its reasoning too, and an
 * owner's calls reserve their most output with their input, so concurrent calls overshoot a limit
 * by at most one call's output.
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSession, createSessions, Instructions, memoryStore } from '../src/index.js';
import { DEFAULT_RESERVED_OUTPUT_TOKENS } from '../src/observe/budget.js';
import { estimateTokens, type ModelStreamPart, spentSince } from '../src/provider.js';
import { firstRequestTokensOf, heldTurns, keyOf, streamingModel } from './budget-helpers.js';
import { gate } from './gate.js';

const App = () => (
  <Agent>
    <Instructions>You answer briefly.</Instructions>
  </Agent>
);

/** The estimated input of the first request of a turn saying `text` to `<App />`. */
const firstRequestTokens = (text: string) => firstRequestTokensOf(<App />, text);

/** About 8 000 tokens of reasoning, streamed in 40 deltas. */
const THOUGHT = Array.from({ length: 40 }, (_, i) => `${`Let me think about step ${i}`}. `.padEnd(800, '.'));
const THOUGHT_CHARS = THOUGHT.join('').length;

/** Streams `parts`, then waits until the call is aborted (`stall`) or fails as a broken connection. */
const streaming = (parts: ModelStreamPart[], end: 'stall' | 'break', streamed: () => void) =>
  streamingModel('thinking', parts, streamed, end);

const deltas = (): ModelStreamPart[] => THOUGHT.map((text) => ({ type: 'reasoning-delta', text }));

describe('reasoning is output, and it is charged', () => {
  test('reasoning streamed before a stop is charged as output, on the session and on the owner', async () => {
    const since = Date.now();
    const store = memoryStore();
    const streamed = gate();
    const sessions = createSessions(<App />, {
      store,
      model: streaming(deltas(), 'stall', streamed.open),
      budget: { perOwner: { tokens: 10_000_000, period: 'day' } },
    });
    const controller = new AbortController();
    const turn = sessions.send('c1', 'go', { owner: 'ann', signal: controller.signal }).catch((e: unknown) => e);
    await streamed.opened;
    controller.abort();
    expect(await turn).toMatchObject({ name: 'AbortError' });
    const input = await firstRequestTokens('go');
    const output = Math.ceil(THOUGHT_CHARS / 4);
    expect(output).toBeGreaterThan(7_000);
    const usage = (await sessions.get('c1', { owner: 'ann' }))?.usage;
    expect(usage).toEqual({ inputTokens: input, outputTokens: output, estimated: true });
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({ tokens: input + output, dollars: 0 });
  });

  test('a stream that breaks mid-reasoning is charged what it streamed', async () => {
    const session = createSession(<App />, { model: streaming(deltas(), 'break', () => {}) });
    await expect(session.send('go')).rejects.toThrow(/socket hang up/);
    expect(session.usage).toEqual({
      inputTokens: await firstRequestTokens('go'),
      outputTokens: Math.ceil(THOUGHT_CHARS / 4),
      estimated: true,
    });
  });

  test('a finished reasoning block counts once with the deltas it closes, and the text after it adds', async () => {
    const text = 'The answer, cut off';
    const parts: ModelStreamPart[] = [
      ...deltas(),
      {
        type: 'reasoning',
        reasoning: { type: 'reasoning', provider: 'test', model: 'thinking', text: THOUGHT.join('') },
      },
      { type: 'text-delta', text },
    ];
    const session = createSession(<App />, { model: streaming(parts, 'break', () => {}) });
    await expect(session.send('go')).rejects.toThrow(/socket hang up/);
    expect(session.usage?.outputTokens).toBe(estimateTokens(text) + Math.ceil(THOUGHT_CHARS / 4));
  });

  test("a stream that breaks mid tool input is charged the input it streamed; a whole call's input counts once", async () => {
    const args = JSON.stringify({ sku: 'A'.repeat(3_000) });
    const cut: ModelStreamPart[] = [
      { type: 'tool-input-delta', text: args.slice(0, 2_000) },
      { type: 'tool-input-delta', text: args.slice(2_000, 2_800) },
    ];
    const session = createSession(<App />, { model: streaming(cut, 'break', () => {}) });
    await expect(session.send('go')).rejects.toThrow(/socket hang up/);
    const input = await firstRequestTokens('go');
    expect(session.usage).toEqual({ inputTokens: input, outputTokens: Math.ceil(2_800 / 4), estimated: true });
    const whole: ModelStreamPart[] = [
      { type: 'tool-input-delta', text: args },
      { type: 'tool-call', id: 'c1', name: 'buy', input: JSON.parse(args) },
    ];
    const again = createSession(<App />, { model: streaming(whole, 'break', () => {}) });
    await expect(again.send('go')).rejects.toThrow(/socket hang up/);
    expect(again.usage?.outputTokens).toBe(estimateTokens(`\nbuy ${args}`));
  });

  test('under a budget, a response whose provider reports no usage is charged its input, text, tool calls and reasoning', async () => {
    const reasoning = 'r'.repeat(4_000);
    const session = createSession(<App />, {
      model: {
        generate: async () => ({
          text: 'a reply',
          toolCalls: [],
          content: [
            { type: 'reasoning', provider: 'test', model: 'thinking', text: reasoning },
            { type: 'text', text: 'a reply' },
          ],
        }),
      },
      budget: { perSession: { tokens: 1_000_000 } },
    });
    const turn = await session.send('go');
    const expected = {
      inputTokens: await firstRequestTokens('go'),
      outputTokens: estimateTokens('a reply') + 1_000,
      estimated: true,
    };
    expect(turn.usage).toEqual(expected);
    expect(session.usage).toEqual(expected);
  });
});

describe("an owner's calls reserve their most output", () => {
  /** 15 turns of one owner at once over two processes, each call held until all are admitted or refused. */
  async function fifteenAtOnce(maxOutputTokens: number | undefined, output: number, limit: number) {
    const since = Date.now();
    const store = memoryStore();
    const input = await firstRequestTokens('go');
    const { inModel, turns } = await heldTurns(<App />, {
      store,
      count: 15,
      budget: { perOwner: { tokens: limit, period: 'day' } },
      maxOutputTokens,
      usage: { inputTokens: input, outputTokens: output },
    });
    // While every admitted call is in flight, each holds its input and its most output.
    const held = await spentSince(store, keyOf('ann'), since);
    for (const release of inModel) release();
    const refused = (await Promise.all(turns)).filter((r) => r !== null);
    for (const error of refused) expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner' });
    const spent = await spentSince(store, keyOf('ann'), since);
    return { input, admitted: inModel.length, held, spent };
  }

  test('15 concurrent calls of one owner overshoot its limit by at most one call’s output', async () => {
    const input = await firstRequestTokens('go');
    const max = 2_000;
    const limit = 5 * (input + max);
    const { admitted, held, spent } = await fifteenAtOnce(max, max, limit);
    expect(held.tokens).toBe(admitted * (input + max));
    expect(admitted).toBeGreaterThan(0);
    expect(admitted).toBeLessThan(15);
    expect(spent.tokens).toBe(admitted * (input + max));
    expect(spent.tokens).toBeLessThanOrEqual(limit + max);
  });

  test('a model that does not say its most output reserves the documented default', async () => {
    const input = await firstRequestTokens('go');
    const limit = 2 * (input + DEFAULT_RESERVED_OUTPUT_TOKENS);
    const { admitted, held, spent } = await fifteenAtOnce(undefined, 10, limit);
    expect(admitted).toBe(2);
    expect(held.tokens).toBe(2 * (input + DEFAULT_RESERVED_OUTPUT_TOKENS));
    // Settled to what the calls used.
    expect(spent.tokens).toBe(2 * (input + 10));
  });

  test('a single call is admitted when its input fits, whatever its most output: the output reserved is not checked', async () => {
    const since = Date.now();
    const store = memoryStore();
    const input = await firstRequestTokens('go');
    const sessions = createSessions(<App />, {
      store,
      model: {
        maxOutputTokens: 1_000_000,
        generate: async () => ({ text: 'ok', toolCalls: [], usage: { inputTokens: input, outputTokens: 5 } }),
      },
      budget: { perOwner: { tokens: input, period: 'day' } },
    });
    expect((await sessions.send('c1', 'go', { owner: 'ann' })).text).toBe('ok');
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({ tokens: input + 5, dollars: 0 });
  });
});
