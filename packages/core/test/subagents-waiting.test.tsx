/**
 * SPEC §19 with §17: a call inside a run that waits for approval (or a client's result) is one of
 * the chat's waiting calls, with `path` [subagent, tool]; answering it continues the run, then the
 * parent, in any process (a snapshot, or a store), and the call runs once.
 */
import { ApprovedRefundTool } from '@skilltree/test-kit';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  createSession,
  createSessions,
  Instructions,
  memoryStore,
  ownTextOf,
  restoreSession,
  Subagent,
  scriptedModel,
  Tool,
} from '../src/index.js';

let refunds = 0;

const App = () => (
  <Agent>
    <Instructions>You delegate refunds.</Instructions>
    <Subagent name="refunder" description="Refund an order">
      <Instructions>Refund what you are asked to.</Instructions>
      <ApprovedRefundTool
        run={(order) => {
          refunds++;
          return `refunded ${order}`;
        }}
      />
    </Subagent>
  </Agent>
);

const script = () =>
  scriptedModel([{ toolCalls: [{ name: 'refunder', input: { task: 'refund A-1' } }] }, { text: 'A-1 is refunded.' }], {
    subagents: {
      refunder: [
        { toolCalls: [{ name: 'refund', input: { order: 'A-1' } }] },
        (req) => ({ text: `Done: ${ownTextOf(req.messages.at(-1)!)}` }),
      ],
    },
  });

describe('a call inside a run that waits', () => {
  it("is one of the chat's waiting calls, with path [subagent, tool]; the parent's turn ends waiting", async () => {
    const session = createSession(<App />, { model: script() });
    const turn = await session.send('refund A-1');
    expect(turn.waiting).toHaveLength(1);
    expect(turn.waiting?.[0]).toMatchObject({
      name: 'refund',
      for: 'approval',
      input: { order: 'A-1' },
      path: ['refunder', 'refund'],
    });
    expect(session.waiting).toEqual(turn.waiting);
    expect(session.subagentRuns[0].status).toBe('waiting');
    // The parent's call of the subagent has no result yet.
    expect(session.transcript.filter((m) => m.role === 'tool')).toHaveLength(0);
  });

  it('approving it continues the run, then the parent; the tool runs once', async () => {
    refunds = 0;
    const session = createSession(<App />, { model: script() });
    const { waiting } = await session.send('refund A-1');
    const turn = await session.approve(waiting![0].toolCallId);
    expect(refunds).toBe(1);
    expect(turn.text).toBe('A-1 is refunded.');
    const result = session.transcript.find((m) => m.role === 'tool');
    expect(ownTextOf(result!)).toBe('Done: refunded A-1');
    expect(session.subagentRuns[0]).toMatchObject({ status: 'done', result: 'Done: refunded A-1' });
    expect(session.subagentRuns[0].state).toBeUndefined();
    await expect(session.approve(waiting![0].toolCallId)).rejects.toThrow();
    expect(refunds).toBe(1);
  });

  it('answering it works across a restart: the snapshot holds the run and its state', async () => {
    refunds = 0;
    const model = script();
    const first = createSession(<App />, { model });
    const { waiting } = await first.send('refund A-1');
    const snapshot = JSON.stringify(first.snapshot());
    first.dispose();
    const second = restoreSession(<App />, snapshot, { model });
    expect(second.waiting.map((w) => w.toolCallId)).toEqual([waiting![0].toolCallId]);
    const turn = await second.approve(waiting![0].toolCallId);
    expect(turn.text).toBe('A-1 is refunded.');
    expect(refunds).toBe(1);
    expect(second.subagentRuns[0].status).toBe('done');
  });

  it('a denial is the result the run reads; it goes on, then the parent', async () => {
    refunds = 0;
    const session = createSession(<App />, { model: script() });
    const { waiting } = await session.send('refund A-1');
    const turn = await session.deny(waiting![0].toolCallId, 'over the limit');
    expect(refunds).toBe(0);
    expect(turn.text).toBe('A-1 is refunded.');
    expect(session.subagentRuns[0].result).toMatch(/^Done: Denied: over the limit/);
  });

  it("a new message while it waits supersedes the run: the parent's call reads that it did not run", async () => {
    const model = scriptedModel(
      [{ toolCalls: [{ name: 'refunder', input: { task: 'refund A-1' } }] }, { text: 'Never mind then.' }],
      { subagents: { refunder: [{ toolCalls: [{ name: 'refund', input: { order: 'A-1' } }] }] } },
    );
    const session = createSession(<App />, { model });
    await session.send('refund A-1');
    const turn = await session.send('actually, no');
    expect(turn.text).toBe('Never mind then.');
    const results = session.transcript.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolCallId: session.subagentRuns[0].toolCallId, isError: true });
    expect(session.subagentRuns[0].status).toBe('failed');
    expect(session.waiting).toEqual([]);
  });

  it('with createSessions, any process answers it from the store, and the call runs once', async () => {
    refunds = 0;
    const store = memoryStore();
    const model = script();
    const one = createSessions(<App />, { store, model });
    const { waiting } = await one.send('chat', 'refund A-1', { owner: 'ada' });
    const info = await one.get('chat', { owner: 'ada' });
    expect(info?.waiting[0]).toMatchObject({ name: 'refund', path: ['refunder', 'refund'] });
    const other = createSessions(<App />, { store, model });
    const turn = await other.approve('chat', waiting![0].toolCallId, { owner: 'ada' });
    expect(turn.text).toBe('A-1 is refunded.');
    expect(refunds).toBe(1);
    const runs = await other.subagentRuns('chat', { owner: 'ada' });
    expect(runs[0]).toMatchObject({ status: 'done', result: 'Done: refunded A-1' });
    await expect(one.approve('chat', waiting![0].toolCallId, { owner: 'ada' })).rejects.toThrow();
    expect(refunds).toBe(1);
  });

  it("a client tool's call inside a run waits for the client's result; addToolResult goes on with the run, then the parent", async () => {
    const model = scriptedModel(
      [{ toolCalls: [{ name: 'asker', input: { task: 'ask for a date' } }] }, { text: 'Booked.' }],
      {
        subagents: {
          asker: [
            { toolCalls: [{ name: 'pick_date', input: {} }] },
            (req) => ({ text: `picked ${ownTextOf(req.messages.at(-1)!)}` }),
          ],
        },
      },
    );
    const session = createSession(
      <Agent>
        <Subagent name="asker" description="Ask the user">
          <Tool name="pick_date" description="The user picks a date in the app" />
        </Subagent>
      </Agent>,
      { model },
    );
    const { waiting } = await session.send('book me');
    expect(waiting?.[0]).toMatchObject({ for: 'client', name: 'pick_date', path: ['asker', 'pick_date'] });
    const turn = await session.addToolResult(waiting![0].toolCallId, '2026-12-24');
    expect(turn.text).toBe('Booked.');
    expect(session.subagentRuns[0].result).toBe('picked 2026-12-24');
  });
});
