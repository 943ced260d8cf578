import { type Message, scriptedModel } from '@skilltree/core';
import { reply } from '@skilltree/testing';
import { describe, expect, test } from 'vitest';
import { desk } from '../src/store.js';
import { changes, identifyDana, ok, read, renderDesk, text } from './helpers.js';

describe('refunds skill', () => {
  test('issue_refund is not offered until an order is found eligible', async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'refunds');
    expect(agent.getSkill('refunds').tools).toEqual(['check_refund']);
    expect(agent.getByText(/^Refund policy: delivered orders can be refunded within 30 days/).skill).toBe('refunds');

    // Not eligible: outside the window. Still no issue_refund.
    const old = await agent.callTool('check_refund', { orderId: 'A-0987' });
    expect(ok(old)).toBe(
      'A-0987 is not eligible: A-0987 was delivered 99 days ago (2025-12-05); the refund window is 30 days.',
    );
    expect(agent).not.toHaveTool('issue_refund');

    // Calling it anyway is refused as an unknown tool, and nothing is refunded.
    const early = await agent.callTool('issue_refund', { orderId: 'A-0987', amount: 125, reason: 'changed mind' });
    expect(early.isError).toBe(true);
    expect(text(early)).toMatch(/^Unknown tool: issue_refund/);
  });

  test('an eligible order renders issue_refund, and the tool call records the new text', async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'refunds');
    const check = await agent.callTool('check_refund', { orderId: 'A-1013' });
    expect(ok(check)).toBe('A-1013 is eligible for a refund of up to $79.00. issue_refund is now available.');
    expect(changes(check)).toEqual(['contextChanged refunds added: Refund ready: A-1013, up to $79.00.']);
    expect(agent.getSkill('refunds')).toHaveTool('issue_refund');
    const tool = agent.getByTool('issue_refund');
    expect(tool.description).toBe('Refund A-1013 (up to $79.00) to the original payment method.');
    // The freshly rendered tool is in the very next request.
    expect(agent.request().tools.map((t) => t.name)).toContain('issue_refund');
  });

  test('issue_refund refunds, opens a ticket, and leaves the request once the order is refunded', async () => {
    const { agent, db } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'refunds');
    await agent.callTool('check_refund', { orderId: 'A-1013' });

    const tooMuch = await agent.callTool('issue_refund', { orderId: 'A-1013', amount: 80, reason: 'broken' });
    expect(tooMuch.isError).toBe(true);
    expect(text(tooMuch)).toBe('Tool "issue_refund" failed: At most $79.00 can be refunded for A-1013.');
    const other = await agent.callTool('issue_refund', { orderId: 'A-1021', amount: 10, reason: 'broken' });
    expect(text(other)).toBe('Tool "issue_refund" failed: Only A-1013 is checked. Call check_refund for A-1021 first.');
    expect(db.order('A-1013')?.refunded).toBe(0);

    const result = await agent.callTool('issue_refund', { orderId: 'A-1013', amount: 79, reason: 'stopped charging' });
    expect(ok(result)).toBe(
      'Refunded $79.00 for A-1013 (ticket T-1). It reaches the customer in 5 to 10 business days.',
    );
    expect(changes(result)).toEqual(['contextChanged agent added: Tickets: T-1 refund A-1013 (done)']);
    expect(db.order('A-1013')).toMatchObject({ status: 'refunded', refunded: 7900 });
    expect(agent.session.store(desk).getState().tickets).toEqual([
      { id: 'T-1', kind: 'refund', orderId: 'A-1013', summary: '$79.00: stopped charging', status: 'done' },
    ]);
    // The order is no longer eligible, so the tool and its text are gone: no second refund.
    expect(agent.queryByTool('issue_refund')).toBeNull();
    expect(agent.queryByText(/^Refund ready/)).toBeNull();
    const again = await agent.callTool('issue_refund', { orderId: 'A-1013', amount: 79, reason: 'again' });
    expect(text(again)).toMatch(/^Unknown tool: issue_refund \(not available right now in skill "refunds"\)/);
    expect(ok(await agent.callTool('check_refund', { orderId: 'A-1013' }))).toBe(
      'A-1013 is not eligible: A-1013 was refunded already.',
    );
  });

  test('a partial refund leaves the rest refundable', async () => {
    const { agent, db } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'refunds');
    await agent.callTool('check_refund', { orderId: 'A-1021' });
    ok(await agent.callTool('issue_refund', { orderId: 'A-1021', amount: 36, reason: 'two mugs arrived chipped' }));
    expect(db.order('A-1021')).toMatchObject({ status: 'delivered', refunded: 3600 });
    expect(agent.getByText('Refund ready: A-1021, up to $64.00.').skill).toBe('refunds');
    expect(agent.getByTool('issue_refund').description).toBe(
      'Refund A-1021 (up to $64.00) to the original payment method.',
    );
  });

  test('the order under review is useState: unloading the skill forgets it, the store keeps the tickets', async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'refunds');
    await agent.callTool('check_refund', { orderId: 'A-1021' });
    ok(await agent.callTool('issue_refund', { orderId: 'A-1021', amount: 10, reason: 'late' }));
    expect(agent.getByTool('issue_refund')).toBeTruthy();

    // account, refunds, then three more reads push refunds out.
    for (const name of ['orders', 'shipping', 'escalation']) await read(agent, name);
    expect(agent.getSkill('refunds')).toMatchObject({ loaded: false, tools: [], text: '' });

    await read(agent, 'refunds');
    expect(agent.getSkill('refunds').tools).toEqual(['check_refund']);
    expect(agent.queryByTool('issue_refund')).toBeNull();
    expect(
      agent.session
        .store(desk)
        .getState()
        .tickets.map((t) => t.id),
    ).toEqual(['T-1']);
    expect(agent.getByText('Tickets: T-1 refund A-1021 (done)').skill).toBeNull();
  });

  test('a refund of $100 or more waits for a person: nothing is refunded until it is approved, and a denial is what the model reads', async () => {
    const refund = (amount: number, reason: string) => ({
      toolCalls: [{ name: 'issue_refund', input: { orderId: 'A-1021', amount, reason } }],
    });
    const { agent, db } = renderDesk({
      model: scriptedModel([
        refund(100, 'the kettle leaks'),
        reply('Your refund of $100.00 is waiting for a colleague to approve it.'),
        reply('Done: $100.00 is on its way.'),
      ]),
    });
    await identifyDana(agent);
    await read(agent, 'refunds');
    await agent.callTool('check_refund', { orderId: 'A-1021' });
    const waited = await agent.say('Please refund A-1021, the kettle leaks.');
    expect(waited.waiting).toMatchObject([{ name: 'issue_refund', for: 'approval', skill: 'refunds' }]);
    expect(agent.waiting).toHaveLength(1);
    // Nothing is refunded while it waits.
    expect(db.order('A-1021')?.refunded).toBe(0);
    await agent.approve(agent.waiting[0].toolCallId);
    expect(db.order('A-1021')).toMatchObject({ refunded: 10000, status: 'refunded' });
    expect(agent.waiting).toEqual([]);
  });

  test('a denied refund runs nothing; a smaller refund does not wait', async () => {
    const { agent, db } = renderDesk({
      model: scriptedModel([
        { toolCalls: [{ name: 'issue_refund', input: { orderId: 'A-1021', amount: 100, reason: 'leaks' } }] },
        (req) => reply(`The model read: ${text(req.messages.at(-1) as Message)}`),
        { toolCalls: [{ name: 'issue_refund', input: { orderId: 'A-1021', amount: 20, reason: 'chipped mug' } }] },
        reply('Refunded $20.00.'),
      ]),
    });
    await identifyDana(agent);
    await read(agent, 'refunds');
    await agent.callTool('check_refund', { orderId: 'A-1021' });
    await agent.say('Refund A-1021 in full.');
    const denied = await agent.deny(agent.waiting[0].toolCallId, 'over what this order qualifies for today');
    expect(denied.text).toBe('The model read: Denied: over what this order qualifies for today. The tool did not run.');
    expect(db.order('A-1021')?.refunded).toBe(0);
    const small = await agent.say('Then just the chipped mug.');
    expect(small.waiting ?? []).toEqual([]);
    expect(db.order('A-1021')?.refunded).toBe(2000);
  });
});
