/**
 * The scripted conversation the CLI plays when no API key is set (`pnpm start`), and that the
 * end-to-end test replays. The scripted model stands in for a real one: several steps are
 * functions of the request, so they answer from what the tools returned, and they fail loudly if
 * the agent stops behaving the way the script expects.
 *
 * What it exercises:
 * - reading skills, and LRU eviction: five skills are read with `maxLoadedSkills` 3, so `account`
 *   and then `shipping` are unloaded (their `contextChanged` lines stay in the transcript);
 * - `Unknown tool` recovery: the model calls `cancel_order` before reading `orders`, reads the
 *   error, reads the skill, and retries;
 * - a conditional tool: `issue_refund` exists only after `check_refund` found the order eligible;
 * - the store: the customer identified by `account` stays known after `account` unloads;
 * - the transcript window: by the last turn the first two turns have left the request, and the
 *   model answers from `<current_context>`, which is outside the cap.
 */
import {
  lastToolResult,
  type ModelRequest,
  type ScriptedResponse,
  type ScriptedStep,
  scriptedModel,
  textOf,
} from '@skilltree/core';

export const DEMO_MESSAGES = [
  "Hi! I'm dana.whitfield@example.com. My order A-1042 still hasn't arrived, where is it?",
  'Actually, could you cancel A-1057? I ordered the wrong size of running shoes.',
  'Thanks. The Arc headphones from A-1013 stopped charging after a week. Can I get my money back?',
  "One more thing: I was charged twice for A-1021. I'd like to talk to a person about that.",
  'Great, thank you! Which tickets do I have now?',
];

/** The last tool result, which must match `pattern`; returns the match. */
function expectResult(req: ModelRequest, pattern: RegExp): RegExpMatchArray {
  const message = lastToolResult(req);
  const match = textOf(message).match(pattern);
  if (!match) {
    throw new Error(
      `demo script: expected the result of ${message.name} to match ${pattern}, got:\n${textOf(message)}`,
    );
  }
  return match;
}

const call = (name: string, input: Record<string, unknown>): ScriptedResponse => ({ toolCalls: [{ name, input }] });

export const DEMO_STEPS: ScriptedStep[] = [
  // 1. Where is my order? account → identify → shipping → track.
  { text: 'Let me find your account first.', toolCalls: [{ name: 'read_skill', input: { name: 'account' } }] },
  call('identify_customer', { email: 'dana.whitfield@example.com' }),
  call('read_skill', { name: 'shipping' }),
  call('track_shipment', { orderId: 'A-1042' }),
  (req) => {
    const [, carrier, tracking] = expectResult(req, /^A-1042: (.+?), tracking (\w+)/);
    const [, eta, onTime] = expectResult(req, /Expected (\S+): (on time|\d+ days late)/);
    return {
      text: `Thanks, Dana. A-1042 is on its way with ${carrier} (tracking ${tracking}) and is expected on ${eta}, ${onTime}.`,
    };
  },

  // 2. Cancel: the model calls cancel_order before reading the orders skill.
  call('cancel_order', { orderId: 'A-1057', reason: 'wrong size' }),
  (req) => {
    const result = lastToolResult(req);
    if (!result.isError || !textOf(result).startsWith('Unknown tool')) {
      throw new Error(`demo script: expected "Unknown tool" for cancel_order, got: ${textOf(result)}`);
    }
    return {
      text: 'I need the orders skill for that.',
      toolCalls: [{ name: 'read_skill', input: { name: 'orders' } }],
    };
  },
  call('cancel_order', { orderId: 'A-1057', reason: 'wrong size' }),
  (req) => {
    const [, id, amount] = expectResult(req, /^Cancelled (\S+)\. The (\$\d+\.\d{2}) payment/);
    return { text: `Done: ${id} is cancelled, and the ${amount} goes back to your card within 5 business days.` };
  },

  // 3. Refund: check first; issue_refund appears only for an eligible order.
  call('read_skill', { name: 'refunds' }),
  call('check_refund', { orderId: 'A-1013' }),
  (req) => {
    const [, amount] = expectResult(req, /eligible for a refund of up to \$(\d+\.\d{2})/);
    if (!req.tools.some((t) => t.name === 'issue_refund')) {
      throw new Error('demo script: issue_refund should be offered once A-1013 is found eligible.');
    }
    return call('issue_refund', {
      orderId: 'A-1013',
      amount: Number(amount),
      reason: 'headphones stopped charging after a week',
    });
  },
  (req) => {
    const [, amount, id, ticket] = expectResult(req, /^Refunded (\$\d+\.\d{2}) for (\S+) \(ticket (T-\d+)\)/);
    return {
      text: `I'm sorry about the headphones. I've refunded ${amount} for ${id} (ticket ${ticket}); it reaches you in 5 to 10 business days.`,
    };
  },

  // 4. Escalate: orders is still loaded, so lookup_order works while escalation is active.
  call('read_skill', { name: 'escalation' }),
  call('lookup_order', { orderId: 'A-1021' }),
  (req) => {
    const [, charged, total] = expectResult(req, /charged (\$\d+\.\d{2}) for a (\$\d+\.\d{2}) order/);
    const customer = req.context.match(/Customer: ([^<\n]+) </)?.[1] ?? 'the customer';
    return call('escalate_to_human', {
      summary: `${customer} was charged ${charged} for order A-1021, whose total is ${total} (duplicate charge). Earlier today we cancelled A-1057 and refunded A-1013. She wants the duplicate charge returned and asked to talk to a person.`,
      priority: 'high',
      orderId: 'A-1021',
    });
  },
  (req) => {
    const [, ticket] = expectResult(req, /^Escalated as (T-\d+)/);
    return {
      text: `I've passed this to our team as ${ticket}, high priority. Someone will email you within 4 business hours.`,
    };
  },

  // 5. The first turns have left the window; the tickets line in <current_context> has not.
  (req) => {
    const line = req.context.match(/Tickets: (.+)/)?.[1];
    if (!line) throw new Error('demo script: expected a Tickets line in <current_context>.');
    const tickets = line.split('; ').map((t) => `- ${t}`);
    return { text: `Here is everything from today:\n${tickets.join('\n')}` };
  },
];

export const demo = {
  messages: DEMO_MESSAGES,
  model: () => scriptedModel(DEMO_STEPS),
};
