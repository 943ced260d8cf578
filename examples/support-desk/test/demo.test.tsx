import type { Message, ToolMessage } from '@skilltree/core';
import { playDemo as play } from '@skilltree/test-kit';
import { renderAgent } from '@skilltree/testing';
import { expect, test } from 'vitest';
import SupportDeskAgent, { demo } from '../agent.js';
import { OrdersDb } from '../src/db.js';
import { desk } from '../src/store.js';
import { changes, own, text } from './helpers.js';

const toolResults = (messages: readonly Message[], name: string) =>
  messages.filter((m): m is ToolMessage => m.role === 'tool' && m.name === name);

async function playDemo() {
  const db = new OrdersDb();
  return { db, ...(await play(demo, (model) => renderAgent(<SupportDeskAgent db={db} />, { model }))) };
}

test('the module exports the agent and a demo the CLI can play', () => {
  expect(typeof SupportDeskAgent).toBe('function');
  expect(demo.messages).toHaveLength(5);
  // A fresh model per call: the CLI may play the demo more than once.
  expect(demo.model()).not.toBe(demo.model());
});

test('the demo conversation plays end to end', async () => {
  const { agent, db, model, replies } = await playDemo();
  expect(model.remaining).toBe(0);
  expect(replies).toEqual([
    expect.stringMatching(
      /^Thanks, Dana\. A-1042 is on its way with Royal Post \(tracking RO\d{10}\) and is expected on 2026-03-16, on time\.$/,
    ),
    'Done: A-1057 is cancelled, and the $119.00 goes back to your card within 5 business days.',
    "I'm sorry about the headphones. I've refunded $79.00 for A-1013 (ticket T-2); it reaches you in 5 to 10 business days.",
    "I've passed this to our team as T-3, high priority. Someone will email you within 4 business hours.",
    'Here is everything from today:\n- T-1 cancellation A-1057 (done)\n- T-2 refund A-1013 (done)\n- T-3 escalation A-1021 (waiting-for-human)',
  ]);

  // What the tools did.
  expect(db.order('A-1057')?.status).toBe('cancelled');
  expect(db.order('A-1013')).toMatchObject({ status: 'refunded', refunded: 7900 });
  const { customer, tickets } = agent.session.store(desk).getState();
  expect(customer?.id).toBe('C-1001');
  expect(tickets.map((t) => `${t.id} ${t.kind} ${t.orderId} ${t.status}`)).toEqual([
    'T-1 cancellation A-1057 done',
    'T-2 refund A-1013 done',
    'T-3 escalation A-1021 waiting-for-human',
  ]);
  expect(tickets[2].summary).toMatch(
    /^For Dana Whitfield <dana\.whitfield@example\.com>: Dana Whitfield was charged \$200\.00/,
  );
});

test('the demo reads five skills with room for three: account, then shipping, are unloaded', async () => {
  const { agent } = await playDemo();
  expect(agent.session.loadedSkills).toEqual(['orders', 'refunds', 'escalation']);
  const reads = toolResults(agent.transcript, 'read_skill').map((m) => own(m));
  expect(reads).toEqual([
    'Loaded skill "account"; it is now active.',
    'Loaded skill "shipping"; it is now active.',
    'Loaded skill "orders"; it is now active.',
    'Loaded skill "refunds"; it is now active. Unloaded "account" (least recently read).',
    'Loaded skill "escalation"; it is now active. Unloaded "shipping" (least recently read).',
  ]);
  const [, , , refunds, escalation] = toolResults(agent.transcript, 'read_skill');
  expect(changes(refunds).slice(0, 2)).toEqual(['contextChanged refunds loaded', 'contextChanged account unloaded']);
  expect(changes(escalation).slice(0, 2)).toEqual([
    'contextChanged escalation loaded',
    'contextChanged shipping unloaded',
  ]);
  // Unloading removed account's text from the context, not its lines from the transcript.
  expect(agent.request().context).not.toContain('Address on file');
  const identify = toolResults(agent.transcript, 'identify_customer')[0];
  expect(changes(identify)).toContain(
    'contextChanged account added: Identified: Dana Whitfield (C-1001), customer since 2023-05-02. Address on file: 14 Alder Row, Bristol BS1 4DJ, UK',
  );
});

test('the demo recovers from Unknown tool: it reads the error, reads the skill, retries', async () => {
  const { agent, model } = await playDemo();
  const cancels = toolResults(agent.transcript, 'cancel_order');
  expect(cancels).toHaveLength(2);
  expect(cancels[0].isError).toBe(true);
  expect(text(cancels[0])).toMatch(
    /^Unknown tool: cancel_order \(skill "orders" is not loaded; read it first with read_skill\)\. Tools available now: read_skill, identify_customer/,
  );
  expect(cancels[1].isError).toBeFalsy();

  // The model received the refusal as the last message of its next request, and answered with a read.
  const sawError = model.requests.findIndex((r) => {
    const last = r.messages.at(-1);
    return last?.role === 'tool' && last.toolCallId === cancels[0].toolCallId;
  });
  expect(sawError).toBeGreaterThan(-1);
  const i = agent.transcript.findIndex((m) => m.role === 'tool' && m.toolCallId === cancels[0].toolCallId);
  expect(agent.transcript[i + 1]).toMatchObject({
    role: 'assistant',
    toolCalls: [{ name: 'read_skill', input: { name: 'orders' } }],
  });
  expect(agent.transcript.findIndex((m) => m.role === 'tool' && m.toolCallId === cancels[1].toolCallId)).toBe(i + 4);
  expect(changes(cancels[1])).toEqual([
    'contextChanged agent added: Tickets: T-1 cancellation A-1057 (done)',
    'contextChanged orders added: - A-1057 (2026-03-13): Strider running shoes (EU 42), $119.00, cancelled, $119.00 refunded',
  ]);
});

test('the demo offers issue_refund only after check_refund found A-1013 eligible', async () => {
  const { agent, model } = await playDemo();
  const check = toolResults(agent.transcript, 'check_refund')[0];
  expect(changes(check)).toEqual(['contextChanged refunds added: Refund ready: A-1013, up to $79.00.']);
  const offered = model.requests.map((r) => r.tools.some((t) => t.name === 'issue_refund'));
  const checkedAt = model.requests.findIndex((r) => {
    const last = r.messages.at(-1);
    return last?.role === 'tool' && last.toolCallId === check.toolCallId;
  });
  expect(offered.slice(0, checkedAt).every((x) => !x)).toBe(true);
  expect(offered[checkedAt]).toBe(true);
  // Once refunded, the order is not eligible and the tool is gone again.
  expect(offered.at(-1)).toBe(false);
  expect(agent.queryByTool('issue_refund')).toBeNull();
});

test('the transcript window drops the first turns; <current_context> still carries the case', async () => {
  const { agent, model } = await playDemo();
  expect(agent.session.config.maxTranscriptMessages).toBe(24);
  expect(agent.transcript).toHaveLength(36);

  const last = model.requests.at(-1)!;
  expect(last.messages.length).toBeLessThanOrEqual(24);
  expect(last.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: demo.messages[2] }] });
  const everything = JSON.stringify(last.messages);
  expect(everything).not.toContain('track_shipment'); // turn 1 is out of the window...
  expect(everything).not.toContain('Unknown tool'); // ...and so is turn 2
  expect(agent.transcript[0]).toEqual({ role: 'user', content: [{ type: 'text', text: demo.messages[0] }] }); // though the transcript keeps all
  // ...but the context is outside the cap, so the customer and tickets are still there.
  expect(last.context).toContain('Customer: Dana Whitfield <dana.whitfield@example.com> (C-1001)');
  expect(last.context).toContain(
    'Tickets: T-1 cancellation A-1057 (done); T-2 refund A-1013 (done); T-3 escalation A-1021 (waiting-for-human)',
  );
  // Every tool result in every request comes with its call.
  for (const request of model.requests) {
    expect(request.messages[0].role).toBe('user');
    const calls = new Set(
      request.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])).map((c) => c.id),
    );
    for (const m of request.messages) if (m.role === 'tool') expect(calls.has(m.toolCallId)).toBe(true);
  }
});

test('the system prompt lists every skill; the context marks the active one', async () => {
  const { agent } = await playDemo();
  const request = agent.request();
  for (const name of ['account', 'orders', 'shipping', 'refunds', 'escalation']) {
    expect(request.system).toMatch(new RegExp(`^- ${name} — `, 'm'));
  }
  expect(request.system).toContain('Today is 2026-03-14.');
  expect(request.context).toMatch(
    /<skill name="orders">[\s\S]*<skill name="refunds">[\s\S]*<skill name="escalation" active="true">/,
  );
  expect(request.tools.map((t) => t.name)).toEqual([
    'read_skill',
    'lookup_order',
    'cancel_order',
    'check_refund',
    'escalate_to_human',
  ]);
});
