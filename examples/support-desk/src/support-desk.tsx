/**
 * The support desk agent: five skills, one store, one orders database provided through context.
 */
import { Agent, Instructions, Skill, Text, useAgentStore } from '@skilltree/core';
import { useState } from 'react';
import { OrdersDb, OrdersProvider } from './db.js';
import { Account } from './skills/account.js';
import { Escalation } from './skills/escalation.js';
import { Orders } from './skills/orders.js';
import { Refunds } from './skills/refunds.js';
import { Shipping } from './skills/shipping.js';
import { desk } from './store.js';

/** The desk's skills. */
export type DeskSkill = 'account' | 'orders' | 'shipping' | 'refunds' | 'escalation';

/** What the catalog says about each skill: what the model reads before it decides to read one. */
export const DESCRIPTIONS: Readonly<Record<DeskSkill, string>> = {
  account: 'Identify the customer by email; update their address',
  orders: "Look up the customer's orders; cancel one that has not shipped",
  shipping: 'Track a parcel: carrier, tracking number, expected delivery',
  refunds: 'Refund policy; check and issue refunds for delivered orders',
  escalation: 'Hand the case to a human with a summary',
};

export interface SupportDeskProps {
  /** The orders database. Default: a fresh copy of the seed data, one per session. */
  db?: OrdersDb;
  /** Other words for some skills' descriptions (the evals compare catalogs). Default: {@link DESCRIPTIONS}. */
  descriptions?: Partial<Record<DeskSkill, string>>;
  /** Messages per request. The default, 24, is small so the demo shows the window at work. */
  maxTranscriptMessages?: number;
}

/** Agent-level text: always in `<current_context>`, whichever skills are loaded. */
function CaseStatus() {
  const customer = useAgentStore(desk, (s) => s.customer);
  const tickets = useAgentStore(desk, (s) => s.tickets);
  return (
    <>
      <Text>
        {customer
          ? `Customer: ${customer.name} <${customer.email}> (${customer.id})`
          : 'Customer: not identified yet (account skill, identify_customer).'}
      </Text>
      {tickets.length > 0 && (
        <Text>
          {`Tickets: ${tickets.map((t) => `${t.id} ${t.kind}${t.orderId ? ` ${t.orderId}` : ''} (${t.status})`).join('; ')}`}
        </Text>
      )}
    </>
  );
}

export function SupportDesk({ db, maxTranscriptMessages = 24, descriptions }: SupportDeskProps) {
  const describe = { ...DESCRIPTIONS, ...descriptions };
  // One database per mounted agent, i.e. per session, unless the caller passes one.
  const [orders] = useState(() => db ?? new OrdersDb());
  return (
    <Agent maxLoadedSkills={3} maxTranscriptMessages={maxTranscriptMessages}>
      <Instructions>
        You are the customer support desk of Northwind Goods, an online shop. Be warm, brief and exact: quote order
        numbers and amounts. Only act on the account of the customer you identified. Today is {orders.today}.
      </Instructions>
      <CaseStatus />
      <OrdersProvider db={orders}>
        {/* Each skill declares its tools, so that a call of one before the skill is read says which skill to read. */}
        <Skill name="account" description={describe.account} tools={['identify_customer', 'update_address']}>
          <Account />
        </Skill>
        <Skill name="orders" description={describe.orders} tools={['lookup_order', 'cancel_order']}>
          <Orders />
        </Skill>
        <Skill name="shipping" description={describe.shipping} tools={['track_shipment']}>
          <Shipping />
        </Skill>
        <Skill name="refunds" description={describe.refunds} tools={['check_refund', 'issue_refund']}>
          <Refunds />
        </Skill>
        <Skill name="escalation" description={describe.escalation} tools={['escalate_to_human']}>
          <Escalation />
        </Skill>
      </OrdersProvider>
    </Agent>
  );
}
