/**
 * The support desk, evaluated: does the model read the right skills for five customer requests,
 * make the right calls and finish the job, and what does it cost? Three variants side by side:
 * the shipped catalog, a terse one (same skills, fewer words), and everything loaded up front.
 *
 * Offline (CI) it runs on a stand-in model that picks skills by the words of their descriptions;
 * with a key, on a real one:
 *   pnpm skilltree eval examples/support-desk/evals/support-desk.eval.tsx --model anthropic:claude-haiku-4-5
 */
import { defineEval } from '@skilltree/evals';
import type { DeskState } from '../src/store.js';
import { SupportDesk } from '../src/support-desk.js';
import { offlineModel, type Plan } from './offline-model.js';

const DANA = 'dana.whitfield@example.com';
const identify = { name: 'identify_customer', input: { email: DANA } };
const hasTicket = (kind: string, orderId: string) => (s: DeskState) =>
  s.tickets.some((t) => t.kind === kind && t.orderId === orderId) || `no ${kind} ticket for ${orderId}`;
const summary = (results: string[]) => `Here is what I did:\n${results.join('\n')}`;

const PLANS: Record<string, Plan> = {
  'where is my parcel': {
    calls: [identify, { name: 'track_shipment', input: { orderId: 'A-1042' } }],
    reply: summary,
  },
  'cancel an order': {
    calls: [identify, { name: 'cancel_order', input: { orderId: 'A-1057', reason: 'wrong size' } }],
    reply: summary,
  },
  'refund broken headphones': {
    calls: [
      identify,
      { name: 'check_refund', input: { orderId: 'A-1013' } },
      { name: 'issue_refund', input: { orderId: 'A-1013', amount: 79, reason: 'stopped charging' } },
    ],
    reply: summary,
  },
  'double charge, to a person': {
    calls: [
      identify,
      {
        name: 'escalate_to_human',
        input: {
          summary: 'Dana Whitfield was charged twice for order A-1021 and asks for a person.',
          priority: 'high',
          orderId: 'A-1021',
        },
      },
    ],
    reply: summary,
  },
  'thanks, bye': { calls: [], reply: () => "You're welcome, have a good day!" },
};

/** The same skills in fewer words. */
const TERSE = {
  account: 'Customers',
  orders: 'Orders',
  shipping: 'Parcels',
  refunds: 'Money back',
  escalation: 'Humans',
};

export default defineEval({
  name: 'support desk',
  agent: <SupportDesk />,
  model: offlineModel(PLANS),
  price: 'claude-haiku-4-5',
  cases: [
    {
      name: 'where is my parcel',
      messages: `Hi, I'm ${DANA}. Please track my parcel A-1042: when is the delivery expected?`,
      expect: {
        reads: ['account', 'shipping'],
        toolCalls: ['identify_customer', { name: 'track_shipment', input: { orderId: 'A-1042' } }],
        text: 'Royal Post',
      },
    },
    {
      name: 'cancel an order',
      messages: `This is ${DANA}. Cancel A-1057 please, it has not shipped.`,
      expect: {
        reads: ['account', 'orders'],
        toolCalls: ['identify_customer', { name: 'cancel_order', input: { orderId: 'A-1057' } }],
        notCalled: ['issue_refund'],
        stores: { 'support-desk': hasTicket('cancellation', 'A-1057') },
      },
    },
    {
      name: 'refund broken headphones',
      messages: `${DANA} here: the Arc headphones from A-1013 stopped charging. I'd like a refund.`,
      expect: {
        reads: ['account', 'refunds'],
        toolCalls: [
          'identify_customer',
          { name: 'check_refund', input: { orderId: 'A-1013' } },
          { name: 'issue_refund', input: { orderId: 'A-1013', amount: (n: number) => n > 0 && n <= 79 } },
        ],
        text: /Refunded \$\d+\.\d\d for A-1013/,
        stores: { 'support-desk': hasTicket('refund', 'A-1013') },
      },
    },
    {
      name: 'double charge, to a person',
      messages: `${DANA}: I was charged twice for A-1021. I want to talk to a human.`,
      expect: {
        reads: ['account', 'escalation'],
        mayRead: ['orders'],
        toolCalls: ['identify_customer', { name: 'escalate_to_human', input: { priority: 'high' } }],
        stores: { 'support-desk': hasTicket('escalation', 'A-1021') },
      },
    },
    {
      name: 'thanks, bye',
      messages: "Thanks, that's all for today!",
      expect: { reads: [], notRead: 'others', toolCalls: [], order: 'exact' },
    },
  ],
  variants: [
    { name: 'shipped' },
    { name: 'terse', agent: <SupportDesk descriptions={TERSE} /> },
    { name: 'all-loaded', preload: 'all' },
  ],
  thresholds: ['selection.recall@shipped >= 0.9', 'success@shipped >= 0.8'],
});
