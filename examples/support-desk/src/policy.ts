/** The desk's rules, as plain functions the skills and the tests share. */
import type { Order } from './data.js';

/** Days a delivered order stays refundable. */
export const REFUND_WINDOW_DAYS = 30;
/** Refunds above this many cents need a human. */
export const REFUND_LIMIT = 50000;
/** Refunds of this many cents or more wait for a person's approval before they are issued. */
export const APPROVAL_LIMIT = 10000;

export function money(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

/** One line describing an order. */
export function describeOrder(order: Order): string {
  const what = order.items.map((i) => (i.qty > 1 ? `${i.qty}× ${i.name}` : i.name)).join(', ');
  let status: string = order.status;
  if (order.status === 'shipped' && order.shipment?.eta) status += `, arriving ${order.shipment.eta}`;
  if (order.status === 'delivered' && order.shipment?.deliveredAt) status += ` ${order.shipment.deliveredAt}`;
  if (order.refunded > 0 && order.status !== 'refunded') status += `, ${money(order.refunded)} refunded`;
  return `${order.id} (${order.placedAt}): ${what}, ${money(order.total)}, ${status}`;
}

export type Eligibility = { eligible: true; amount: number } | { eligible: false; reason: string };

/** Whether an order can be refunded today, and how much. */
export function refundEligibility(order: Order, today: string): Eligibility {
  if (order.status === 'refunded') return { eligible: false, reason: `${order.id} was refunded already.` };
  if (order.status === 'cancelled') {
    return { eligible: false, reason: `${order.id} was cancelled; cancellations are refunded automatically.` };
  }
  if (order.status !== 'delivered') {
    return {
      eligible: false,
      reason: `${order.id} is ${order.status}, not delivered. Refunds start after delivery; cancel it instead if it has not shipped.`,
    };
  }
  const delivered = order.shipment?.deliveredAt ?? order.placedAt;
  const age = daysBetween(delivered, today);
  if (age > REFUND_WINDOW_DAYS) {
    return {
      eligible: false,
      reason: `${order.id} was delivered ${age} days ago (${delivered}); the refund window is ${REFUND_WINDOW_DAYS} days.`,
    };
  }
  const amount = order.total - order.refunded;
  if (amount <= 0) return { eligible: false, reason: `${order.id} has nothing left to refund.` };
  if (amount > REFUND_LIMIT) {
    return {
      eligible: false,
      reason: `${order.id} would refund ${money(amount)}, above the ${money(REFUND_LIMIT)} a bot may refund. Escalate it to a human.`,
    };
  }
  return { eligible: true, amount };
}

/** Whether an order can still be cancelled. */
export function cancellable(order: Order): { ok: true } | { ok: false; reason: string } {
  if (order.status === 'placed' || order.status === 'processing') return { ok: true };
  if (order.status === 'shipped') {
    return {
      ok: false,
      reason: `${order.id} shipped on ${order.shipment?.shippedAt}; it can no longer be cancelled. Once delivered it can be returned for a refund.`,
    };
  }
  return { ok: false, reason: `${order.id} is ${order.status}; only placed or processing orders can be cancelled.` };
}
