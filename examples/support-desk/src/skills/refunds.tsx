import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { useState } from 'react';
import { z } from 'zod';
import { useOrdersDb } from '../db.js';
import { APPROVAL_LIMIT, money, REFUND_LIMIT, REFUND_WINDOW_DAYS, refundEligibility } from '../policy.js';
import { desk, openTicket } from '../store.js';
import { normalizeOrderId, ownOrder } from './shared.js';

/**
 * Refunds. `issue_refund` is rendered only while the order under review is eligible: the model
 * cannot refund an order it has not checked, and the tool leaves the request once it is used. A
 * refund of `APPROVAL_LIMIT` or more waits for a person's approval (`needsApproval`): the turn ends
 * with the call waiting, and it runs only once someone approves it.
 */
export function Refunds() {
  const db = useOrdersDb();
  const customer = useAgentStore(desk, (s) => s.customer);
  // Which order the model is looking at. Local state: reading the skill again starts afresh.
  const [reviewing, setReviewing] = useState<string | null>(null);
  const order = reviewing ? db.order(reviewing) : undefined;
  const eligibility = order ? refundEligibility(order, db.today) : null;
  return (
    <>
      <Instructions>
        {`Refund policy: delivered orders can be refunded within ${REFUND_WINDOW_DAYS} days of delivery, up to what is left of the order total.`}
        {`\nRefunds above ${money(REFUND_LIMIT)} and duplicate charges go to a human (escalation skill).`}
        {'\nCheck an order with check_refund first; issue_refund appears only for an eligible order.'}
        {`\nRefunds of ${money(APPROVAL_LIMIT)} or more wait for a colleague's approval: tell the customer it is on its way once approved.`}
        {'\nAsk for the reason and pass it on. Refunds reach the customer in 5 to 10 business days.'}
      </Instructions>
      {order && eligibility?.eligible && (
        <Text>{`Refund ready: ${order.id}, up to ${money(eligibility.amount)}.`}</Text>
      )}
      <Tool
        name="check_refund"
        description="Check whether one of the identified customer's orders can be refunded, and for how much."
        input={z.object({ orderId: z.string().min(1).describe('The order number, e.g. A-1013') })}
        run={({ orderId }) => {
          const order = ownOrder(db, customer, orderId);
          const result = refundEligibility(order, db.today);
          setReviewing(order.id);
          return result.eligible
            ? `${order.id} is eligible for a refund of up to ${money(result.amount)}. issue_refund is now available.`
            : `${order.id} is not eligible: ${result.reason}`;
        }}
      />
      {order && eligibility?.eligible && (
        <Tool
          name="issue_refund"
          description={`Refund ${order.id} (up to ${money(eligibility.amount)}) to the original payment method.`}
          input={z.object({
            orderId: z.string().describe(`Must be ${order.id}`),
            amount: z.number().positive().describe('Amount in dollars, e.g. 79.00'),
            reason: z.string().min(3).describe("The customer's reason"),
          })}
          needsApproval={({ amount }) => Math.round(amount * 100) >= APPROVAL_LIMIT}
          run={({ orderId, amount, reason }, ctx) => {
            if (normalizeOrderId(orderId) !== order.id) {
              throw new Error(`Only ${order.id} is checked. Call check_refund for ${normalizeOrderId(orderId)} first.`);
            }
            const cents = Math.round(amount * 100);
            if (cents > eligibility.amount) {
              throw new Error(`At most ${money(eligibility.amount)} can be refunded for ${order.id}.`);
            }
            db.refund(order.id, cents);
            const store = desk.of(ctx);
            const { state, ticket } = openTicket(store.getState(), {
              kind: 'refund',
              orderId: order.id,
              summary: `${money(cents)}: ${reason}`,
              status: 'done',
            });
            store.setState(state);
            return `Refunded ${money(cents)} for ${order.id} (ticket ${ticket.id}). It reaches the customer in 5 to 10 business days.`;
          }}
        />
      )}
    </>
  );
}
