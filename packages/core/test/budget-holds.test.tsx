/**
 * Budgets that cannot be walked around: an aborted call is charged what it consumed (an estimate,
 * marked so), concurrent turns of one owner reserve before they call (so they cannot all pass one
 * check), a refused send leaves no orphan user message, hostile prices and periods are refused when
 * the session is made, and the owner '' has a budget like any other.
 */
import { describe, expect, test } from 'vitest';
import {
  Agent,
  type Budget,
  BudgetExceededError,
  createSession,
  createSessions,
  Instructions,
  type Model,
  memoryStore,
  type SessionEvent,
  type SessionStore,
  Skill,
  Text,
} from '../src/index.js';
import { contextChangeLine, contextChangesOf, textOf } from '../src/parts/message-parts.js';
import { estimateTokens, periodOf, spentSince } from '../src/provider.js';
import { firstRequestTokensOf, heldTurns, keyOf, streamingModel } from './budget-helpers.js';
import { gate } from './gate.js';

const App = () => (
  <Agent>
    <Instructions>You answer briefly.</Instructions>
    <Skill name="notes" description="Notes">
      <Text>Some notes.</Text>
    </Skill>
  </Agent>
);

/** The estimated input of the first request of a turn saying `text` to `<App />` (what a reservation holds). */
const firstRequestTokens = (text: string) => firstRequestTokensOf(<App />, text);

/** A streaming model that sends `text` and then waits until the call is aborted (it never finishes by itself). */
const stalling = (text: string, streamed: () => void) =>
  streamingModel('stalling', [{ type: 'text-delta', text }], streamed);

/** A model that answers `ok` and reports `inputTokens` read and nothing written. */
const answering = (inputTokens: number): Model => ({
  generate: async () => ({ text: 'ok', toolCalls: [], usage: { inputTokens, outputTokens: 0 } }),
});

/**
 * Sessions of `<App />` kept in `store`, every owner holding `tokens` a day (a warning past it with
 * `onExceed: 'warn'`).
 */
const dailyPerOwner = (store: SessionStore, model: Model, tokens: number, onExceed?: 'warn') =>
  createSessions(<App />, {
    store,
    model,
    budget: { perOwner: { tokens, period: 'day' }, ...(onExceed && { onExceed }) },
  });

describe('an aborted model call is charged for what it consumed', () => {
  test('an aborted model call is charged its input and what it streamed, marked estimated (createSession)', async () => {
    const streamed = gate();
    const session = createSession(<App />, { model: stalling('Partial answer, cut off here.', streamed.open) });
    const controller = new AbortController();
    const turn = session.send('go', { signal: controller.signal }).catch((e: unknown) => e);
    await streamed.opened;
    controller.abort();
    expect(await turn).toMatchObject({ name: 'AbortError' });
    const input = await firstRequestTokens('go');
    expect(session.usage).toEqual({
      inputTokens: input,
      outputTokens: estimateTokens('Partial answer, cut off here.'),
      estimated: true,
    });
  });

  test('leaving the stream mid-call charges the call the same way', async () => {
    const session = createSession(<App />, { model: stalling('Some words', () => {}) });
    for await (const event of session.stream('go')) if (event.type === 'text-delta') break;
    expect(session.usage).toMatchObject({ outputTokens: estimateTokens('Some words'), estimated: true });
    expect(session.usage?.inputTokens).toBeGreaterThan(0);
  });

  test('a call that fails before anything came back consumed nothing: it is not charged', async () => {
    const session = createSession(<App />, {
      model: {
        generate: async () => {
          throw new Error('connection refused');
        },
      },
    });
    await expect(session.send('go')).rejects.toThrow(/connection refused/);
    expect(session.usage).toBeUndefined();
  });

  test("an aborted turn of createSessions is charged on the session's usage and the owner's spend, and both are kept in the store", async () => {
    const since = Date.now();
    const store = memoryStore();
    const streamed = gate();
    const sessions = dailyPerOwner(store, stalling('Half a reply', streamed.open), 1_000_000);
    const controller = new AbortController();
    const turn = sessions.send('c1', 'go', { owner: 'ann', signal: controller.signal }).catch((e: unknown) => e);
    await streamed.opened;
    controller.abort();
    await turn;
    const input = await firstRequestTokens('go');
    const charged = input + estimateTokens('Half a reply');
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({ tokens: charged, dollars: 0 });
    expect((await sessions.get('c1', { owner: 'ann' }))?.usage).toMatchObject({ estimated: true });
  });

  test('a model that reports no usage is charged an estimate on its owner’s spend', async () => {
    const since = Date.now();
    const store = memoryStore();
    const sessions = dailyPerOwner(store, { generate: async () => ({ text: 'a reply', toolCalls: [] }) }, 1_000_000);
    await sessions.send('c1', 'go', { owner: 'ann' });
    const input = await firstRequestTokens('go');
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({
      tokens: input + estimateTokens('a reply'),
      dollars: 0,
    });
  });
});

describe('concurrent turns of one owner reserve before they call', () => {
  test('concurrent turns of one owner cannot all pass the same check: the reservations never add up past the limit', async () => {
    const since = Date.now();
    const store = memoryStore();
    const input = await firstRequestTokens('go');
    // Room for two first calls, not three.
    const limit = Math.floor(input * 2.5);
    // No output: each call reserves its input alone, as the limit here counts. Two "processes"
    // over one store, three turns each, six chats of one owner, all at once.
    const { inModel, turns, processes } = await heldTurns(<App />, {
      store,
      count: 6,
      budget: { perOwner: { tokens: limit, period: 'day' } },
      maxOutputTokens: 0,
      usage: { inputTokens: input, outputTokens: 0 },
    });
    for (const release of inModel) release();
    const results = await Promise.all(turns);
    const refused = results.filter((r) => r instanceof BudgetExceededError) as BudgetExceededError[];
    expect(inModel).toHaveLength(2);
    expect(refused).toHaveLength(4);
    for (const error of refused) {
      expect(error).toMatchObject({ scope: 'owner', owner: 'ann', unit: 'tokens', limit, next: input });
      expect(error.spent + error.next).toBeGreaterThan(limit);
    }
    // What was spent is what the admitted calls used: never past the limit.
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({ tokens: 2 * input, dollars: 0 });
    // The refused sends left no chat behind.
    for (let i = 0; i < 6; i++) {
      const info = await processes[i % 2].get(`chat-${i}`, { owner: 'ann' });
      if (info) expect(info.transcriptLength).toBe(2);
    }
  });

  test('a reservation is settled with what the call used, and released when the call failed before anything came back', async () => {
    const since = Date.now();
    const store = memoryStore();
    let fail = true;
    const sessions = createSessions(<App />, {
      store,
      model: {
        async generate() {
          if (fail) throw new Error('the model is down');
          return { text: 'ok', toolCalls: [], usage: { inputTokens: 7, outputTokens: 3 } };
        },
      },
      budget: { perOwner: { tokens: 1_000_000, period: 'day' } },
    });
    await expect(sessions.send('c1', 'go', { owner: 'ann' })).rejects.toThrow(/down/);
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({ tokens: 0, dollars: 0 });
    fail = false;
    await sessions.send('c1', 'again', { owner: 'ann' });
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({ tokens: 10, dollars: 0 });
  });
});

describe("onExceed: 'warn' with an owner's budget", () => {
  test("onExceed: 'warn': an owner over the limit is warned once per turn, and its calls are still reserved and charged", async () => {
    const since = Date.now();
    const store = memoryStore();
    const sessions = dailyPerOwner(store, answering(600), 1_000, 'warn');
    const warnings: string[] = [];
    for (const id of ['a', 'b', 'c']) {
      for await (const event of sessions.stream(id, 'go', { owner: 'ann' })) {
        if (event.type === 'warning') warnings.push(event.message);
      }
    }
    expect(await spentSince(store, keyOf('ann'), since)).toEqual({ tokens: 1_800, dollars: 0 });
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    for (const warning of warnings) expect(warning).toMatch(/^Budget exceeded: Owner "ann" has/);
  });
});

describe('a send refused by a budget leaves no orphan user message', () => {
  test('createSessions: a turn refused at its first call writes nothing to the store, and the pending lines wait for the next message', async () => {
    const store = memoryStore();
    const budget = { perTurn: { tokens: 1 } };
    const model: Model = { generate: async () => ({ text: 'ok', toolCalls: [] }) };
    const sessions = createSessions(<App />, { store, model });
    // A new chat refused on its first message: no chat at all.
    await expect(sessions.send('fresh', 'hello', { owner: 'ann', budget })).rejects.toMatchObject({ scope: 'turn' });
    expect(await sessions.get('fresh', { owner: 'ann' })).toBeNull();
    // An existing chat refused: its transcript is as it was.
    await sessions.send('old', 'first', { owner: 'ann' });
    const before = await sessions.messages('old', { owner: 'ann' });
    await expect(sessions.send('old', 'second', { owner: 'ann', budget })).rejects.toMatchObject({ scope: 'turn' });
    expect(await sessions.messages('old', { owner: 'ann' })).toEqual(before);
    expect((await sessions.send('old', 'third', { owner: 'ann' })).text).toBe('ok');
    expect((await sessions.messages('old', { owner: 'ann' })).map((m) => textOf(m))).toEqual([
      'first',
      'ok',
      'third',
      'ok',
    ]);
  });

  test('createSession: the contextChanged lines a refused message would have carried go with the next one', async () => {
    const seen: string[] = [];
    const session = createSession(<App />, {
      model: {
        generate: async (req) => {
          seen.push(req.messages.map((m) => textOf(m)).join('|'));
          return { text: 'ok', toolCalls: [] };
        },
      },
      budget: { perTurn: { tokens: 1 } },
    });
    await session.readSkill('notes');
    const events: SessionEvent['type'][] = [];
    session.on('event', (e) => events.push(e.type));
    await expect(session.send('hello')).rejects.toBeInstanceOf(BudgetExceededError);
    expect(session.transcript).toEqual([]);
    expect(events.filter((t) => t === 'message' || t === 'context-changed')).toEqual([]);
    const raised = createSession(<App />, { model: { generate: async () => ({ text: 'x', toolCalls: [] }) } });
    await raised.readSkill('notes');
    await raised.send('hello');
    // The refused session keeps its lines for the message that is finally recorded.
    expect(session.snapshot().pendingContextChanges).toEqual(contextChangesOf(raised.transcript[0]));
    expect(session.snapshot().pendingContextChanges?.map(contextChangeLine)).toEqual(
      textOf(raised.transcript[0]).split('\n').slice(1),
    );
  });
});

describe('hostile budgets are refused when the session is made, naming the rule', () => {
  const cases: [string, Budget, RegExp][] = [
    ['a negative price', { price: { input: -1, output: 1 } }, /budget\.price is not a valid price: .*input/],
    ['a NaN price', { price: { input: 3, output: Number.NaN } }, /budget\.price is not a valid price: .*output/],
    ['an Infinity price', { price: { input: Number.POSITIVE_INFINITY, output: 1 } }, /budget\.price.*finite/],
    ['a price without output', { price: { input: 3 } as never }, /budget\.price is not a valid price/],
    ['a string that is no model', { price: '3.00' }, /budget\.price "3\.00" is not a model with a list price/],
    ['a number', { price: 3 as never }, /budget\.price must be a model name or a price \(got 3\)/],
    ['a huge period', { perOwner: { tokens: 5, period: 1e300 } }, /budget\.perOwner\.period must be .* up to/],
    ['the largest safe period', { perOwner: { tokens: 5, period: Number.MAX_SAFE_INTEGER } }, /ten years/],
    ['a fractional period', { perOwner: { tokens: 5, period: 1500.5 } }, /whole number of milliseconds/],
  ];
  for (const [what, budget, message] of cases) {
    test(`${what}`, () => {
      expect(() => createSession(<App />, { budget })).toThrow(message);
      expect(() => createSessions(<App />, { budget })).toThrow(message);
    });
  }

  test('a known model name, dated or with a provider prefix, and a valid price are accepted', () => {
    for (const price of ['claude-sonnet-4-5', 'anthropic:claude-sonnet-4-5-20250929', { input: 0, output: 0 }]) {
      expect(() => createSession(<App />, { budget: { perSession: { dollars: 1 }, price } })).not.toThrow();
    }
  });

  test('the longest period (ten years) works end to end: the budget error names when it resets', async () => {
    const period = 315_576_000_000;
    const sessions = createSessions(<App />, {
      model: answering(10),
      budget: { perOwner: { tokens: 5, period } },
    });
    await sessions.send('c1', 'go', { owner: 'ann' }).catch(() => {});
    const error = (await sessions.send('c2', 'go', { owner: 'ann' }).catch((e: unknown) => e)) as BudgetExceededError;
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error.resetsAt).toBe(periodOf(period).resetsAt);
    expect(error.message).toContain(new Date(periodOf(period).resetsAt).toISOString());
  });
});

describe("the owner '' is an owner like any other", () => {
  test("the owner '' has a per-owner budget like any other", async () => {
    const since = Date.now();
    const store = memoryStore();
    const sessions = dailyPerOwner(store, answering(600), 1_000);
    await sessions.send('a', 'go', { owner: '' });
    await sessions.send('b', 'go', { owner: '' });
    expect(await spentSince(store, keyOf(''), since)).toMatchObject({ tokens: 1_200 });
    await expect(sessions.send('c', 'go', { owner: '' })).rejects.toMatchObject({ scope: 'owner', owner: '' });
    // No owner at all has no per-owner budget.
    expect((await sessions.send('d', 'go')).text).toBe('ok');
  });
});
