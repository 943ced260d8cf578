import type { Order } from '../data.js';
import type { OrdersDb } from '../db.js';
import type { DeskCustomer } from '../store.js';

/** An order id as customers write it: `A-1042`, `a-1042` or `1042`. */
export function normalizeOrderId(raw: string): string {
  const id = raw.trim().toUpperCase();
  return /^\d+$/.test(id) ? `A-${id}` : id;
}

/**
 * The identified customer's order `raw`. Throws (the model gets an error result) when nobody is
 * identified, or when the order does not exist or belongs to someone else: the desk never shows
 * one customer's orders to another.
 */
export function ownOrder(db: OrdersDb, customer: DeskCustomer | null, raw: string): Order {
  if (!customer) {
    throw new Error('No customer is identified. Read the account skill and call identify_customer first.');
  }
  const id = normalizeOrderId(raw);
  const order = db.order(id);
  if (!order || order.customerId !== customer.id) {
    throw new Error(
      `${customer.name} has no order ${id}. Their orders: ${
        db
          .ordersOf(customer.id)
          .map((o) => o.id)
          .join(', ') || 'none'
      }.`,
    );
  }
  return order;
}
