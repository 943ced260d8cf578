import { scriptedModel, textOf } from '@skilltree/core';
import { callSubagent, callTool, finish, renderAgent, reply } from '@skilltree/testing';
import { describe, expect, test } from 'vitest';
import { ResearchNotes } from '../src/research-agent.js';

const QUESTION = 'What does one night without sleep do to memory?';

describe('the researcher subagent', () => {
  test('researches in a context of its own: its searches and abstracts stay out of the conversation, its findings come back typed', async () => {
    const findings = {
      findings: [{ claim: 'One night without sleep: 40% worse encoding of new pictures.', source: 'P-102' }],
    };
    const model = scriptedModel([callSubagent('researcher', QUESTION), reply('It cuts encoding by 40% (P-102).')], {
      subagents: {
        researcher: [
          callTool('search_papers', { query: 'sleep deprivation' }),
          callTool('read_abstract', { id: 'P-102' }),
          finish(findings),
        ],
      },
    });
    const agent = renderAgent(<ResearchNotes />, { model });
    const turn = await agent.say(QUESTION);
    expect(turn.text).toBe('It cuts encoding by 40% (P-102).');

    const run = agent.getSubagentRun('researcher');
    expect(run).toMatchObject({ status: 'done', context: 'isolated', depth: 1, result: findings });
    // The run started from the question alone, and read the abstract itself.
    expect(run.transcript[0]?.role).toBe('user');
    expect(textOf(run.transcript[0]!)).toBe(QUESTION);
    expect(run.transcript.some((m) => m.role === 'tool' && textOf(m).includes('hippocampal activation'))).toBe(true);
    // The assistant got the findings as the call's result, and none of the abstract's text.
    const result = agent.transcript.find((m) => m.role === 'tool' && m.name === 'researcher');
    expect(JSON.parse(result ? textOf(result) : '')).toEqual(findings);
    expect(agent.transcript.some((m) => textOf(m).includes('hippocampal activation'))).toBe(false);
    // Its tools were the run's: the assistant never had search_papers offered for it.
    expect(agent.request().tools.map((t) => t.name)).toContain('researcher');
    expect(agent.request().tools.map((t) => t.name)).not.toContain('search_papers');
  });

  test('a research that does not finish is an error result naming the researcher, and the assistant goes on', async () => {
    const model = scriptedModel(
      [callSubagent('researcher', QUESTION), reply('The research did not finish; I will look myself.')],
      {
        subagents: { researcher: Array.from({ length: 8 }, () => callTool('search_papers', { query: 'sleep' })) },
      },
    );
    const agent = renderAgent(<ResearchNotes />, { model });
    const turn = await agent.say(QUESTION);
    expect(turn.text).toBe('The research did not finish; I will look myself.');
    const result = agent.transcript.find((m) => m.role === 'tool' && m.name === 'researcher');
    expect(result).toMatchObject({ isError: true });
    expect(result ? textOf(result) : '').toContain('researcher');
    expect(agent.getSubagentRun('researcher').status).toBe('failed');
  });
});
