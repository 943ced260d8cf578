/**
 * Approvals bound to the call the person saw (issue 32): a chat deleted and started again under its
 * id is another incarnation, and nothing shown in the old one can be answered in the new one. The
 * session's own call ids carry the incarnation; an answer may carry the incarnation and the input it
 * approves, and a mismatch is refused, naming it, before anything runs. A message a budget refuses
 * before it is recorded supersedes nothing.
 */
import { describe, expect, test } from 'vitest';
import {
  Agent,
  BudgetExceededError,
  createSession,
  createSessions,
  type Model,
  memoryStore,
  type SessionEvent,
  ToolAnswerError,
  textOf,
  type WaitingCall,
} from '../src/index.js';
import { isSafeToolCallId } from '../src/provider.js';
import { CentsRefund } from './refunds.js';

const ran: string[] = [];

const Refunds = () => (
  <Agent>
    <CentsRefund ran={ran} />
  </Agent>
);

/** A model that asks for the refund the user's message names (`refund SMALL 100`), then says it is done. */
function refundModel(id?: string): Model {
  return {
    name: 'refund-model',
    async generate(req) {
      const last = req.messages.at(-1);
      if (!last || last.role === 'tool') return { text: 'done', toolCalls: [] };
      const [, order = 'X', cents = '1'] = textOf(last).split(' ');
      return { text: '', toolCalls: [{ id: id ?? '', name: 'refund', input: { order, cents: Number(cents) } }] };
    },
  };
}

/** The error an answer was refused with (fails the test when it was not). */
async function refusal(answer: Promise<unknown>): Promise<ToolAnswerError> {
  const error = await answer.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolAnswerError);
  return error as ToolAnswerError;
}

describe('session-made call ids', () => {
  test('session-made call ids are unique across incarnations of a chat: a stale approval of the deleted chat runs nothing in the new one', async () => {
    ran.length = 0;
    const sessions = createSessions(<Refunds />, { store: memoryStore(), model: () => refundModel() });
    const old = (await sessions.send('c', 'refund SMALL 100', { owner: 'ann' })).waiting?.[0] as WaitingCall;
    expect(await sessions.delete('c', { owner: 'ann' })).toBe(true);
    const now = (await sessions.send('c', 'refund BIG 999999', { owner: 'ann' })).waiting?.[0] as WaitingCall;
    expect(now.toolCallId).not.toBe(old.toolCallId);
    // Ids every provider accepts, and each names its incarnation.
    for (const call of [old, now]) {
      expect(isSafeToolCallId(call.toolCallId)).toBe(true);
      expect(call.toolCallId).toBe(`call_${call.incarnation}_1`);
    }
    // The stale page approves "its" call: not a call of this chat.
    const error = await refusal(sessions.approve('c', old.toolCallId, { owner: 'ann' }));
    expect(error.code).toBe('not-waiting');
    expect(ran).toEqual([]);
    expect((await sessions.get('c', { owner: 'ann' }))?.waiting).toMatchObject([{ toolCallId: now.toolCallId }]);
  });

  test('a session of its own keeps counting call_1, call_2… (stable snapshots)', async () => {
    const session = createSession(<Refunds />, { model: refundModel() });
    const turn = await session.send('refund A 1');
    expect(turn.waiting?.[0].toolCallId).toBe('call_1');
    expect(turn.waiting?.[0].incarnation).toBeUndefined();
  });
});

describe('answers bound to the call shown', () => {
  test('an answer bound to another incarnation of the chat is refused (wrong-incarnation), even when the model reused the call id', async () => {
    ran.length = 0;
    // The model makes up the same id in every chat: only the incarnation tells the calls apart.
    const sessions = createSessions(<Refunds />, { store: memoryStore(), model: () => refundModel('call_1') });
    const shown = (await sessions.send('c', 'refund SMALL 100', { owner: 'ann' })).waiting?.[0] as WaitingCall;
    await sessions.delete('c', { owner: 'ann' });
    const now = (await sessions.send('c', 'refund BIG 999999', { owner: 'ann' })).waiting?.[0] as WaitingCall;
    expect(now.toolCallId).toBe(shown.toolCallId);
    expect(now.incarnation).not.toBe(shown.incarnation);
    const stale = { owner: 'ann', incarnation: shown.incarnation, input: shown.input };
    const error = await refusal(sessions.approve('c', shown.toolCallId, stale));
    expect(error.code).toBe('wrong-incarnation');
    expect(error.message).toMatch(/another incarnation of this chat .*Reload the chat/);
    await expect(sessions.deny('c', shown.toolCallId, stale)).rejects.toThrow(/another incarnation/);
    expect(ran).toEqual([]);
    // The call shown now, answered with what was shown, runs.
    const info = await sessions.get('c', { owner: 'ann' });
    expect(info?.incarnation).toBe(now.incarnation);
    const turn = await sessions.approve('c', now.toolCallId, {
      owner: 'ann',
      incarnation: info?.incarnation,
      input: info?.waiting[0].input,
    });
    expect(turn.text).toBe('done');
    expect(ran).toEqual(['BIG:999999']);
  });

  test('an answer that carries another input than the call waits with is refused (input-differs); the same data in another key order is the same input', async () => {
    ran.length = 0;
    const session = createSession(<Refunds />, { model: refundModel() });
    await session.send('refund A 5');
    const error = await refusal(session.approve('call_1', { input: { order: 'A', cents: 500 } }));
    expect(error.code).toBe('input-differs');
    expect(error.message).toMatch(/Tool call "call_1" \(refund\) waits with another input/);
    await expect(session.deny('call_1', 'no', { input: { order: 'B', cents: 5 } })).rejects.toThrow(/another input/);
    // A session of its own is no chat: naming an incarnation is a mistake that says so.
    await expect(session.approve('call_1', { incarnation: 'x' })).rejects.toThrow(/leave incarnation out/);
    expect(ran).toEqual([]);
    expect((await session.approve('call_1', { input: { cents: 5, order: 'A' } })).text).toBe('done');
    expect(ran).toEqual(['A:5']);
  });

  test('the incarnation every report of a waiting call carries is the one answers are checked against', async () => {
    const sessions = createSessions(<Refunds />, { store: memoryStore(), model: () => refundModel() });
    const events: SessionEvent[] = [];
    for await (const event of sessions.stream('c', 'refund A 1')) events.push(event);
    const announced = events.findLast((e) => e.type === 'waiting');
    const finish = events.findLast((e) => e.type === 'finish');
    const info = await sessions.get('c');
    expect(info?.incarnation).toMatch(/^[0-9a-f]{14}$/);
    expect(announced?.type === 'waiting' && announced.calls[0].incarnation).toBe(info?.incarnation);
    expect(finish?.type === 'finish' && finish.turn.waiting?.[0].incarnation).toBe(info?.incarnation);
    expect(info?.waiting[0].incarnation).toBe(info?.incarnation);
    // Another process reads the same incarnation from the store, and the answer lands.
    const other = createSessions(<Refunds />, { store: sessions.store, model: () => refundModel() });
    expect((await other.get('c'))?.incarnation).toBe(info?.incarnation);
    const [call] = info?.waiting ?? [];
    await other.answer('c', [{ ...call, type: 'approve' }]);
    expect((await other.get('c'))?.waiting).toEqual([]);
  });
});

describe('a message the budget refuses', () => {
  test('a message a budget refuses before it is recorded supersedes nothing: the waiting call stays answerable', async () => {
    ran.length = 0;
    const sessions = createSessions(<Refunds />, { store: memoryStore(), model: () => refundModel() });
    const shown = (await sessions.send('c', 'refund A 7')).waiting?.[0] as WaitingCall;
    const before = (await sessions.get('c'))?.transcriptLength;
    const refused = sessions.send('c', 'and another thing', { budget: { perTurn: { tokens: 1 } } });
    await expect(refused).rejects.toBeInstanceOf(BudgetExceededError);
    // Nothing was recorded: no superseded result, no user message; the call still waits.
    const info = await sessions.get('c');
    expect(info?.transcriptLength).toBe(before);
    expect(info?.waiting).toMatchObject([{ toolCallId: shown.toolCallId, status: 'waiting' }]);
    const messages = await sessions.messages('c', { limit: 100 });
    expect(messages.some((m) => m.role === 'tool' || textOf(m).includes('another thing'))).toBe(false);
    // The cached session agrees with the store: the approval runs the call, once.
    expect((await sessions.approve('c', shown.toolCallId, { input: shown.input })).text).toBe('done');
    expect(ran).toEqual(['A:7']);
  });

  test('a message that is sent supersedes the waiting calls, as before', async () => {
    ran.length = 0;
    const sessions = createSessions(<Refunds />, { store: memoryStore(), model: () => refundModel() });
    const shown = (await sessions.send('c', 'refund A 7')).waiting?.[0] as WaitingCall;
    await sessions.send('c', 'refund B 8');
    const messages = await sessions.messages('c', { limit: 100 });
    const superseded = messages.find((m) => m.role === 'tool' && m.toolCallId === shown.toolCallId);
    expect(superseded && textOf(superseded)).toMatch(/superseded/);
    await expect(sessions.approve('c', shown.toolCallId)).rejects.toBeInstanceOf(ToolAnswerError);
    expect(ran).toEqual([]);
  });
});
