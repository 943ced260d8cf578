/**
 * Done when: an agent whose skills load and unload runs 26 turns against Claude Opus 5.5's rules
 * with nothing refused, using only `anthropic({ model: 'claude-opus-5-5' })` defaults. The test
 * server signs every thinking block over the exact prefix before it and refuses any change, refuses
 * a tool-use turn that does not start with its thinking, and enforces the placement of
 * mid-conversation system messages and tool changes. The conversation has LRU unloads
 * (`maxLoadedSkills` 2), a conditional tool, re-rendered agent instructions and text, and a small
 * window that moves; streamed and not.
 */
import {
  Agent,
  createAgentStore,
  createSession,
  Instructions,
  type Model,
  restoreSession,
  Skill,
  Text,
  Tool,
  useAgentStore,
} from '@skilltree/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropic } from '../src/anthropic.js';
import { claudeScript, type ThinkingStep } from './helpers/anthropic-thinking.js';
import { type Recorded, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const prefs = createAgentStore('prefs', () => ({ tier: 'basic', notes: [] as string[] }));

function Ops() {
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
      <Tool
        name="note"
        description="Write down a note"
        input={z.object({ text: z.string() })}
        run={({ text }, ctx) => {
          prefs.of(ctx).setState((s) => ({ notes: [...s.notes, text] }));
          return 'noted';
        }}
      />
      <Skill name="refunds" description="Refund orders">
        <Instructions>Refunds within 30 days.</Instructions>
        <Tool
          name="refund_order"
          description="Refund"
          input={z.object({ id: z.string() })}
          run={({ id }) => `refunded ${id}`}
        />
        {tier === 'gold' && (
          <Tool
            name="refund_express"
            description="Refund at once (gold customers)"
            input={z.object({ id: z.string() })}
            run={({ id }) => `refunded ${id} at once`}
          />
        )}
      </Skill>
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
        <Tool
          name="track"
          description="Track a parcel"
          input={z.object({ id: z.string() })}
          run={({ id }) => `in transit ${id}`}
        />
      </Skill>
    </Agent>
  );
}

interface ScriptedTurn {
  user: string;
  steps: ThinkingStep[];
  reply: string;
}

/**
 * 26 turns: a cycle of 8 that ends where it starts (refunds and shipping loaded, tier basic), three
 * times, and two more. Every call is of a tool offered at that point.
 */
function script(): ScriptedTurn[] {
  let n = 0;
  const call = (name: string, input: unknown): ThinkingStep => ({ toolCalls: [{ id: `toolu_${++n}`, name, input }] });
  const read = (skill: string) => call('read_skill', { name: skill });
  const turn = (user: string, steps: ThinkingStep[], reply: string): ScriptedTurn => ({
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

type Block = { type: string; text?: string; tool?: { name?: string; definition?: { name: string } } };
type WireMessage = { role: string; content: Block[] };
const unmarked = (value: unknown) => JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v));
const messagesOf = (r: Recorded) => r.body.messages as WireMessage[];

/** The tools a request offers at its end: `tools`, then each system message's removals and additions in order. */
function offered(r: Recorded): string[] {
  const names = new Set<string>((r.body.tools ?? []).map((t: { name: string }) => t.name));
  for (const m of messagesOf(r)) {
    if (m.role !== 'system') continue;
    for (const b of m.content) {
      if (b.type === 'tool_removal') names.delete(String(b.tool?.name));
      if (b.type === 'tool_addition') names.add(String(b.tool?.definition?.name ?? b.tool?.name));
    }
  }
  return [...names].sort();
}

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('26 turns on Claude Opus 5.5 with only the defaults (%s)', (_name, streamed) => {
  it('loads, LRU unloads, a conditional tool, re-renders and window moves: nothing refused', async () => {
    const turns = script();
    expect(turns.length).toBeGreaterThanOrEqual(24);
    const steps = turns.flatMap((t) => t.steps);
    const claude = claudeScript(steps);
    server.queue(...steps.map(() => claude.handler));
    const adapter = anthropic({ model: 'claude-opus-5-5', apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
    expect(adapter.appendOnly).toBe(true);
    const model: Model = streamed
      ? adapter
      : { name: adapter.name, appendOnly: adapter.appendOnly, generate: adapter.generate };
    const session = createSession(<Ops />, { model, maxTranscriptMessages: 16 });
    const starts: number[] = [];
    try {
      for (const t of turns) {
        starts.push(server.requests.length);
        const done = await session.send(t.user);
        expect(done.text).toBe(t.reply);
      }
      expect(claude.refusals).toEqual([]);
      expect(server.requests).toHaveLength(steps.length);

      // Inside a turn, every request is the previous one plus appended messages.
      const requests = server.requests;
      let moves = 0;
      for (let i = 1; i < requests.length; i++) {
        const before = requests[i - 1];
        const after = requests[i];
        const sameStart = unmarked(messagesOf(after)[0]) === unmarked(messagesOf(before)[0]);
        if (!starts.includes(i)) {
          expect(unmarked(after.body.system)).toBe(unmarked(before.body.system));
          expect(unmarked(after.body.tools)).toBe(unmarked(before.body.tools));
          const prefix = messagesOf(before).slice(0, -1);
          expect(unmarked(messagesOf(after).slice(0, prefix.length))).toBe(unmarked(prefix));
          // The model's reply to the previous request goes back with its thinking first.
          const appended = messagesOf(after)
            .slice(prefix.length)
            .filter((m) => m.role === 'assistant');
          expect(appended).toHaveLength(1);
          expect(['thinking', 'redacted_thinking']).toContain(appended[0].content[0].type);
        } else if (!sameStart) moves++;
      }
      // The window moved, only where a turn started.
      expect(moves).toBeGreaterThan(0);

      // What reached the model: loads and LRU unloads, the conditional tool, the re-rendered instructions.
      const all = requests.flatMap(messagesOf).filter((m) => m.role === 'system');
      const blocks = all.flatMap((m) => m.content);
      const changes = new Set(
        blocks.filter((b) => b.type !== 'text').map((b) => `${b.type} ${b.tool?.definition?.name ?? b.tool?.name}`),
      );
      for (const change of [
        'tool_addition refund_order',
        'tool_removal refund_order',
        'tool_addition refund_express',
        'tool_removal refund_express',
        'tool_addition send_invoice',
        'tool_removal send_invoice',
        'tool_addition track',
      ]) {
        expect(changes).toContain(change);
      }
      expect(blocks.some((b) => b.type === 'text' && b.text?.includes('gold customer'))).toBe(true);
      expect(blocks.some((b) => b.type === 'text' && b.text?.includes('called in cycle 1'))).toBe(true);

      // The model is offered exactly what core offers.
      const last = requests[requests.length - 1];
      expect(offered(last)).toEqual(
        session
          .request()
          .tools.map((t) => t.name)
          .sort(),
      );
    } finally {
      session.dispose();
    }
  });
});

describe('the same conversation through a snapshot', () => {
  it('a session restored halfway sends exactly what the first one would have: nothing refused', async () => {
    const turns = script();
    const steps = turns.flatMap((t) => t.steps);
    const model = anthropic({ model: 'claude-opus-5-5', apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
    const run = async (restoreAt?: number) => {
      const claude = claudeScript(steps);
      server.queue(...steps.map(() => claude.handler));
      const from = server.requests.length;
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
      expect(claude.refusals).toEqual([]);
      return server.requests.slice(from).map((r) => r.raw);
    };
    const straight = await run();
    const restored = await run(13);
    expect(restored).toHaveLength(steps.length);
    expect(restored).toEqual(straight);
  });
});
