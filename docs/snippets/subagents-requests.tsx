import { Agent, createSession, Instructions, Subagent, scriptedModel, Text, Tool } from '@skilltree/core';
import { z } from 'zod';

function Desk({ context }: { context: 'isolated' | 'fork' }) {
  return (
    <Agent>
      <Instructions>You run a support desk.</Instructions>
      <Text>Customer: Ada</Text>
      <Tool name="lookup" description="Look up an order" input={z.object({ id: z.string() })} run={() => 'paid'} />
      <Subagent name="researcher" description="Research an order's history" context={context}>
        <Instructions>You research order histories. Answer in one line.</Instructions>
        <Tool name="history" description="Read an order's history" run={() => 'never refunded'} />
      </Subagent>
    </Agent>
  );
}

for (const context of ['isolated', 'fork'] as const) {
  const model = scriptedModel(
    [
      { toolCalls: [{ name: 'lookup', input: { id: 'A-1' } }] },
      { toolCalls: [{ name: 'researcher', input: { task: 'Was A-1 refunded before?' } }] },
      { text: 'A-1 was never refunded.' },
    ],
    { appendOnly: true, subagents: { researcher: [{ text: 'Never refunded.' }] } },
  );
  const session = createSession(<Desk context={context} />, {
    model,
    onSpawn: ({ name, cost }) => console.log(`onSpawn ${name}:`, cost),
  });
  await session.send('Refund A-1?');
  const parent = model.requests.filter((r) => !r.subagent).at(-2);
  const run = model.requests.find((r) => r.subagent);
  const inherited = parent?.appendOnly?.items.length ?? 0;
  console.log(`${context}: the run's first request`);
  console.log('  system:', JSON.stringify(run?.appendOnly?.system.slice(0, 60)));
  console.log('  tools:', run?.appendOnly?.tools.map((t) => t.name).join(', '));
  run?.appendOnly?.items.forEach((item, i) => {
    const from = context === 'isolated' ? '(its own)' : i < inherited ? "(the parent's)" : '(appended)';
    const text =
      item.role === 'system'
        ? item.text
        : item.role === 'assistant' && item.toolCalls
          ? `calls ${item.toolCalls.map((c) => c.name).join(', ')}`
          : item.content.map((p) => ('text' in p ? p.text : p.type)).join(' ');
    console.log(`  ${item.role} ${from}:`, JSON.stringify(text.slice(0, 70)));
  });
  const [record] = session.subagentRuns;
  console.log(`  run ${record.id}: ${record.status}, result ${JSON.stringify(record.result)}`);
}
