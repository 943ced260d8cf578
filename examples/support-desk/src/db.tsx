/**
 * An in-memory orders database, handed to the skills through a React context provider.
 *
 * Skills read it with {@link useOrdersDb}, which also subscribes the component: when a tool
 * cancels or refunds an order, every component that shows that order re-renders, so the
 * tool's result and the next request already show the new state.
 */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import { CUSTOMERS, type Customer, ORDERS, type Order, TODAY } from './data.js';

export class OrdersDb {
  readonly today: string;
  #customers: Customer[];
  #orders: Map<string, Order>;
  #version = 0;
  #listeners = new Set<() => void>();

  constructor(seed: { customers?: Customer[]; orders?: Order[]; today?: string } = {}) {
    this.today = seed.today ?? TODAY;
    // Deep copies: every database starts from the seed, whatever other sessions did to theirs.
    this.#customers = structuredClone(seed.customers ?? CUSTOMERS);
    this.#orders = new Map(structuredClone(seed.orders ?? ORDERS).map((o) => [o.id, o]));
  }

  /** Changes on every write; components use it to re-render. */
  get version(): number {
    return this.#version;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  customerByEmail(email: string): Customer | undefined {
    const needle = email.trim().toLowerCase();
    return this.#customers.find((c) => c.email === needle);
  }

  customer(id: string): Customer | undefined {
    return this.#customers.find((c) => c.id === id);
  }

  order(id: string): Order | undefined {
    return this.#orders.get(id.trim().toUpperCase());
  }

  /** A customer's orders, newest first. */
  ordersOf(customerId: string): Order[] {
    return [...this.#orders.values()]
      .filter((o) => o.customerId === customerId)
      .sort((a, b) => b.placedAt.localeCompare(a.placedAt) || b.id.localeCompare(a.id));
  }

  get orderCount(): number {
    return this.#orders.size;
  }

  cancel(id: string): Order {
    return this.#update(id, (o) => ({ ...o, status: 'cancelled', cancelledAt: this.today, refunded: o.charged }));
  }

  refund(id: string, amount: number): Order {
    return this.#update(id, (o) => {
      const refunded = o.refunded + amount;
      return { ...o, refunded, status: refunded >= o.total ? 'refunded' : o.status };
    });
  }

  updateAddress(customerId: string, address: string): Customer {
    const index = this.#customers.findIndex((c) => c.id === customerId);
    if (index === -1) throw new Error(`No customer ${customerId}.`);
    const next = { ...this.#customers[index], address };
    this.#customers = this.#customers.with(index, next);
    this.#changed();
    return next;
  }

  #update(id: string, change: (order: Order) => Order): Order {
    const current = this.order(id);
    if (!current) throw new Error(`No order ${id}.`);
    const next = change(current);
    this.#orders.set(current.id, next);
    this.#changed();
    return next;
  }

  #changed(): void {
    this.#version++;
    for (const listener of [...this.#listeners]) listener();
  }
}

const OrdersContext = createContext<OrdersDb | null>(null);

/** Makes `db` available to every skill below it. */
export function OrdersProvider({ db, children }: { db: OrdersDb; children?: ReactNode }) {
  return <OrdersContext.Provider value={db}>{children}</OrdersContext.Provider>;
}

/** The orders database; re-renders the component whenever the database changes. */
export function useOrdersDb(): OrdersDb {
  const db = useContext(OrdersContext);
  if (!db) throw new Error('useOrdersDb() needs an <OrdersProvider> above it.');
  useSyncExternalStore(db.subscribe, () => db.version);
  return db;
}
