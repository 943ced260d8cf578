/**
 * The desk's agent store: who we are talking to, and the tickets this conversation opened.
 * It lives per session outside the React tree, so it survives every skill unload.
 */
import { createAgentStore } from '@skilltree/core';

export interface DeskCustomer {
  id: string;
  name: string;
  email: string;
}

export type TicketKind = 'cancellation' | 'refund' | 'escalation' | 'address-change';

export interface Ticket {
  id: string;
  kind: TicketKind;
  orderId?: string;
  summary: string;
  status: 'done' | 'waiting-for-human';
  priority?: 'normal' | 'high';
}

export interface DeskState {
  customer: DeskCustomer | null;
  tickets: Ticket[];
}

export const desk = createAgentStore<DeskState>('support-desk', () => ({ customer: null, tickets: [] }));

/** Appends a ticket; its id is `T-<n>`, numbered per conversation. */
export function openTicket(state: DeskState, ticket: Omit<Ticket, 'id'>): { state: DeskState; ticket: Ticket } {
  const full: Ticket = { id: `T-${state.tickets.length + 1}`, ...ticket };
  return { state: { ...state, tickets: [...state.tickets, full] }, ticket: full };
}
