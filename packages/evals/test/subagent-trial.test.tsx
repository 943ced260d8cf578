import { Agent, createSession, Subagent, scriptedModel, Tool } from '@skilltree/core';
import { runTrial } from '@skilltree/evals';
import { expect, test } from 'vitest';

function Desk() {
  return (
    <Agent>
      <Subagent name="researcher" description="Researches an order">
        <Tool name="lookup" description="Looks an order up" run={() => 'A-1: shipped'} />
      </Subagent>
    </Agent>
  );
}

test("a trial keeps its subagent runs, and its usage counts the runs' model calls once", async () => {
  const model = () =>
    scriptedModel(
      [{ toolCalls: [{ id: '', name: 'researcher', input: { task: 'Check A-1' } }] }, { text: 'A-1 shipped.' }],
      {
        subagents: {
          researcher: [{ toolCalls: [{ id: '', name: 'lookup', input: {} }] }, { text: 'A-1 shipped yesterday.' }],
        },
      },
    );
  const evalCase = { name: 'c', messages: 'Where is A-1?', expect: { subagents: ['researcher'] } };
  const trial = await runTrial({ evalCase, variant: 'v', trial: 1, agent: <Desk />, model: model(), options: {} });
  expect(trial.error).toBeUndefined();
  expect(trial.subagentRuns).toMatchObject([{ name: 'researcher', status: 'done', depth: 1, steps: 2 }]);
  const runUsage = trial.subagentRuns?.[0].usage;
  expect(runUsage?.inputTokens).toBeGreaterThan(0);
  // The parent's two model calls and the run's two: the trial's usage is the session's turn usage.
  const session = createSession(<Desk />, { model: model() });
  const turn = await session.send('Where is A-1?');
  session.dispose();
  expect(trial.usage).toEqual(turn.usage);
  expect(trial.toolCalls.map((c) => [c.name, c.status])).toEqual([['researcher', 'ok']]);
});
