/**
 * The agent behind the chat: three skills the model loads when it needs them. `notes` keeps what the
 * user asks it to remember (in a store, so the notes survive the skill unloading); `units` converts
 * lengths and weights; `refunds` refunds an order, and only once a person approved it.
 */
import { Agent, createAgentStore, Instructions, Skill, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import type { Refunds as RefundLedger } from './refunds.js';

/** The user's notes: one store per session, kept while skills load and unload. */
export const notes = createAgentStore('notes', () => ({ items: [] as string[] }));

function Notes() {
  const items = useAgentStore(notes, (s) => s.items);
  return (
    <>
      <Instructions>Save what the user asks you to remember with add_note, one note per call.</Instructions>
      <Text>Notes: {items.length > 0 ? items.join('; ') : 'none yet'}</Text>
      <Tool
        name="add_note"
        description="Save a note for the user"
        input={z.object({ text: z.string().min(1).describe('The note, in a few words') })}
        run={({ text }, ctx) => {
          notes.of(ctx).setState((s) => ({ items: [...s.items, text] }));
          return `Saved note ${notes.of(ctx).getState().items.length}: ${text}`;
        }}
      />
    </>
  );
}

const FACTORS: Record<string, number> = { m: 1, km: 1000, cm: 0.01, mi: 1609.344, ft: 0.3048, in: 0.0254 };
const WEIGHTS: Record<string, number> = { kg: 1, g: 0.001, lb: 0.45359237, oz: 0.028349523125 };

/** `value` in `from` as `to`, or an error message. */
export function convert(value: number, from: string, to: string): number | string {
  for (const table of [FACTORS, WEIGHTS]) {
    if (from in table && to in table) return (value * table[from]) / table[to];
  }
  return `Cannot convert ${from} to ${to}: use ${Object.keys(FACTORS).join(', ')} or ${Object.keys(WEIGHTS).join(', ')}.`;
}

function Units() {
  return (
    <>
      <Instructions>Convert with the convert tool; round to two decimals.</Instructions>
      <Tool
        name="convert"
        description="Convert a length or a weight"
        input={z.object({ value: z.number(), from: z.string(), to: z.string() })}
        run={({ value, from, to }) => {
          const result = convert(value, from, to);
          if (typeof result === 'string') throw new Error(result);
          return `${value} ${from} = ${Math.round(result * 100) / 100} ${to}`;
        }}
      />
    </>
  );
}

function Refunds({ ledger }: { ledger: RefundLedger }) {
  return (
    <>
      <Instructions>
        Refund an order with the refund tool when the customer asks. A person approves each refund first; if they deny
        it, say that the order was not refunded.
      </Instructions>
      <Tool
        name="refund"
        description="Refund an order in full"
        input={z.object({ order: z.string().min(1).describe('The order number, e.g. A-1001') })}
        // Nothing runs on the model's word alone: the call waits until a person approves or denies it.
        needsApproval
        run={({ order }, ctx) => {
          const number = ledger.issue({ order, chat: ctx.chat?.id ?? '' });
          return `Refund ${number} issued for order ${order}`;
        }}
      />
    </>
  );
}

/** The agent: a short system prompt and three skills. `refunds` is where the refund tool issues refunds. */
export function ChatAgent({ refunds }: { refunds: RefundLedger }) {
  return (
    <Agent maxLoadedSkills={2}>
      <Instructions>You are a helpful assistant in a web chat. Be brief.</Instructions>
      <Skill name="notes" description="Remember things for the user">
        <Notes />
      </Skill>
      <Skill name="units" description="Convert lengths and weights">
        <Units />
      </Skill>
      <Skill name="refunds" description="Refund a customer's order">
        <Refunds ledger={refunds} />
      </Skill>
    </Agent>
  );
}
