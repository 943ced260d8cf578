/**
 * Approvals bound to the call the person saw (issue 32), over HTTP with the AI SDK's own chat engine:
 * a page that shows a waiting call of a chat that was then deleted and started again under its id
 * (in another tab, by the same user) approves nothing in the new chat. The answer is refused with a
 * 409 that names the mismatch, whether the new chat's call got another id (ids the session makes
 * carry the incarnation) or the same one (a model that makes up its ids), and the new call still
 * waits for its own approval.
 */

import { Agent, createSessions, type Model, memoryStore, type Sessions, Tool, textOf } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NodeChat, settled, toolPart } from './chat-engine.js';
import { apiPath } from './helpers.js';
import { approvalInit, type Closers, serveSessions } from './served.js';

const refunds: string[] = [];

function RefundAgent() {
  return (
    <Agent>
      <Tool
        name="refund"
        description="Refund an order"
        input={z.object({ size: z.string(), cents: z.number() })}
        needsApproval
        run={({ size, cents }) => {
          refunds.push(`${size} ${cents}`);
          return `refunded ${size} ${cents}`;
        }}
      />
    </Agent>
  );
}

/** Asks for the refund the message names (`refund SMALL 100`), with `id` as the call id (empty: the session makes one). */
function refundModel(id: string): Model {
  return {
    name: 'refund-model',
    async generate(req) {
      const last = req.messages.at(-1);
      if (last?.role === 'tool') return { text: `Done: ${textOf(last)}`, toolCalls: [] };
      const [, size = 'X', cents = '0'] = (last ? textOf(last) : '').split(' ');
      return { text: '', toolCalls: [{ id, name: 'refund', input: { size, cents: Number(cents) } }] };
    },
  };
}

const closers: Closers = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(id: string): Promise<{ url: string; sessions: Sessions }> {
  const sessions = createSessions(<RefundAgent />, { store: memoryStore(), model: refundModel(id) });
  return { url: await serveSessions(sessions, closers), sessions };
}

/** Alice's raw answer approving `call` of chat c1 with `approvalId`, sent without a chat engine. */
const approveByHand = (url: string, call: { toolCallId: string; input: unknown } | undefined, approvalId: unknown) =>
  fetch(
    `${url}${apiPath('chat')}`,
    approvalInit('alice', { toolName: 'refund', toolCallId: call?.toolCallId, input: call?.input, approvalId }),
  );

describe('a stale page of a deleted chat', () => {
  for (const [kind, id] of [
    ['the session makes the call ids', ''],
    ['the model reuses one call id', 'call_1'],
  ] as const) {
    it(`approves nothing in the chat started again under its id (409 wrong_incarnation; ${kind})`, async () => {
      refunds.length = 0;
      const { url, sessions } = await serve(id);
      // The page shows the old chat's call, waiting for approval.
      const stale = new NodeChat(url, 'c1', 'alice');
      await stale.sendMessage({ text: 'refund SMALL 100' });
      await settled(stale);
      const shown = toolPart(stale.all.at(-1));
      expect(shown).toMatchObject({ state: 'approval-requested' });
      // Another tab deletes the chat and starts it again: the new chat asks for a big refund.
      const removed = await fetch(`${url}${apiPath('chat-id', 'c1')}`, {
        method: 'DELETE',
        headers: { 'x-user': 'alice' },
      });
      expect(removed.status).toBeLessThan(300);
      const other = new NodeChat(url, 'c1', 'alice');
      await other.sendMessage({ text: 'refund BIG 999999' });
      await settled(other);
      const now = toolPart(other.all.at(-1));
      expect(now.state).toBe('approval-requested');
      if (id === '') expect(now.toolCallId).not.toBe(shown.toolCallId);
      else expect(now.toolCallId).toBe(shown.toolCallId);
      // The stale page approves what it shows.
      await stale.addToolApprovalResponse({ id: shown.approval?.id as string, approved: true });
      await settled(stale);
      // The chat engine reads the 409's body as its error: the mismatch, named.
      expect(JSON.parse(stale.error?.message ?? '{}')).toMatchObject({
        error: { code: 'wrong_incarnation', message: expect.stringMatching(/earlier incarnation of this chat/) },
      });
      expect(refunds).toEqual([]);
      // The new chat's call still waits, and its own page approves it.
      expect((await sessions.get('c1', { owner: 'alice' }))?.waiting).toMatchObject([{ toolCallId: now.toolCallId }]);
      await other.addToolApprovalResponse({ id: now.approval?.id as string, approved: true });
      await settled(other);
      expect(refunds).toEqual(['BIG 999999']);
    });
  }

  it('a raw answer naming the old incarnation is refused even with the call id and input of the new chat', async () => {
    refunds.length = 0;
    const { url, sessions } = await serve('call_1');
    await sessions.send('c1', 'refund SMALL 100', { owner: 'alice' });
    const old = await sessions.get('c1', { owner: 'alice' });
    await sessions.delete('c1', { owner: 'alice' });
    await sessions.send('c1', 'refund BIG 999999', { owner: 'alice' });
    const now = await sessions.get('c1', { owner: 'alice' });
    const call = now?.waiting[0];
    const response = await approveByHand(url, call, `${old?.incarnation}.${call?.toolCallId}`);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: 'wrong_incarnation' } });
    expect(refunds).toEqual([]);
  });

  it.each([
    ['the bare call id (no incarnation)', (_inc: string, id: string) => id],
    ['an incarnation of 10 000 characters', (_inc: string, id: string) => `${'a'.repeat(10_000)}.${id}`],
    ['a number', () => 42],
    ["another call's id", (inc: string) => `${inc}.call_other`],
    ['an empty incarnation', (_inc: string, id: string) => `.${id}`],
  ])('a hostile approval id (%s) approves nothing: 409, and the call still waits', async (_what, approvalId) => {
    refunds.length = 0;
    const { url, sessions } = await serve('call_1');
    await sessions.send('c1', 'refund BIG 999999', { owner: 'alice' });
    const now = await sessions.get('c1', { owner: 'alice' });
    const call = now?.waiting[0];
    const response = await approveByHand(url, call, approvalId(now?.incarnation as string, call?.toolCallId as string));
    expect(response.status).toBe(409);
    expect(refunds).toEqual([]);
    expect((await sessions.get('c1', { owner: 'alice' }))?.waiting).toMatchObject([{ toolCallId: call?.toolCallId }]);
  });
});
