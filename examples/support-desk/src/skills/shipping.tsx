import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { useOrdersDb } from '../db.js';
import { daysBetween } from '../policy.js';
import { desk } from '../store.js';
import { ownOrder } from './shared.js';

/** Where a parcel is. */
export function Shipping() {
  const db = useOrdersDb();
  const customer = useAgentStore(desk, (s) => s.customer);
  const inTransit = customer ? db.ordersOf(customer.id).filter((o) => o.status === 'shipped') : [];
  return (
    <>
      <Instructions>
        Carriers update tracking about once a day. A parcel more than 3 days past its expected date is late: apologise
        and offer to escalate to a human. Never promise a delivery date the carrier has not given.
      </Instructions>
      {inTransit.length > 0 && (
        <Text>
          {`In transit: ${inTransit.map((o) => `${o.id} with ${o.shipment?.carrier}, due ${o.shipment?.eta}`).join('; ')}`}
        </Text>
      )}
      <Tool
        name="track_shipment"
        description="Tracking for one of the identified customer's orders: carrier, tracking number, events, expected date."
        input={z.object({ orderId: z.string().min(1).describe('The order number, e.g. A-1042') })}
        run={({ orderId }) => {
          const order = ownOrder(db, customer, orderId);
          const s = order.shipment;
          if (!s) return `${order.id} has not shipped (status: ${order.status}).`;
          const lines = [`${order.id}: ${s.carrier}, tracking ${s.tracking}, shipped ${s.shippedAt}.`];
          for (const e of s.events) lines.push(`  ${e.at} ${e.where}: ${e.what}`);
          if (s.deliveredAt) lines.push(`Delivered ${s.deliveredAt}.`);
          else if (s.eta) {
            const late = daysBetween(s.eta, db.today);
            lines.push(late > 3 ? `Expected ${s.eta}: ${late} days late.` : `Expected ${s.eta}: on time.`);
          }
          return lines.join('\n');
        }}
      />
    </>
  );
}
