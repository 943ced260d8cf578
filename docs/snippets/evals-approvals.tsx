import { Agent, Skill, Tool } from '@skilltree/core';
import { oracleModel, runEval } from '@skilltree/evals';
import { z } from 'zod';

// A refund waits for a person when it is over $50.
const Desk = () => (
  <Agent>
    <Skill name="refunds" description="Refund a delivered order">
      <Tool
        name="refund"
        description="Refund an order"
        input={z.object({ orderId: z.string(), cents: z.number().int().positive() })}
        needsApproval={({ cents }) => cents > 5_000}
        run={({ orderId, cents }) => `Refunded ${cents / 100} USD for ${orderId}`}
      />
    </Skill>
  </Agent>
);

const big = { name: 'refund', input: { orderId: 'A-1', cents: 9_900 } };
const report = await runEval({
  name: 'refunds',
  agent: <Desk />,
  model: oracleModel(),
  cases: [
    // The person approves: the refund runs, and the case expects it to.
    {
      name: 'approved',
      messages: 'Refund A-1',
      answers: { refund: 'approve' },
      expect: { reads: ['refunds'], toolCalls: [big] },
    },
    // The person says no: the model reads why. The refund must ask, and must not run.
    {
      name: 'denied',
      messages: 'Refund A-1',
      answers: { refund: { deny: 'over the limit' } },
      expect: { reads: ['refunds'], waiting: [big], toolCalls: [] },
    },
    // Nobody answers: the turn ends waiting, the refund never ran, and the case says so.
    { name: 'unanswered', messages: 'Refund A-1', expect: { reads: ['refunds'], toolCalls: [big] } },
  ],
});
for (const c of report.cases) {
  const [trial] = c.variants.default.trials;
  console.log(`${c.name}: success ${trial.scores.success}`, trial.notes);
}
