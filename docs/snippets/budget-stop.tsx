import { Agent, BudgetExceededError, createSession, scriptedModel, Tool } from '@skilltree/core';
import { z } from 'zod';

const LookupAgent = () => (
  <Agent>
    <Tool name="search" description="Search" input={z.object({ q: z.string() })} run={({ q }) => `nothing for ${q}`} />
  </Agent>
);

// A model stuck in a loop: it searches again and again.
const loop = Array.from({ length: 20 }, (_, i) => ({ toolCalls: [{ name: 'search', input: { q: `try ${i}` } }] }));

const session = createSession(<LookupAgent />, {
  model: scriptedModel(loop),
  budget: { perTurn: { tokens: 1_500 }, perSession: { dollars: 0.5 }, price: 'claude-sonnet-4-5' },
});
try {
  await session.send('Find my order');
} catch (error) {
  if (!(error instanceof BudgetExceededError)) throw error;
  console.log(error.message);
  console.log({ scope: error.scope, unit: error.unit, limit: error.limit, spent: error.spent, next: error.next });
}
const last = session.transcript.at(-1);
console.log(`${session.transcript.length} messages, the last one a ${last?.role} result: every call has its result`);
console.log('usage:', JSON.stringify(session.usage));
