import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { desk, openTicket } from '../store.js';
import { normalizeOrderId } from './shared.js';

/** Hand the conversation to a human, with a summary they can act on. */
export function Escalation() {
  const tickets = useAgentStore(desk, (s) => s.tickets);
  const waiting = tickets.filter((t) => t.status === 'waiting-for-human');
  return (
    <>
      <Instructions>
        Escalate when the customer asks for a person, for duplicate charges, for refunds you may not issue, and when you
        cannot help. The human will not read the chat: write a summary that says who the customer is, which orders, what
        went wrong, what you already did, and what the customer wants. Do not promise an outcome.
      </Instructions>
      {waiting.length > 0 && (
        <Text>{`Waiting for a human: ${waiting.map((t) => `${t.id} (${t.priority})`).join(', ')}`}</Text>
      )}
      <Tool
        name="escalate_to_human"
        description="Open a ticket for the human support team, with a summary of the case."
        input={z.object({
          summary: z.string().min(30).describe('Who, which orders, what went wrong, what was done, what they want'),
          priority: z.enum(['normal', 'high']).describe('high for money taken wrongly or a safety issue'),
          orderId: z.string().optional().describe('The order the case is about, if any'),
        })}
        run={({ summary, priority, orderId }, ctx) => {
          const store = desk.of(ctx);
          const customer = store.getState().customer;
          const who = customer ? `${customer.name} <${customer.email}>` : 'an unidentified customer';
          const { state, ticket } = openTicket(store.getState(), {
            kind: 'escalation',
            orderId: orderId ? normalizeOrderId(orderId) : undefined,
            summary: `For ${who}: ${summary}`,
            status: 'waiting-for-human',
            priority,
          });
          store.setState(state);
          const when = priority === 'high' ? 'within 4 business hours' : 'within 2 business days';
          return `Escalated as ${ticket.id} (${priority}). A person from the support team will email ${customer?.email ?? 'the customer'} ${when}.`;
        }}
      />
    </>
  );
}
