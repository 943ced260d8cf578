/**
 * SPEC §19 with §17, nested: a call waiting inside a run inside a run is one of the chat's waiting
 * calls; answering it continues the inner run, the outer run, then the parent, across a restart.
 */
import { expect, it } from 'vitest';
import { Agent, createSession, ownTextOf, restoreSession, Subagent, scriptedModel, Tool } from '../src/index.js';

it('a call waiting two runs deep has path [outer, inner, tool]; approving it continues both runs, then the parent, across a restart', async () => {
  let runs = 0;
  const App = () => (
    <Agent>
      <Subagent name="outer" description="Outer">
        <Subagent name="inner" description="Inner">
          <Tool
            name="act"
            description="Act"
            needsApproval
            run={() => {
              runs++;
              return 'acted';
            }}
          />
        </Subagent>
      </Subagent>
    </Agent>
  );
  const model = scriptedModel([{ toolCalls: [{ name: 'outer', input: { task: 'go' } }] }, { text: 'top done' }], {
    subagents: {
      outer: [
        { toolCalls: [{ name: 'inner', input: { task: 'go deeper' } }] },
        (req) => ({ text: `outer: ${ownTextOf(req.messages.at(-1)!)}` }),
      ],
      inner: [
        { toolCalls: [{ name: 'act', input: {} }] },
        (req) => ({ text: `inner: ${ownTextOf(req.messages.at(-1)!)}` }),
      ],
    },
  });
  const first = createSession(<App />, { model });
  const { waiting } = await first.send('go');
  expect(waiting?.[0]).toMatchObject({ name: 'act', path: ['outer', 'inner', 'act'] });
  const snapshot = JSON.stringify(first.snapshot());
  first.dispose();
  const second = restoreSession(<App />, snapshot, { model });
  const turn = await second.approve(waiting![0].toolCallId);
  expect(turn.text).toBe('top done');
  expect(runs).toBe(1);
  expect(second.subagentRuns.map((r) => [r.name, r.status, r.result])).toEqual([
    ['outer', 'done', 'outer: inner: acted'],
    ['inner', 'done', 'inner: acted'],
  ]);
});
