import { describe, expect, test } from 'vitest';
import { desk } from '../src/store.js';
import { changes, identifyDana, ok, read, renderDesk, text } from './helpers.js';

describe('orders skill', () => {
  test("lists the identified customer's orders, newest first", async () => {
    const { agent } = renderDesk();
    await read(agent, 'orders');
    expect(agent.getByText('No customer identified: orders cannot be shown yet.').skill).toBe('orders');
    await identifyDana(agent);
    const orders = agent.getSkill('orders');
    expect(orders.text).toContain('Orders of Dana Whitfield, newest first:');
    expect(
      orders.text
        .split('\n')
        .filter((l) => l.startsWith('- A-'))
        .map((l) => l.slice(2, 8)),
    ).toEqual(['A-1057', 'A-1042', 'A-1021', 'A-1013', 'A-0987', 'A-0958']);
    expect(orders.tools).toEqual(['lookup_order', 'cancel_order']);
  });

  test('lookup_order needs an identified customer', async () => {
    const { agent } = renderDesk();
    await read(agent, 'orders');
    const result = await agent.callTool('lookup_order', { orderId: 'A-1042' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/No customer is identified\. Read the account skill and call identify_customer/);
  });

  test("lookup_order never shows another customer's order", async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'orders');
    const result = await agent.callTool('lookup_order', { orderId: 'A-1005' }); // Marcus's order
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Dana Whitfield has no order A-1005. Their orders: A-1057, A-1042');
    expect(text(result)).not.toContain('keyboard');
  });

  test('lookup_order shows items, payment and a duplicate charge', async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'orders');
    const content = ok(await agent.callTool('lookup_order', { orderId: '1021' }));
    expect(content).toBe(
      [
        'A-1021 (2026-03-01): Brew gooseneck kettle, 2× Stoneware mug, $100.00, delivered 2026-03-05',
        '  1 × Brew gooseneck kettle (HOM-212) at $64.00',
        '  2 × Stoneware mug (HOM-405) at $18.00',
        'Charged $200.00; refunded $0.00.',
        'Note: charged $200.00 for a $100.00 order (duplicate charge).',
        'Shipped 2026-03-02 with Parcelwise.',
      ].join('\n'),
    );
  });

  test('cancel_order cancels a processing order, refunds the payment and records the change', async () => {
    const { agent, db } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'orders');
    const result = await agent.callTool('cancel_order', { orderId: 'A-1057', reason: 'wrong size' });
    expect(ok(result)).toMatch(
      /^Cancelled A-1057\. The \$119\.00 payment goes back to the original payment method within 5 business days\./,
    );
    expect(db.order('A-1057')).toMatchObject({ status: 'cancelled', refunded: 11900, cancelledAt: '2026-03-14' });
    expect(changes(result)).toEqual([
      'contextChanged agent added: Tickets: T-1 cancellation A-1057 (done)',
      'contextChanged orders added: - A-1057 (2026-03-13): Strider running shoes (EU 42), $119.00, cancelled, $119.00 refunded',
    ]);
    expect(agent.session.store(desk).getState().tickets).toEqual([
      { id: 'T-1', kind: 'cancellation', orderId: 'A-1057', summary: 'wrong size', status: 'done' },
    ]);
  });

  test('cancel_order refuses a shipped order and changes nothing', async () => {
    const { agent, db } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'orders');
    const result = await agent.callTool('cancel_order', { orderId: 'A-1042', reason: 'too slow' });
    expect(ok(result)).toMatch(/^Not cancelled: A-1042 shipped on 2026-03-10; it can no longer be cancelled\./);
    expect(changes(result)).toEqual([]);
    expect(db.order('A-1042')?.status).toBe('shipped');
    expect(agent.session.store(desk).getState().tickets).toEqual([]);
  });

  test('cancel_order without a reason is refused, naming the field', async () => {
    const { agent, db } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'orders');
    const result = await agent.callTool('cancel_order', { orderId: 'A-1057' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid input for tool "cancel_order": reason:/);
    expect(db.order('A-1057')?.status).toBe('processing');
  });
});
