import { type EvalExpectations, scoreSuccess, type TrialResult } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { calls, reads, trialOf } from './helpers/trial.js';

const score = async (expectations: EvalExpectations, over: Partial<TrialResult> = {}) =>
  (await scoreSuccess(trialOf(over), { name: 'c', messages: 'hi', expect: expectations })) as {
    value: boolean;
    metrics: { checks: number };
    notes: string[];
  };

describe('task success', () => {
  it('every expectation holds: success, all checks pass', async () => {
    const out = await score(
      {
        reads: ['refunds'],
        notRead: 'others',
        toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }],
        notCalled: ['charges'],
        text: ['refunded', /A-\d/, { not: 'sorry' }],
        stores: { cart: { items: [] }, tickets: (s: string[]) => s.length === 1 },
        check: (trial) => trial.steps === 3,
      },
      {
        reads: reads('refunds'),
        toolCalls: calls(['refund', { orderId: 'A-1' }]),
        text: 'I refunded A-1.',
        stores: { cart: { items: [] }, tickets: ['T-1'] },
        steps: 3,
      },
    );
    expect(out).toEqual({ value: true, metrics: { checks: 1 }, notes: [] });
  });

  it('each failed expectation is a note, and success.checks is the share that hold', async () => {
    const out = await score(
      {
        reads: ['refunds'],
        notRead: ['billing'],
        toolCalls: ['refund'],
        notCalled: ['charges'],
        text: ['refunded', { not: /sorry/i }],
        stores: { cart: { items: ['lamp'] } },
        check: () => 'the customer was not greeted',
      },
      {
        reads: reads('billing'),
        toolCalls: calls(['charges']),
        text: 'Sorry, no.',
        stores: { cart: { items: [] } },
      },
    );
    expect(out.value).toBe(false);
    expect(out.notes).toEqual([
      'refunds was not read',
      'billing was read',
      'tool calls: refund was not called',
      'charges was called',
      'the reply lacks "refunded"',
      'the reply matches /sorry/i',
      'store cart: items: expected 1 items, got 0',
      'the customer was not greeted',
    ]);
    expect(out.metrics.checks).toBeCloseTo(1 / 9);
  });

  it("notRead 'others': any skill outside reads and mayRead, also one the catalog lacks", async () => {
    const out = await score(
      { reads: ['refunds'], mayRead: ['billing'], notRead: 'others' },
      { reads: reads('refunds', 'billing', 'shoping') },
    );
    expect(out.notes).toEqual(['shoping was read']);
  });

  it('a turn that failed fails the case, with its message', async () => {
    const out = await score({}, { error: { kind: 'turn', message: 'maxSteps reached' } });
    expect(out).toEqual({ value: false, metrics: { checks: 0 }, notes: ['the turn failed: maxSteps reached'] });
  });

  it('a store rule on a store the trial never used says which stores there are', async () => {
    const out = await score({ stores: { tickets: [] } }, { stores: { cart: {} } });
    expect(out.notes).toEqual(['store tickets was never used (stores: cart)']);
  });

  it('a check that throws fails with the error', async () => {
    const out = await score({
      check: () => {
        throw new Error('boom');
      },
    });
    expect(out.notes).toEqual(['the check threw: boom']);
  });

  it('toolCalls: [] without order exact: a trial that called three tools fails', async () => {
    const out = await score({ toolCalls: [] }, { toolCalls: calls(['search'], ['search'], ['add_to_cart']) });
    expect(out.value).toBe(false);
    expect(out.notes).toEqual(['tool calls: no tool calls expected, 3 made: search, search, add_to_cart']);
  });

  it('a call left waiting for approval fails the case, even when nothing else was expected of it', async () => {
    const waiting = { ...calls(['refund'])[0], ok: false, status: 'waiting' as const, waited: 'approval' as const };
    const out = await score({ reads: [] }, { toolCalls: [waiting], text: '' });
    expect(out.value).toBe(false);
    expect(out.notes).toEqual([
      "refund waited for approval and was never answered, so it never ran: answer it (the case's answers) or expect it (expect.waiting)",
    ]);
    expect((await score({ waiting: ['refund'] }, { toolCalls: [waiting] })).value).toBe(true);
  });

  it('a case with no expectations succeeds when its turns finish', async () => {
    expect((await score({})).value).toBe(true);
  });
});
