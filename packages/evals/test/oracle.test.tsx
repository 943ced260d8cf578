import { oracleModel, runEval } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

describe('oracleModel', () => {
  it('answers earlier turns at once, then reads, calls (with plain inputs) and replies with the text rules', async () => {
    const report = await runEval({
      name: 'oracle',
      agent: <Shop />,
      model: oracleModel(),
      cases: [
        {
          name: 'two turns',
          messages: ['Hi', 'Refund A-1 and show my charges'],
          expect: {
            reads: ['refunds', 'billing'],
            toolCalls: [
              { name: 'refund', input: { orderId: 'A-1' } },
              { name: 'charges', input: (x: unknown) => !!x },
            ],
            text: ['refunded', /never used/],
          },
        },
      ],
    });
    const [trial] = report.cases[0].variants.default.trials;
    expect(trial.replies).toEqual(['Noted.', 'Done. refunded']);
    expect(trial.reads.map((r) => [r.name, r.turn])).toEqual([
      ['refunds', 2],
      ['billing', 2],
    ]);
    expect(trial.toolCalls.map((c) => [c.name, c.input, c.ok])).toEqual([
      ['refund', { orderId: 'A-1' }, true],
      ['charges', {}, true],
    ]);
    // A RegExp rule cannot be written into a reply: that check fails, the others hold.
    expect(trial.notes).toEqual(['success: the reply does not match /never used/']);
  });
});
