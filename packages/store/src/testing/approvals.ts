import {
  Agent,
  BudgetExceededError,
  createSessions,
  type Model,
  type SessionStore,
  ToolAnswerError,
  textOf,
} from '@skilltree/core';
import { createElement as h, type ReactNode } from 'react';
import { expect, test } from 'vitest';
import { lastUserText } from '../fixture.js';
import { refundTool } from './refund-tool.js';
import type { Suite } from './suite.js';

/** Refunds that ran, by chat id: a call runs at most once, and only the one approved. */
const refunds: string[] = [];

/** An agent whose one tool, `refund`, waits for a person's approval. */
function refundAgent(id: string): ReactNode {
  return h(Agent, null, refundTool(refunds, id));
}

/** Asks for a refund when the user's text starts with `refund`, says `done` after it, else echoes. */
function refundModel(): Model {
  return {
    name: 'refund-model',
    async generate(req) {
      const last = req.messages[req.messages.length - 1];
      if (last?.role === 'tool') return { text: 'done', toolCalls: [] };
      const text = lastUserText(req.messages);
      return text.startsWith('refund')
        ? { text: '', toolCalls: [{ id: '', name: 'refund', input: {} }] }
        : { text: `ok: ${text}`, toolCalls: [] };
    },
  };
}

const refundSessions = (store: SessionStore) =>
  createSessions((id) => refundAgent(id), { store, model: refundModel() });

/**
 * Approvals bound to the incarnation of a chat: the store keeps a chat's incarnation (its record's
 * epoch) across commits and processes and gives a chat started again under its id another one, so
 * nothing shown in a deleted chat can be answered in the new one; a message a budget refuses before
 * it is recorded leaves the waiting calls as they were, in the store too.
 */
export function approvalTests(suite: Suite): void {
  const { newId } = suite;

  test('a chat keeps its incarnation across commits and processes, and one started again under its id gets another: an approval shown in the deleted one runs nothing in the new one', async () => {
    const { a, b, c } = suite;
    const id = newId('incarnation');
    const [one, two, three] = [a, b, c].map(refundSessions);
    const shown = (await one.send(id, 'refund small')).waiting?.[0];
    const first = await two.get(id);
    expect(first?.incarnation).toMatch(/^[0-9a-f]{14}$/);
    // The turn's commits kept one incarnation: the id the session made names it, every process reads it.
    expect(shown).toMatchObject({ toolCallId: `call_${first?.incarnation}_1`, incarnation: first?.incarnation });
    expect(first?.waiting).toMatchObject([{ toolCallId: shown?.toolCallId, incarnation: first?.incarnation }]);
    expect((await three.get(id))?.incarnation).toBe(first?.incarnation);
    // Deleted, and started again under its id in another process.
    expect(await three.delete(id)).toBe(true);
    const again = (await three.send(id, 'refund big')).waiting?.[0];
    const second = await one.get(id);
    expect(second?.incarnation).not.toBe(first?.incarnation);
    expect(again?.toolCallId).not.toBe(shown?.toolCallId);
    // The old page answers what it showed, from any process: refused, nothing runs.
    const stale = await one
      .approve(id, shown?.toolCallId as string, { incarnation: shown?.incarnation, input: shown?.input })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ToolAnswerError);
    expect((stale as ToolAnswerError).code).toBe('wrong-incarnation');
    await expect(two.approve(id, shown?.toolCallId as string)).rejects.toMatchObject({ code: 'not-waiting' });
    expect(refunds.filter((r) => r === id)).toEqual([]);
    // The new chat's own call, answered as it was shown, runs once.
    const answered = await two.approve(id, again?.toolCallId as string, {
      incarnation: again?.incarnation,
      input: again?.input,
    });
    expect(answered.text).toBe('done');
    expect(refunds.filter((r) => r === id)).toEqual([id]);
    expect((await three.get(id))?.incarnation).toBe(second?.incarnation);
  });

  test('a message a budget refuses before it is recorded supersedes nothing: the store keeps the waiting call, and any process answers it', async () => {
    const { a, b } = suite;
    const id = newId('refused-keeps-waiting');
    const [one, two] = [a, b].map(refundSessions);
    const shown = (await one.send(id, 'refund it')).waiting?.[0];
    const before = await a.record(id);
    const refused = one.send(id, 'never mind', { budget: { perTurn: { tokens: 1 } } });
    await expect(refused).rejects.toBeInstanceOf(BudgetExceededError);
    const after = await b.record(id);
    expect(after?.length).toBe(before?.length);
    expect(after?.state.waiting).toMatchObject([{ toolCallId: shown?.toolCallId, status: 'waiting' }]);
    const messages = await b.messages(id, 0, 100);
    expect(messages.some((m) => m.role === 'tool' || textOf(m) === 'never mind')).toBe(false);
    expect((await two.approve(id, shown?.toolCallId as string, { input: shown?.input })).text).toBe('done');
    expect(refunds.filter((r) => r === id)).toEqual([id]);
  });
}
