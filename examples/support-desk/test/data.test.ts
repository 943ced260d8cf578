import { describe, expect, test } from 'vitest';
import { CUSTOMERS, ORDERS, TODAY } from '../src/data.js';
import { OrdersDb } from '../src/db.js';
import { cancellable, describeOrder, money, refundEligibility } from '../src/policy.js';

const order = (id: string) => {
  const found = ORDERS.find((o) => o.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe('seed data', () => {
  test('a few dozen orders, unique ids, every one belongs to a known customer', () => {
    expect(ORDERS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ORDERS.map((o) => o.id)).size).toBe(ORDERS.length);
    const ids = new Set(CUSTOMERS.map((c) => c.id));
    for (const o of ORDERS) expect(ids.has(o.customerId)).toBe(true);
  });

  test('totals add up and shipments match statuses', () => {
    for (const o of ORDERS) {
      expect(o.total).toBe(o.items.reduce((sum, i) => sum + i.price * i.qty, 0));
      if (o.status === 'shipped') expect(o.shipment?.eta).toBeTruthy();
      if (o.status === 'delivered') expect(o.shipment?.deliveredAt).toBeTruthy();
      if (o.status === 'placed' || o.status === 'processing') expect(o.shipment).toBeUndefined();
      expect(o.placedAt <= TODAY).toBe(true);
    }
  });

  test('each database is a fresh copy: writes never leak into the seed or another database', () => {
    const a = new OrdersDb();
    const b = new OrdersDb();
    a.cancel('A-1057');
    expect(a.order('A-1057')?.status).toBe('cancelled');
    expect(b.order('A-1057')?.status).toBe('processing');
    expect(order('A-1057').status).toBe('processing');
  });
});

describe('policy', () => {
  test('a delivered order inside the 30-day window is refundable for what is left of it', () => {
    expect(refundEligibility(order('A-1013'), TODAY)).toEqual({ eligible: true, amount: 7900 });
  });

  test('refusals say why', () => {
    const reason = (id: string) => {
      const result = refundEligibility(order(id), TODAY);
      return result.eligible ? 'eligible' : result.reason;
    };
    expect(reason('A-0987')).toMatch(/delivered 99 days ago.*window is 30 days/);
    expect(reason('A-0962')).toMatch(/refunded already/);
    expect(reason('A-1042')).toMatch(/is shipped, not delivered/);
    expect(reason('A-1030')).toMatch(/cancelled/);
    expect(reason('A-1036')).toMatch(/above the \$500\.00 a bot may refund\. Escalate/);
  });

  test('only placed and processing orders can be cancelled', () => {
    expect(cancellable(order('A-1057'))).toEqual({ ok: true });
    expect(cancellable(order('A-1060'))).toEqual({ ok: true });
    expect(cancellable(order('A-1042'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/shipped on 2026-03-10/),
    });
    expect(cancellable(order('A-1013'))).toMatchObject({ ok: false, reason: expect.stringMatching(/is delivered/) });
  });

  test('money and order lines', () => {
    expect(money(7900)).toBe('$79.00');
    expect(describeOrder(order('A-1021'))).toBe(
      'A-1021 (2026-03-01): Brew gooseneck kettle, 2× Stoneware mug, $100.00, delivered 2026-03-05',
    );
  });
});
