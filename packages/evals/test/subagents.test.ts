import { runChecks, type SubagentRunRecord, scoreSubagents } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { trialOf } from './helpers/trial.js';

const run = (name: string, over: Partial<SubagentRunRecord> = {}): SubagentRunRecord => ({
  name,
  id: `run_${name}`,
  toolCallId: `call_${name}`,
  depth: 1,
  context: 'isolated',
  status: 'done',
  usage: { inputTokens: 1_000, outputTokens: 200 },
  steps: 2,
  ...over,
});

const evalCase = (subagents?: string[]) => ({
  name: 'c',
  messages: 'hi',
  expect: subagents === undefined ? {} : { subagents },
});

const score = (subagents: string[] | undefined, runs: SubagentRunRecord[], extra: Record<string, unknown> = {}) =>
  scoreSubagents(
    trialOf({ subagentRuns: runs, usage: { inputTokens: 4_000, outputTokens: 800 }, ...extra }),
    evalCase(subagents),
  ) as {
    metrics: Record<string, number | null>;
    notes: string[];
  } | null;

describe('subagents: selection and cost of runs', () => {
  it('the researcher needed and spawned, a checker spawned without need: precision 0.5, recall 1', () => {
    const out = score(['researcher'], [run('researcher'), run('checker')]);
    expect(out?.metrics).toMatchObject({ precision: 0.5, recall: 1, runs: 2, failed: 0 });
    expect(out?.notes).toEqual(['spawned, not needed: checker']);
  });

  it('a needed subagent never spawned: recall 0, and the note names it', () => {
    const out = score(['researcher'], []);
    expect(out?.metrics).toMatchObject({ precision: null, recall: 0, runs: 0 });
    expect(out?.notes).toEqual(['not spawned: researcher']);
  });

  it("the runs' tokens, their share of the trial's and their cost count each top-level run once (a nested run is inside its parent's usage)", () => {
    const price = { input: 3, output: 15 };
    const out = score(['researcher'], [run('researcher'), run('checker', { depth: 2, usage: { inputTokens: 500 } })], {
      price,
    });
    expect(out?.metrics.tokens).toBe(1_200);
    expect(out?.metrics.share).toBeCloseTo(1_200 / 4_800);
    expect(out?.metrics.cost).toBeCloseTo((1_000 * 3 + 200 * 15) / 1_000_000);
  });

  it('a case that names no subagents and a trial that spawned none: nothing to score', () => {
    expect(score(undefined, [])).toBeNull();
  });

  it('a run that failed counts as spawned, and the note says why it did not finish', () => {
    const out = score(
      ['researcher'],
      [run('researcher', { status: 'failed', error: 'Subagent "researcher" reached maxSteps (3).' })],
    );
    expect(out?.metrics).toMatchObject({ recall: 1, failed: 1 });
    expect(out?.notes).toEqual(['researcher failed: Subagent "researcher" reached maxSteps (3).']);
  });
});

describe('success with expect.subagents', () => {
  const failing = async (subagents: string[], runs: SubagentRunRecord[]) =>
    (await runChecks(trialOf({ subagentRuns: runs }), evalCase(subagents))).filter((c) => !c.ok).map((c) => c.why);

  it('holds when each named subagent ran to its end', async () => {
    expect(await failing(['researcher'], [run('researcher', { status: 'failed' }), run('researcher')])).toEqual([]);
  });

  it('fails naming a subagent that was not spawned, or whose runs did not finish', async () => {
    expect(
      await failing(['researcher', 'checker'], [run('researcher', { status: 'aborted', error: 'the turn stopped' })]),
    ).toEqual(['subagent researcher did not finish: the turn stopped', 'subagent checker was not spawned']);
  });

  it('subagents: [] fails when any was spawned', async () => {
    expect(await failing([], [run('checker')])).toEqual(['subagents were spawned: checker']);
    expect(await failing([], [])).toEqual([]);
  });
});
