/**
 * SPEC §19, running runs: what a run costs counts in the parent's turn and session (and budgets),
 * is reported per run; aborting the parent's turn aborts its runs; the calls of one step run
 * concurrently, bounded by `subagentConcurrency`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  BudgetExceededError,
  createSession,
  createSessions,
  Instructions,
  type ModelRequest,
  memoryStore,
  ownTextOf,
  type ScriptedStep,
  Subagent,
  scriptedModel,
  Tool,
} from '../src/index.js';
import { Researcher, stepTogether, WaitTool } from './researcher.js';

const sum = (...values: (number | undefined)[]) => values.reduce<number>((a, b) => a + (b ?? 0), 0);

describe("a run's usage", () => {
  it("counts in the parent's turn and session usage, and is reported on the run", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'researcher', input: { task: 'look' } }] }, { text: 'done' }], {
      subagents: { researcher: [{ text: 'found it, in some detail' }] },
    });
    const session = createSession(<Researcher />, { model });
    const turn = await session.send('go');
    const [run] = session.subagentRuns;
    expect(run.usage.inputTokens).toBeGreaterThan(0);
    expect(run.usage.outputTokens).toBeGreaterThan(0);
    const parentOwn = model.requests.filter((r) => !r.subagent).length;
    expect(parentOwn).toBe(2);
    // The turn's usage is the parent's two calls plus the run's one.
    const runTokens = sum(run.usage.inputTokens, run.usage.outputTokens);
    const turnTokens = sum(turn.usage?.inputTokens, turn.usage?.outputTokens);
    expect(turnTokens).toBeGreaterThan(runTokens);
    expect(session.usage).toEqual(turn.usage);
    expect(turn.steps).toBe(2);
  });

  it("a budget counts the run's calls; a refusal stops the run, and the parent reads why in the error result", async () => {
    const long = 'x'.repeat(8000);
    const model = scriptedModel([{ toolCalls: [{ name: 'researcher', input: { task: 'look' } }] }, { text: 'done' }], {
      subagents: { researcher: [{ toolCalls: [{ name: 'dump', input: {} }] }, { text: 'never' }] },
    });
    const session = createSession(
      <Researcher>
        <Tool name="dump" description="A large result" run={() => long} />
      </Researcher>,
      { model, budget: { perTurn: { tokens: 1200 } } },
    );
    // The run's second request (it carries the large result) would go over the turn's limit: the run
    // stops; the parent's own next request is small enough, so it reads why and goes on.
    const turn = await session.send('go');
    expect(turn.text).toBe('done');
    const result = session.transcript.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ isError: true });
    expect(ownTextOf(result!)).toMatch(/Subagent "researcher" failed: .*[Bb]udget/);
    expect(session.subagentRuns[0].status).toBe('failed');
  });
});

describe('aborting', () => {
  it("aborting the parent's turn aborts its runs; the transcript stays valid", async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'researcher', input: { task: 'look' } }] }, { text: 'never' }], {
      subagents: { researcher: [{ toolCalls: [{ name: 'wait', input: {} }] }, { text: 'never' }] },
    });
    const session = createSession(
      <Researcher>
        <WaitTool onWaiting={() => controller.abort()} />
      </Researcher>,
      { model },
    );
    await expect(session.send('go', { signal: controller.signal })).rejects.toThrow();
    const [run] = session.subagentRuns;
    expect(run.status).toBe('aborted');
    expect(run.error).toMatch(/Subagent "researcher" was aborted/);
    // Every call has its result, in the parent and in the run.
    const calls = session.transcript.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    const results = session.transcript.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(calls.length);
    expect(run.transcript.filter((m) => m.role === 'tool')).toHaveLength(1);
  });
});

describe('concurrency', () => {
  const two = { toolCalls: [0, 1].map((n) => ({ name: 'researcher', input: { task: `part ${n}` } })) };

  it('several calls in one step run concurrently; results are recorded in call order', async () => {
    // Each run's first step waits until both runs have started: it passes only if they run together.
    const { started, step } = stepTogether((task) => ({ text: `done ${task}` }));
    const model = scriptedModel([two, { text: 'all done' }], { subagents: { researcher: [step, step] } });
    const session = createSession(<Researcher />, { model });
    const turn = await session.send('go');
    expect(turn.text).toBe('all done');
    expect(started.sort()).toEqual(['part 0', 'part 1']);
    const results = session.transcript.filter((m) => m.role === 'tool').map((m) => ownTextOf(m));
    expect(results).toEqual(['done part 0', 'done part 1']);
  });

  it('subagentConcurrency bounds how many run at once', async () => {
    const order: string[] = [];
    const step: ScriptedStep = async (req: ModelRequest) => {
      const task = ownTextOf(req.messages[0]);
      order.push(`start ${task}`);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`end ${task}`);
      return { text: task };
    };
    const model = scriptedModel([two, { text: 'all done' }], { subagents: { researcher: [step, step] } });
    const session = createSession(<Researcher />, { model, subagentConcurrency: 1 });
    await session.send('go');
    expect(order).toEqual(['start part 0', 'end part 0', 'start part 1', 'end part 1']);
  });
});

describe('a run with a model of its own', () => {
  it('calls its `model` (a cheaper one) instead of the parent’s', async () => {
    const cheap = scriptedModel([{ text: 'cheap answer' }]);
    const model = scriptedModel([{ toolCalls: [{ name: 'quick', input: { task: 't' } }] }, { text: 'ok' }]);
    const session = createSession(
      <Agent>
        <Subagent name="quick" description="Quick" model={cheap} input={z.object({ task: z.string() })}>
          <Instructions>Be quick.</Instructions>
        </Subagent>
      </Agent>,
      { model },
    );
    await session.send('go');
    expect(cheap.requests).toHaveLength(1);
    expect(model.requests.some((r) => r.subagent)).toBe(false);
    expect(ownTextOf(session.transcript[2])).toBe('cheap answer');
  });
});

describe('a session budget', () => {
  it("counts the run's calls: the parent's next call is refused once the run spent the session's limit", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'researcher', input: { task: 'look' } }] }, { text: 'done' }], {
      subagents: { researcher: [{ text: 'y'.repeat(6000) }] },
    });
    const session = createSession(<Researcher />, { model, budget: { perSession: { tokens: 1500 } } });
    const error = await session.send('go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExceededError);
    const run = session.subagentRuns[0];
    // The session's spend is the parent's first call and the whole run.
    expect((error as BudgetExceededError).scope).toBe('session');
    expect((error as BudgetExceededError).spent).toBeGreaterThan(sum(run.usage.inputTokens, run.usage.outputTokens));
    expect(session.usage?.outputTokens).toBeGreaterThanOrEqual(1500);
  });
});

describe("an owner's budget", () => {
  it("counts the run's calls in the owner's spend, kept in the store: a run over it stops, and the parent reads why", async () => {
    const model = scriptedModel(
      [{ toolCalls: [{ name: 'researcher', input: { task: 'look' } }] }, { text: 'done' }, { text: 'next' }],
      { subagents: { researcher: [{ toolCalls: [{ name: 'dump', input: {} }] }, { text: 'never' }] } },
    );
    const sessions = createSessions(
      <Researcher>
        <Tool name="dump" description="A large result" run={() => 'z'.repeat(8000)} />
      </Researcher>,
      {
        store: memoryStore(),
        model: { ...model, maxOutputTokens: 10 },
        budget: { perOwner: { tokens: 1500, period: 'day' }, onExceed: 'stop' },
      },
    );
    const turn = await sessions.send('chat', 'go', { owner: 'ada' });
    expect(turn.text).toBe('done');
    const [run] = await sessions.subagentRuns('chat', { owner: 'ada' });
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/Subagent "researcher" failed: .*owner/i);
  });
});
