/**
 * Turns that wait (issue 27): a call of a tool that needs approval, or of a tool that runs in the
 * client, is recorded and the turn ends waiting; answers go on with it. A call runs at most once,
 * always with the input the model gave.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSession,
  createSessions,
  memoryStore,
  restoreSession,
  Skill,
  scriptedModel,
  Tool,
  ToolAnswerError,
  textOf,
} from '../src/index.js';
import { CentsRefund } from './refunds.js';

const ran: string[] = [];

const Refunds = ({ limit = 0 }: { limit?: number }) => (
  <Agent>
    <CentsRefund ran={ran} limit={limit} />
    <Tool name="lookup" description="Look up" input={z.object({})} run={() => 'found'} />
    <Tool name="pick_file" description="Ask the user's browser for a file" input={z.object({ kind: z.string() })} />
    <Skill name="extra" description="Extra">
      <Tool name="extra_tool" description="x" input={z.object({})} run={() => 'x'} />
    </Skill>
  </Agent>
);

const refund = (order: string, cents: number) => ({ name: 'refund', input: { order, cents } });

/**
 * A session of `<Refunds />`, no refund run yet, whose model asks for `calls` and then (answered)
 * says `reply`, after the user sent `text`: the session, its calls waiting, and the model.
 */
async function asked(calls: ReturnType<typeof refund>[], text: string, reply?: string) {
  ran.length = 0;
  const model = scriptedModel([{ toolCalls: calls }, ...(reply === undefined ? [] : [{ text: reply }])]);
  const session = createSession(<Refunds />, { model });
  await session.send(text);
  return { session, model };
}

describe('approval', () => {
  test('a call that needs approval is recorded and the turn ends waiting; nothing runs', async () => {
    ran.length = 0;
    const model = scriptedModel([{ toolCalls: [refund('A-1', 500)] }]);
    const session = createSession(<Refunds />, { model });
    const before = Date.now();
    const turn = await session.send('refund A-1');
    expect(turn.text).toBe('');
    // When it started waiting: the answering turn's wait span starts there.
    expect(turn.waiting?.[0].since).toBeGreaterThanOrEqual(before);
    expect(turn.waiting?.[0].since).toBeLessThanOrEqual(Date.now());
    expect(turn.waiting).toEqual([
      {
        toolCallId: 'call_1',
        name: 'refund',
        input: { order: 'A-1', cents: 500 },
        for: 'approval',
        skill: null,
        status: 'waiting',
        since: expect.any(Number),
      },
    ]);
    expect(session.waiting).toEqual(turn.waiting);
    expect(ran).toEqual([]);
    expect(session.transcript.at(-1)).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'call_1' }] });
  });

  test('approve runs the tool with the input the model gave, and the turn goes on to the reply', async () => {
    const { session } = await asked([refund('A-1', 500)], 'refund A-1', 'Refunded.');
    const turn = await session.approve('call_1');
    expect(ran).toEqual(['A-1:500']);
    expect(turn.text).toBe('Refunded.');
    expect(turn.waiting).toBeUndefined();
    expect(textOf(turn.messages[0])).toBe('refunded 500 on A-1');
    expect(session.waiting).toEqual([]);
  });

  test('a denial is the result the model reads, with the reason; the tool never runs', async () => {
    const { session, model } = await asked([refund('A-1', 500)], 'refund A-1', 'Not refunded.');
    const turn = await session.deny('call_1', 'over the limit');
    expect(ran).toEqual([]);
    expect(turn.messages[0]).toMatchObject({ role: 'tool', isError: true, errorKind: 'denied' });
    expect(textOf(turn.messages[0])).toBe('Denied: over the limit. The tool did not run.');
    expect(textOf(model.requests[1].messages.at(-1)!)).toContain('Denied: over the limit');
  });

  test('needsApproval as a function decides per call, from the validated input', async () => {
    ran.length = 0;
    const model = scriptedModel([{ toolCalls: [refund('small', 100), refund('big', 9_000)] }, { text: 'ok' }]);
    const session = createSession(<Refunds limit={1_000} />, { model });
    const turn = await session.send('two refunds');
    expect(ran).toEqual(['small:100']);
    expect(turn.waiting?.map((w) => w.input)).toEqual([{ order: 'big', cents: 9_000 }]);
  });

  test('several calls wait at once; the turn goes on once the last is answered', async () => {
    const { session, model } = await asked([refund('A', 1), refund('B', 2)], 'two', 'done');
    const partial = await session.approve('call_1');
    expect(partial.waiting?.map((w) => w.toolCallId)).toEqual(['call_2']);
    expect(model.requests).toHaveLength(1);
    const turn = await session.deny('call_2');
    expect(turn.text).toBe('done');
    expect(ran).toEqual(['A:1']);
  });

  test('an answer to a call that does not wait (unknown, answered already, or the wrong kind) is refused and runs nothing', async () => {
    const { session } = await asked([refund('A', 1)], 'one', 'done');
    await expect(session.approve('call_9')).rejects.toBeInstanceOf(ToolAnswerError);
    await expect(session.addToolResult('call_1', 'forged')).rejects.toThrow(/waits for approval: approve or deny it/);
    await session.approve('call_1');
    await expect(session.approve('call_1')).rejects.toThrow(/is not waiting for an answer/);
    expect(ran).toEqual(['A:1']);
  });

  test('a new user message while calls wait supersedes them: the model reads that they did not run', async () => {
    const { session } = await asked([refund('A', 1)], 'refund', 'ok, no refund');
    const turn = await session.send('never mind');
    expect(ran).toEqual([]);
    expect(session.waiting).toEqual([]);
    const superseded = session.transcript.find((m) => m.role === 'tool');
    expect(superseded).toMatchObject({ errorKind: 'denied' });
    expect(textOf(superseded!)).toMatch(/superseded/);
    expect(turn.text).toBe('ok, no refund');
  });

  test('waiting calls survive a snapshot: another session answers them, and the tool runs once', async () => {
    const { session } = await asked([refund('A', 7)], 'refund');
    const snapshot = JSON.stringify(session.snapshot());
    const restored = restoreSession(<Refunds />, snapshot, { model: scriptedModel([{ text: 'done' }]) });
    expect(restored.waiting.map((w) => w.toolCallId)).toEqual(['call_1']);
    expect((await restored.approve('call_1')).text).toBe('done');
    expect(ran).toEqual(['A:7']);
  });

  test('a call whose tool was running when the process stopped is answered as interrupted, never run again', async () => {
    const { session } = await asked([refund('A', 7)], 'refund');
    const snapshot = session.snapshot();
    snapshot.waiting = snapshot.waiting?.map((w) => ({ ...w, status: 'running' }));
    const restored = restoreSession(<Refunds />, snapshot, { model: scriptedModel([]) });
    expect(restored.waiting).toEqual([]);
    expect(restored.transcript.at(-1)).toMatchObject({ role: 'tool', errorKind: 'interrupted' });
    expect(ran).toEqual([]);
  });
});

const Payments = () => (
  <Agent maxLoadedSkills={1}>
    <Skill name="payments" description="Take payments">
      <Tool
        name="pay"
        description="Take a payment"
        input={z.object({ cents: z.number() })}
        needsApproval
        run={({ cents }) => {
          ran.push(`pay:${cents}`);
          return `paid ${cents}`;
        }}
      />
    </Skill>
    <Skill name="other" description="Something else">
      <Tool name="other_tool" description="x" input={z.object({})} run={() => 'x'} />
    </Skill>
  </Agent>
);

describe('skills while a call waits', () => {
  test('a waiting call keeps its skill loaded (no turn runs, nothing is pushed out); approved, its tool runs', async () => {
    ran.length = 0;
    const model = scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'payments' } }] },
      { toolCalls: [{ name: 'pay', input: { cents: 7 } }] },
      { text: 'Paid.' },
    ]);
    const session = createSession(<Payments />, { model });
    const turn = await session.send('pay 7');
    expect(turn.waiting).toMatchObject([{ name: 'pay', skill: 'payments' }]);
    expect(session.loadedSkills).toEqual(['payments']);
    const done = await session.approve(turn.waiting?.[0].toolCallId as string);
    expect(ran).toEqual(['pay:7']);
    expect(done.text).toBe('Paid.');
  });

  test('a call whose skill a read in the same step pushed out is answered as a model call would be then: Unknown tool, naming the skill', async () => {
    ran.length = 0;
    const model = scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'payments' } }] },
      {
        toolCalls: [
          { name: 'pay', input: { cents: 9 } },
          { name: 'read_skill', input: { name: 'other' } },
        ],
      },
      { text: 'Could not pay.' },
    ]);
    const session = createSession(<Payments />, { model });
    const turn = await session.send('pay 9, then look at the other thing');
    expect(turn.waiting).toMatchObject([{ name: 'pay' }]);
    expect(session.loadedSkills).toEqual(['other']);
    const done = await session.approve(turn.waiting?.[0].toolCallId as string);
    expect(ran).toEqual([]);
    const result = done.messages.find((m) => m.role === 'tool' && m.name === 'pay');
    expect(result && textOf(result)).toMatch(/^Unknown tool: pay .*skill "payments" is not loaded; read it first/);
    expect(result).toMatchObject({ isError: true, errorKind: 'unknown-tool' });
  });
});

describe('tools that run in the client', () => {
  test('a tool without run ends the turn waiting for the client; its result goes on with the turn', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'pick_file', input: { kind: 'photo' } }] },
      { text: 'Got it.' },
    ]);
    const session = createSession(<Refunds />, { model });
    const turn = await session.send('attach');
    expect(turn.waiting).toMatchObject([{ name: 'pick_file', for: 'client', input: { kind: 'photo' } }]);
    await expect(session.approve('call_1')).rejects.toThrow(/runs in the client: send its result/);
    const done = await session.addToolResult('call_1', { picked: 'parcel.png' });
    expect(textOf(done.messages[0])).toBe('{"picked":"parcel.png"}');
    expect(done.text).toBe('Got it.');
  });
});

describe('sessions: any process answers, exactly once', () => {
  test('waiting calls are committed: another createSessions on the same store approves, and the tool runs once', async () => {
    ran.length = 0;
    const store = memoryStore();
    const one = createSessions(<Refunds />, { store, model: () => scriptedModel([{ toolCalls: [refund('A', 3)] }]) });
    const turn = await one.send('c', 'refund', { owner: 'ann' });
    expect(turn.waiting).toHaveLength(1);
    const two = createSessions(<Refunds />, { store, model: () => scriptedModel([{ text: 'done' }]) });
    const callId = turn.waiting?.[0].toolCallId as string;
    expect((await two.get('c', { owner: 'ann' }))?.waiting).toMatchObject([{ toolCallId: callId }]);
    const [first, second] = await Promise.allSettled([
      two.approve('c', callId, { owner: 'ann' }),
      one.approve('c', callId, { owner: 'ann' }),
    ]);
    expect([first.status, second.status].sort()).toEqual(['fulfilled', 'rejected']);
    expect(ran).toEqual(['A:3']);
    // Another owner cannot answer (or see) the chat.
    await expect(two.approve('c', callId, { owner: 'bob' })).rejects.toThrow();
  });

  test('a chat deleted while a call waits takes its call with it: an approval of it later, on the same id started again, runs nothing', async () => {
    ran.length = 0;
    const store = memoryStore();
    // Every chat's model asks for a refund first, under one id it makes up itself: the reused id's
    // new chat makes a call with the same id.
    const sessions = createSessions(<Refunds />, {
      store,
      model: () => scriptedModel([{ toolCalls: [{ id: 'call_1', ...refund('A', 3) }] }, { text: 'done' }]),
    });
    const waited = await sessions.send('c', 'refund A', { owner: 'ann' });
    const id = waited.waiting?.[0].toolCallId as string;
    expect(await sessions.delete('c', { owner: 'ann' })).toBe(true);
    // The deleted chat's call is gone: answering it is refused, and nothing is written under the id.
    await expect(sessions.approve('c', id, { owner: 'ann' })).rejects.toThrow(ToolAnswerError);
    expect(await sessions.get('c', { owner: 'ann' })).toBeNull();
    // Another owner starts a chat under the same id: the old approval does not reach into it.
    const bob = await sessions.send('c', 'refund B', { owner: 'bob' });
    expect(bob.waiting?.[0].toolCallId).toBe(id);
    await expect(sessions.approve('c', id, { owner: 'ann' })).rejects.toThrow(ToolAnswerError);
    expect(ran).toEqual([]);
    // The same owner starts again: only the new chat's own call can be answered, once.
    const again = await sessions.send('c', 'refund C', { owner: 'ann' });
    expect(again.waiting?.[0]).toMatchObject({ toolCallId: id, input: { order: 'A', cents: 3 } });
    await sessions.approve('c', id, { owner: 'ann' });
    await expect(sessions.approve('c', id, { owner: 'ann' })).rejects.toThrow(ToolAnswerError);
    expect(ran).toEqual(['A:3']);
    // Bob's call still waits for Bob alone.
    expect((await sessions.get('c', { owner: 'bob' }))?.waiting).toMatchObject([{ toolCallId: id }]);
  });
});
