import { scriptedModel, type WaitingCall } from '@skilltree/core';
import { type EvalCase, type ModelChoice, oracleModel, runEval } from '@skilltree/evals';
import { beforeEach, describe, expect, it } from 'vitest';
import { refunded, Shop } from './helpers/agents.js';

/** A model that reads refunds, calls refund, then says it is done: what a real model does here. */
const refunder = () =>
  scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
    { toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] },
    { text: 'Refunded A-1.' },
  ]);

const refund = (over: Partial<EvalCase> = {}): EvalCase => ({
  name: 'refund',
  messages: 'Refund A-1',
  expect: { reads: ['refunds'], toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] },
  ...over,
});

async function trialOf(evalCase: EvalCase, model: ModelChoice = refunder) {
  const report = await runEval({ name: 'approvals', agent: <Shop approveRefunds />, model, cases: [evalCase] });
  return { report, trial: report.cases[0].variants.default.trials[0] };
}

beforeEach(() => {
  refunded.length = 0;
});

describe('calls that wait for approval', () => {
  it('a turn that ends waiting for approval fails the case: the call never ran', async () => {
    const { trial } = await trialOf(refund());
    expect(refunded).toEqual([]);
    expect(trial.toolCalls).toMatchObject([{ name: 'refund', status: 'waiting', waited: 'approval', ok: false }]);
    expect(trial.scores.tools).toBe(0);
    expect(trial.scores.success).toBe(0);
    expect(trial.notes).toContain('tools: refund was called but never ran: it still waits for approval');
    expect(trial.notes).toContain(
      "success: refund waited for approval and was never answered, so it never ran: answer it (the case's answers) or expect it (expect.waiting)",
    );
  });

  it('a case that approves: the call runs and the turn goes on to its reply', async () => {
    const { trial } = await trialOf(refund({ answers: { refund: 'approve' } }));
    expect(refunded).toEqual(['A-1']);
    expect(trial.toolCalls).toMatchObject([{ name: 'refund', status: 'ok', waited: 'approval', answer: 'approve' }]);
    expect(trial.text).toBe('Refunded A-1.');
    expect(trial.scores.success).toBe(1);
  });

  it('a case that denies: the model reads the denial, and a denied call is not a call that was made', async () => {
    const denied = await trialOf(refund({ answers: { refund: { deny: 'over the limit' } } }));
    expect(refunded).toEqual([]);
    expect(denied.trial.toolCalls).toMatchObject([{ name: 'refund', status: 'denied', answer: 'deny' }]);
    expect(denied.trial.toolCalls[0].result).toMatch(/over the limit/);
    expect(denied.trial.scores.success).toBe(0);
    expect(denied.trial.notes).toContain('tools: refund was called but never ran: it was denied');
    // The same trial, expected as what it is: the refund asked first, and was denied.
    const expected = await trialOf(
      refund({
        answers: { refund: 'deny' },
        expect: { reads: ['refunds'], waiting: [{ name: 'refund', input: { orderId: 'A-1' } }], toolCalls: [] },
      }),
    );
    expect(expected.trial.scores.success).toBe(1);
  });

  it('expect.waiting: a call that must wait for approval, left unanswered, is what the case expects', async () => {
    const { trial } = await trialOf(refund({ expect: { reads: ['refunds'], waiting: ['refund'] } }));
    expect(refunded).toEqual([]);
    expect(trial.scores.success).toBe(1);
  });

  it('expect.waiting fails when the call ran without asking', async () => {
    const report = await runEval({
      name: 'no approval',
      agent: <Shop />,
      model: refunder,
      cases: [refund({ expect: { waiting: ['refund'] } })],
    });
    const [trial] = report.cases[0].variants.default.trials;
    expect(trial.scores.success).toBe(0);
    expect(trial.notes).toContain('success: refund did not wait for an answer');
  });

  it('answers may be a function of the waiting call; a call it leaves alone stays waiting', async () => {
    const seen: WaitingCall[] = [];
    const { trial } = await trialOf(
      refund({
        answers: (call) => {
          seen.push(call);
          return (call.input as { orderId: string }).orderId === 'A-1' ? 'approve' : undefined;
        },
      }),
    );
    expect(seen).toMatchObject([{ name: 'refund', input: { orderId: 'A-1' }, for: 'approval' }]);
    expect(trial.scores.success).toBe(1);
  });

  it('an answer of another shape is a problem of the run, naming the case and the call', async () => {
    const { report, trial } = await trialOf(refund({ answers: () => 'yes' as never }));
    expect(trial.error?.kind).toBe('setup');
    expect(report.passed).toBe(false);
    expect(report.problems[0]).toMatch(/Case "refund": the answer to refund \(\S+\) is not 'approve', 'deny'/);
  });

  it('the oracle makes the calls a case expects to wait, and the case answers them or not', async () => {
    const asked = await trialOf(refund({ expect: { reads: ['refunds'], waiting: ['refund'] } }), oracleModel());
    expect(asked.trial.toolCalls).toMatchObject([{ name: 'refund', status: 'waiting' }]);
    expect(asked.trial.scores.success).toBe(1);
    const approved = await trialOf(refund({ answers: { refund: 'approve' } }), oracleModel());
    expect(refunded).toEqual(['A-1']);
    expect(approved.trial.scores.success).toBe(1);
  });
});
