/**
 * The agent and the 26-turn conversation both long-conversation tests play (Claude Opus 5.5's rules
 * and GPT-5.6's): LRU unloads with `maxLoadedSkills` 2, a conditional tool, re-rendered agent
 * instructions and text. Each provider's test gives its own call ids and server.
 */
import {
  Agent,
  createAgentStore,
  createSession,
  Instructions,
  type Model,
  restoreSession,
  type Session,
  Skill,
  Text,
  Tool,
  useAgentStore,
} from '@skilltree/core';
import { AppendTool } from '@skilltree/test-kit';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import { z } from 'zod';
import { streamedOrNot } from './generate-only.js';
import type { Handler, TestServer } from './server.js';

/** A scripted step any of the test servers takes: text and tool calls. */
export interface ScriptedStep {
  text?: string;
  toolCalls?: { id: string; name: string; input: unknown }[];
}

/** The `refund_order` tool of the refunds skill ({@link Refunds}). */
export function RefundOrder() {
  return (
    <Tool
      name="refund_order"
      description="Refund"
      input={z.object({ id: z.string() })}
      run={({ id }) => `refunded ${id}`}
    />
  );
}

/**
 * The refunds skill as the Ops agents and the subagents' desk offer it: its instructions and
 * {@link RefundOrder}, then `children` (a tool only some agents add).
 */
export function Refunds({ children }: { children?: ReactNode }) {
  return (
    <Skill name="refunds" description="Refund orders">
      <Instructions>Refunds within 30 days.</Instructions>
      <RefundOrder />
      {children}
    </Skill>
  );
}

/** The `track` tool of the shipping skill, as both Ops agents offer it (each with its own description). */
export function Track({ description }: { description: string }) {
  return (
    <Tool
      name="track"
      description={description}
      input={z.object({ id: z.string() })}
      run={({ id }) => `in transit ${id}`}
    />
  );
}

/** The customer's tier and notes, the state the long conversation's tools change. */
export const prefs = createAgentStore('prefs', () => ({ tier: 'basic', notes: [] as string[] }));

export function Ops() {
  const tier = useAgentStore(prefs, (s) => s.tier);
  const notes = useAgentStore(prefs, (s) => s.notes);
  return (
    <Agent maxLoadedSkills={2}>
      <Instructions>You run operations for a {tier} customer.</Instructions>
      <Text>Notes: {notes.join('; ') || 'none'}</Text>
      <Tool
        name="set_tier"
        description="Set the customer's tier"
        input={z.object({ tier: z.enum(['basic', 'gold']) })}
        run={({ tier: next }, ctx) => {
          prefs.of(ctx).setState({ tier: next });
          return `tier is ${next}`;
        }}
      />
      <AppendTool
        store={prefs}
        list="notes"
        name="note"
        description="Write down a note"
        field="text"
        reply={() => 'noted'}
      />
      <Refunds>
        {tier === 'gold' && (
          <Tool
            name="refund_express"
            description="Refund at once (gold customers)"
            input={z.object({ id: z.string() })}
            run={({ id }) => `refunded ${id} at once`}
          />
        )}
      </Refunds>
      <Skill name="billing" description="Invoices">
        <Instructions>Invoices are monthly.</Instructions>
        <Tool
          name="send_invoice"
          description="Send an invoice"
          input={z.object({ month: z.string() })}
          run={({ month }) => `sent ${month}`}
        />
      </Skill>
      <Skill name="shipping" description="Shipments">
        <Instructions>Track before you promise a date.</Instructions>
        <Track description="Track a parcel" />
      </Skill>
    </Agent>
  );
}

export interface ScriptedTurn {
  user: string;
  steps: ScriptedStep[];
  reply: string;
}

/**
 * 26 turns: a cycle of 8 that ends where it starts (refunds and shipping loaded, tier basic), three
 * times, and two more. Every call is of a tool offered at that point.
 */
export function script(callId: (n: number) => string): ScriptedTurn[] {
  let n = 0;
  const call = (name: string, input: unknown): ScriptedStep => ({ toolCalls: [{ id: callId(++n), name, input }] });
  const read = (skill: string) => call('read_skill', { name: skill });
  const turn = (user: string, steps: ScriptedStep[], reply: string): ScriptedTurn => ({
    user,
    steps: [...steps, { text: reply }],
    reply,
  });
  const cycle = (c: number): ScriptedTurn[] => [
    turn(`refund order ${c}1`, [read('refunds'), call('refund_order', { id: `${c}1` })], `Refunded ${c}1.`),
    turn('thanks', [], 'Anything else?'),
    turn(
      'make them gold and refund fast',
      [call('set_tier', { tier: 'gold' }), call('refund_express', { id: `${c}2` })],
      'Done, at once.',
    ),
    turn('invoice for June', [read('billing'), call('send_invoice', { month: 'June' })], 'Invoice sent.'),
    turn(`where is parcel ${c}3`, [read('shipping'), call('track', { id: `${c}3` })], 'In transit.'),
    turn('note that they called', [call('note', { text: `called in cycle ${c}` })], 'Noted.'),
    turn(`refund ${c}4 fast`, [read('refunds'), call('refund_express', { id: `${c}4` })], 'Refunded at once.'),
    turn(
      `back to basic, refund ${c}5`,
      [call('set_tier', { tier: 'basic' }), call('refund_order', { id: `${c}5` })],
      `Refunded ${c}5.`,
    ),
  ];
  return [
    ...cycle(1),
    ...cycle(2),
    ...cycle(3),
    turn('bye', [], 'Bye.'),
    turn('one more: thanks', [], 'You are welcome.'),
  ];
}

/**
 * Plays every turn on a fresh `<Ops />` session (window of 16) over `adapter` (streamed, or through
 * its `generate` alone) against `server` and checks each reply; then hands the session and the
 * number of requests `server` had at each turn's start to `check` (each provider's test checks its
 * own wire), and disposes the session whatever happens.
 */
export async function playTurns(
  server: TestServer,
  adapter: Model,
  streamed: boolean,
  turns: ScriptedTurn[],
  check: (session: Session, starts: number[]) => void,
): Promise<void> {
  const session = createSession(<Ops />, { model: streamedOrNot(adapter, streamed), maxTranscriptMessages: 16 });
  const starts: number[] = [];
  try {
    for (const t of turns) {
      starts.push(server.requests.length);
      const done = await session.send(t.user);
      expect(done.text).toBe(t.reply);
    }
    check(session, starts);
  } finally {
    session.dispose();
  }
}

/**
 * Sends every turn on a fresh `<Ops />` session (window of 16), checking each reply; at turn
 * `restoreAt`, if given, the session is replaced by one restored from its JSON snapshot.
 */
export async function sendTurns(model: Model, turns: ScriptedTurn[], restoreAt?: number): Promise<void> {
  let session = createSession(<Ops />, { model, maxTranscriptMessages: 16 });
  try {
    for (const [i, t] of turns.entries()) {
      if (i === restoreAt) {
        const snapshot = JSON.stringify(session.snapshot());
        session.dispose();
        session = restoreSession(<Ops />, snapshot, { model, maxTranscriptMessages: 16 });
      }
      expect((await session.send(t.user)).text).toBe(t.reply);
    }
  } finally {
    session.dispose();
  }
}

/** The two ways each long conversation runs: streamed, and through `generate` alone. */
export const STREAMED_OR_NOT: [string, boolean][] = [
  ['streamed', true],
  ['not streamed', false],
];

/** The 26 turns with the given call ids, and every step of them in order. */
export function conversation(callId: (n: number) => string): { turns: ScriptedTurn[]; steps: ScriptedStep[] } {
  const turns = script(callId);
  return { turns, steps: turns.flatMap((t) => t.steps) };
}

/** Queues `rules`' handler on `server` once per step, and returns `rules`. */
export function queueRules<R extends { handler: Handler }>(server: TestServer, rules: R, steps: ScriptedStep[]): R {
  server.queue(...steps.map(() => rules.handler));
  return rules;
}
