import { Agent, Instructions, Subagent, scriptedModel, Tool, textOf } from '@skilltree/core';
import { callSubagent, callTool, cleanup, finish, renderAgent, reply } from '@skilltree/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';

afterEach(cleanup);

/** A desk agent with two subagents: `researcher` (its last reply is the result) and `summarizer` (typed result). */
function Desk() {
  return (
    <Agent>
      <Instructions>You run the support desk.</Instructions>
      <Subagent name="researcher" description="Researches an order">
        <Tool
          name="lookup"
          description="Looks an order up"
          input={z.object({ order: z.string() })}
          run={({ order }) => `${order}: shipped`}
        />
      </Subagent>
      <Subagent name="summarizer" description="Summarizes a thread" result={z.object({ summary: z.string() })}>
        <Instructions>Summarize in one line.</Instructions>
      </Subagent>
    </Agent>
  );
}

describe('renderAgent and subagents', () => {
  test('a scripted model answers the agent and each run from a script per subagent name; the handle exposes the runs', async () => {
    const model = scriptedModel(
      [callSubagent('researcher', 'Check A-1'), callSubagent('summarizer', { task: 'Sum up' }), reply('A-1 shipped.')],
      {
        subagents: {
          researcher: [callTool('lookup', { order: 'A-1' }), reply('A-1 shipped yesterday.')],
          summarizer: [finish({ summary: 'Customer asked about A-1.' })],
        },
      },
    );
    const agent = renderAgent(<Desk />, { model });
    const turn = await agent.say('Where is A-1?');
    expect(turn.text).toBe('A-1 shipped.');
    expect(agent.subagentRuns.map((run) => [run.name, run.status, run.depth])).toEqual([
      ['researcher', 'done', 1],
      ['summarizer', 'done', 1],
    ]);
    const research = agent.getSubagentRun('researcher');
    expect(research.result).toBe('A-1 shipped yesterday.');
    // The run's transcript is core messages, as the agent's transcript is.
    expect(research.transcript.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'Check A-1'],
      ['assistant', ''],
      ['tool', 'A-1: shipped'],
      ['assistant', 'A-1 shipped yesterday.'],
    ]);
    expect(agent.getSubagentRun('summarizer').result).toEqual({ summary: 'Customer asked about A-1.' });
    // The agent read each run's result as the call's result.
    const results = agent.transcript.filter((m) => m.role === 'tool').map((m) => textOf(m));
    expect(results).toEqual(['A-1 shipped yesterday.', JSON.stringify({ summary: 'Customer asked about A-1.' })]);
    // Each run's requests went to its own script: the run asked with its name.
    expect(model.requests.filter((r) => r.subagent).map((r) => r.subagent?.name)).toEqual([
      'researcher',
      'researcher',
      'summarizer',
    ]);
  });

  test('getSubagentRun names the subagents that ran when asked for one that never did', async () => {
    const agent = renderAgent(<Desk />, {
      model: scriptedModel([callSubagent('researcher', 'x'), reply('ok')], {
        subagents: { researcher: [reply('done')] },
      }),
    });
    expect(agent.subagentRuns).toEqual([]);
    await agent.say('go');
    expect(() => agent.getSubagentRun('summarizer')).toThrow(
      'agent.getSubagentRun("summarizer"): subagent summarizer never ran in this session. Subagents that ran: researcher.',
    );
  });
});
