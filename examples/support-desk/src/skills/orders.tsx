import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { useOrdersDb } from '../db.js';
import { cancellable, describeOrder, money } from '../policy.js';
import { desk, openTicket } from '../store.js';
import { ownOrder } from './shared.js';

const orderId = z.string().min(1).describe('The order number, e.g. A-1042');

/** Look orders up and cancel the ones that have not shipped. */
export function Orders() {
  const db = useOrdersDb();
  const customer = useAgentStore(desk, (s) => s.customer);
  const orders = customer ? db.ordersOf(customer.id) : [];
  return (
    <>
      <Instructions>
        Look an order up before you act on it. Cancel only when the customer asks for it, and tell them what happens to
        their payment. Orders that have shipped cannot be cancelled: offer a refund after delivery instead.
      </Instructions>
      {customer ? (
        <Text>
          {`Orders of ${customer.name}, newest first:\n`}
          {orders.map((o) => `- ${describeOrder(o)}`).join('\n')}
        </Text>
      ) : (
        <Text>No customer identified: orders cannot be shown yet.</Text>
      )}
      <Tool
        name="lookup_order"
        description="Show one of the identified customer's orders: items, payment, shipment."
        input={z.object({ orderId })}
        run={({ orderId }) => {
          const order = ownOrder(db, customer, orderId);
          const lines = [
            describeOrder(order),
            ...order.items.map((i) => `  ${i.qty} × ${i.name} (${i.sku}) at ${money(i.price)}`),
            `Charged ${money(order.charged)}; refunded ${money(order.refunded)}.`,
          ];
          if (order.charged > order.total) {
            lines.push(`Note: charged ${money(order.charged)} for a ${money(order.total)} order (duplicate charge).`);
          }
          if (order.shipment) lines.push(`Shipped ${order.shipment.shippedAt} with ${order.shipment.carrier}.`);
          return lines.join('\n');
        }}
      />
      <Tool
        name="cancel_order"
        description="Cancel an order that has not shipped yet. Any payment is refunded in full."
        input={z.object({ orderId, reason: z.string().min(3).describe("The customer's reason, in a few words") })}
        run={({ orderId, reason }, ctx) => {
          const order = ownOrder(db, customer, orderId);
          const check = cancellable(order);
          if (!check.ok) return `Not cancelled: ${check.reason}`;
          const done = db.cancel(order.id);
          desk
            .of(ctx)
            .setState(
              (s) => openTicket(s, { kind: 'cancellation', orderId: done.id, summary: reason, status: 'done' }).state,
            );
          return done.charged > 0
            ? `Cancelled ${done.id}. The ${money(done.charged)} payment goes back to the original payment method within 5 business days.`
            : `Cancelled ${done.id}. Nothing had been charged yet.`;
        }}
      />
    </>
  );
}
