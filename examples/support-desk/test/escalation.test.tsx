import { describe, expect, test } from 'vitest';
import { desk } from '../src/store.js';
import { changes, identifyDana, ok, read, renderDesk, text } from './helpers.js';

const summary =
  'Dana Whitfield was charged $200.00 for A-1021 (total $100.00). She wants the duplicate charge returned.';

describe('escalation skill', () => {
  test('escalate_to_human opens a ticket carrying the summary and the customer', async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'escalation');
    const result = await agent.callTool('escalate_to_human', { summary, priority: 'high', orderId: 'a-1021' });
    expect(ok(result)).toMatch(
      /^Escalated as T-1 \(high\)\. A person from the support team will email dana\.whitfield@example\.com within 4 business hours\./,
    );
    expect(changes(result)).toEqual([
      'contextChanged agent added: Tickets: T-1 escalation A-1021 (waiting-for-human)',
      'contextChanged escalation added: Waiting for a human: T-1 (high)',
    ]);
    expect(agent.session.store(desk).getState().tickets).toEqual([
      {
        id: 'T-1',
        kind: 'escalation',
        orderId: 'A-1021',
        summary: `For Dana Whitfield <dana.whitfield@example.com>: ${summary}`,
        status: 'waiting-for-human',
        priority: 'high',
      },
    ]);
  });

  test('works for a customer who was not identified', async () => {
    const { agent } = renderDesk();
    await read(agent, 'escalation');
    const result = await agent.callTool('escalate_to_human', {
      summary: 'Caller cannot access their email and wants to change the account owner.',
      priority: 'normal',
    });
    expect(ok(result)).toMatch(/^Escalated as T-1 \(normal\)\. .* email the customer within 2 business days\./);
    expect(agent.session.store(desk).getState().tickets[0].summary).toMatch(/^For an unidentified customer: /);
  });

  test('a one-word summary or an unknown priority is refused, naming the fields', async () => {
    const { agent } = renderDesk();
    await read(agent, 'escalation');
    const result = await agent.callTool('escalate_to_human', { summary: 'help', priority: 'urgent' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/summary: .*; priority: /);
    expect(agent.session.store(desk).getState().tickets).toEqual([]);
  });
});
