/**
 * Budgets per turn and per session: a turn that would go over a limit stops before the next model
 * call with a typed error, and the transcript stays valid; `'warn'` reports and goes on. Usage comes
 * from the scripted model's estimate, so all of this works offline.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type Budget,
  BudgetExceededError,
  createSession,
  Instructions,
  restoreSession,
  type ScriptedStep,
  scriptedModel,
  Tool,
} from '../src/index.js';
import { periodOf } from '../src/provider.js';

function LoopAgent() {
  return (
    <Agent>
      <Instructions>You look things up.</Instructions>
      <Tool
        name="search"
        description="Search"
        input={z.object({ q: z.string() })}
        run={({ q }) => `nothing for ${q}`}
      />
    </Agent>
  );
}

/** A model stuck in a tool loop: it searches forever. */
const runaway = (n = 19): ScriptedStep[] =>
  Array.from({ length: n }, (_, i) => ({ toolCalls: [{ name: 'search', input: { q: `try ${i}` } }] }));

/** Every tool call in the transcript has its result right after its message. */
function valid(transcript: readonly { role: string; toolCalls?: { id: string }[]; toolCallId?: string }[]) {
  const open = new Set<string>();
  for (const m of transcript) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) open.add(c.id);
    if (m.role === 'tool') open.delete(m.toolCallId as string);
    if (m.role === 'user') expect([...open]).toEqual([]);
  }
  expect([...open]).toEqual([]);
}

describe('per turn', () => {
  test('a runaway tool loop stops before the model call that would go over the turn limit, with the limit, the spend and a valid transcript', async () => {
    const model = scriptedModel([...runaway(), { text: 'done' }]);
    const session = createSession(<LoopAgent />, { model, budget: { perTurn: { tokens: 2_000 } } });
    const error = await session.send('find my order').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExceededError);
    const e = error as BudgetExceededError;
    expect(e).toMatchObject({ name: 'BudgetExceededError', scope: 'turn', unit: 'tokens', limit: 2_000 });
    // It stopped before going over: what was spent plus the next request is over, what was spent is not.
    expect(e.spent).toBeLessThanOrEqual(2_000);
    expect(e.spent + e.next).toBeGreaterThan(2_000);
    expect(e.spent).toBe((session.usage?.inputTokens ?? 0) + (session.usage?.outputTokens ?? 0));
    expect(e.message).toMatch(/budget\.perTurn\.tokens/);
    expect(e.message).toMatch(/transcript is intact/);
    expect(model.remaining).toBeGreaterThan(0);
    valid(session.transcript);
    expect(session.transcript.at(-1)?.role).toBe('tool');
    // The next turn has a fresh turn budget and the conversation goes on.
    const cheap = createSession(<LoopAgent />, {
      model: scriptedModel([{ text: 'hi' }]),
      budget: { perTurn: { tokens: 2_000 } },
    });
    expect((await cheap.send('hello')).text).toBe('hi');
  });

  test('a first request larger than the turn limit is refused before the model is called, and leaves no orphan user message', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const session = createSession(<LoopAgent />, { model, budget: { perTurn: { tokens: 5 } } });
    const recorded: string[] = [];
    session.on('message', () => recorded.push('message'));
    await expect(session.send('hello')).rejects.toMatchObject({ scope: 'turn', spent: 0, limit: 5 });
    expect(model.requests).toEqual([]);
    expect(session.transcript).toEqual([]);
    expect(recorded).toEqual([]);
  });

  test("onExceed: 'warn' reports a warning event once per limit and turn, and the turn goes on", async () => {
    const model = scriptedModel([...runaway(4), { text: 'done' }]);
    const session = createSession(<LoopAgent />, {
      model,
      budget: { perTurn: { tokens: 100 }, onExceed: 'warn' },
    });
    const warnings: string[] = [];
    session.on('warning', (w) => warnings.push(`${w.source}: ${w.message}`));
    expect((await session.send('go')).text).toBe('done');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^budget: Budget exceeded: This turn has spent .* budget\.perTurn\.tokens/);
  });
});

describe('per session', () => {
  test('once the session has spent its limit, the next turn is refused before anything is recorded', async () => {
    const model = scriptedModel([{ text: 'two' }]);
    const first = createSession(<LoopAgent />, { model: scriptedModel([{ text: 'one' }]) });
    await first.send('hi');
    const spent = (first.usage?.inputTokens ?? 0) + (first.usage?.outputTokens ?? 0);
    const restored = restoreSession(<LoopAgent />, first.snapshot(), {
      model,
      budget: { perSession: { tokens: spent } },
    });
    const before = restored.transcript.length;
    await expect(restored.send('again')).rejects.toMatchObject({
      name: 'BudgetExceededError',
      scope: 'session',
      unit: 'tokens',
      spent,
      next: 0,
    });
    expect(restored.transcript.length).toBe(before);
    expect(model.requests).toEqual([]);
  });

  test('dollar limits are priced with budget.price (a model name or a price), or the model’s list price', async () => {
    const model = scriptedModel([...runaway(), { text: 'done' }]);
    const session = createSession(<LoopAgent />, {
      model,
      budget: { perSession: { dollars: 0.01 }, price: { input: 3, output: 15 } },
    });
    const error = (await session.send('go').catch((e: unknown) => e)) as BudgetExceededError;
    expect(error).toMatchObject({ scope: 'session', unit: 'dollars', limit: 0.01 });
    const usage = session.usage ?? {};
    const dollars = ((usage.inputTokens ?? 0) * 3 + (usage.outputTokens ?? 0) * 15) / 1_000_000;
    expect(error.spent).toBeCloseTo(dollars, 10);
    expect(error.message).toMatch(/\$0\.0\d+ of its limit of \$0\.0100 \(budget\.perSession\.dollars\)/);
  });

  test('a dollar limit without a known price is a clear error before anything is recorded', async () => {
    const session = createSession(<LoopAgent />, {
      model: scriptedModel([{ text: 'x' }]),
      budget: { perTurn: { dollars: 1 } },
    });
    await expect(session.send('hi')).rejects.toThrow(/no list price for model "scripted".*budget\.price/);
  });
});

describe('hostile budgets are refused when the session is made', () => {
  const cases: [string, Budget, RegExp][] = [
    ['NaN', { perTurn: { tokens: Number.NaN } }, /budget\.perTurn\.tokens must be a number from 0 up \(got NaN\)/],
    ['negative', { perSession: { dollars: -1 } }, /budget\.perSession\.dollars must be a number from 0 up/],
    ['Infinity', { perTurn: { tokens: Number.POSITIVE_INFINITY } }, /leave it out for no limit/],
    ['a string', { perTurn: { tokens: '5' as unknown as number } }, /got 5/],
    ['a bad period', { perOwner: { tokens: 5, period: 'week' as 'day' } }, /period must be 'day', 'month'/],
    ['a tiny period', { perOwner: { tokens: 5, period: 10 } }, /from 1000 up/],
    ['a bad onExceed', { onExceed: 'ignore' as 'warn' }, /onExceed must be 'stop' or 'warn'/],
    ['an unknown price name', { price: 'gpt-9000' }, /budget\.price "gpt-9000" is not a model with a list price/],
  ];
  for (const [what, budget, message] of cases) {
    test(`${what}`, () => {
      expect(() => createSession(<LoopAgent />, { budget })).toThrow(message);
    });
  }

  test('a limit of 0 blocks every turn', async () => {
    const model = scriptedModel([{ text: 'x' }]);
    const session = createSession(<LoopAgent />, { model, budget: { perSession: { tokens: 0 } } });
    await expect(session.send('hi')).rejects.toBeInstanceOf(BudgetExceededError);
    expect(model.requests).toEqual([]);
  });
});

describe('periods', () => {
  test('a day and a month are UTC calendar periods; a number is a fixed window in milliseconds', () => {
    const now = Date.UTC(2025, 10, 3, 23, 59, 59);
    expect(periodOf('day', now)).toEqual({ key: '2025-11-03', resetsAt: Date.UTC(2025, 10, 4) });
    expect(periodOf('month', now)).toEqual({ key: '2025-11', resetsAt: Date.UTC(2025, 11, 1) });
    expect(periodOf('month', Date.UTC(2025, 11, 31, 12))).toEqual({ key: '2025-12', resetsAt: Date.UTC(2026, 0, 1) });
    expect(periodOf(3_600_000, now)).toEqual({
      key: `ms:3600000:${Math.floor(now / 3_600_000)}`,
      resetsAt: (Math.floor(now / 3_600_000) + 1) * 3_600_000,
    });
  });
});
