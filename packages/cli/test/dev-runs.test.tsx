/**
 * The playground's subagent runs: `skilltree dev` sends each run of the session with every request
 * its model was sent (a run inside a run too), so the page can draw the tree of runs.
 */
import { Agent, createSession, Subagent, scriptedModel, Tool } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { RunLog } from '../src/commands/dev/runs.js';

function Desk() {
  return (
    <Agent>
      <Subagent name="researcher" description="Researches an order">
        <Tool name="lookup" description="Looks an order up" run={() => 'A-1: shipped'} />
        <Subagent name="checker" description="Checks a finding" context="fork">
          <Tool name="verify" description="Verifies" run={() => 'verified'} />
        </Subagent>
      </Subagent>
    </Agent>
  );
}

const call = (name: string, input: Record<string, unknown> = {}) => ({ toolCalls: [{ id: '', name, input }] });

describe('RunLog', () => {
  it('keeps each run with the requests its model was sent, a run inside a run under its parent', async () => {
    const session = createSession(<Desk />, {
      model: scriptedModel([call('researcher', { task: 'A-1' }), { text: 'Shipped.' }], {
        subagents: {
          researcher: [call('lookup'), call('checker', { task: 'check' }), { text: 'A-1 shipped, checked.' }],
          checker: [call('verify'), { text: 'ok' }],
        },
      }),
    });
    const log = new RunLog();
    session.on('event', (event) => log.event(event));
    await session.send('Where is A-1?');
    const runs = log.view(session.subagentRuns);
    expect(runs.map((r) => [r.name, r.depth, r.status, r.requests.length])).toEqual([
      ['researcher', 1, 'done', 3],
      ['checker', 2, 'done', 2],
    ]);
    expect(runs[1].parentRunId).toBe(runs[0].id);
    // Each request is the one the run's model got: it names the run.
    expect(runs[0].requests.every((r) => r.subagent?.name === 'researcher')).toBe(true);
    expect(runs[1].requests.every((r) => r.subagent?.name === 'checker')).toBe(true);
    log.reset();
    expect(log.view([]).length).toBe(0);
    session.dispose();
  });
});
