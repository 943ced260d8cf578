import { Agent, Skill, Tool } from '@skilltree/core';
import { oracleModel, runEval } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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

describe('oracleModel fills the inputs a tool requires', () => {
  function Desk() {
    return (
      <Agent>
        <Skill name="tickets" description="Open support tickets">
          <Tool
            name="open_ticket"
            description="Open a ticket"
            input={z.object({
              orderId: z.string(),
              priority: z.enum(['high', 'low']),
              amount: z.number().int().positive(),
              contact: z.object({ email: z.string().email(), phone: z.string().optional() }),
              tags: z.array(z.string()).min(1),
              urgent: z.boolean(),
              note: z.string().optional(),
            })}
            run={(input) => `opened ${JSON.stringify(input)}`}
          />
        </Skill>
      </Agent>
    );
  }
  const run = (input?: unknown) =>
    runEval({
      name: 'fill',
      agent: <Desk />,
      model: oracleModel(),
      cases: [
        {
          name: 'open',
          messages: 'Open a ticket for A-9',
          expect: { reads: ['tickets'], toolCalls: [{ name: 'open_ticket', ...(input ? { input } : {}) }] },
        },
      ],
    });

  it('keeps the case’s values and fills every other required input from the schema, so the call runs', async () => {
    const report = await run({ orderId: 'A-9', amount: (n: number) => n > 0 });
    const [trial] = report.cases[0].variants.default.trials;
    expect(trial.toolCalls).toMatchObject([{ name: 'open_ticket', status: 'ok' }]);
    expect(trial.toolCalls[0].input).toEqual({
      priority: 'high',
      contact: { email: 'user@example.com' },
      tags: ['x'],
      urgent: false,
      orderId: 'A-9',
      amount: 1,
    });
    expect(trial.scores.success).toBe(1);
    expect(report.passed).toBe(true);
  });

  it('says when it cannot: a problem of the run naming the call, the case and the key', async () => {
    const report = await run({ orderId: /^A-\d+$/ });
    const [trial] = report.cases[0].variants.default.trials;
    expect(trial.error?.kind).toBe('setup');
    expect(report.passed).toBe(false);
    expect(report.problems[0]).toContain(
      'oracleModel cannot make the input of open_ticket for case "open": orderId: "x" is all it can make, and it does not match /^A-\\d+$/. Give a plain value in the case',
    );
  });
});
