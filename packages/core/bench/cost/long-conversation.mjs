// A long conversation for the cost bench: an operations assistant of an online shop with 8 skills,
// played by a model that behaves like a real one (it reads a skill when its tools are missing,
// sometimes re-reads a loaded one, calls one to four tools per turn, sometimes two at once, and
// answers). Everything is seeded: every run, and every configuration, gets the same user messages,
// tool inputs, tool results and answers; only what the session does with them differs.
import { Fragment, createElement as h, useState } from 'react';
import { z } from 'zod';
import { Agent, createAgentStore, Instructions, Skill, Text, Tool, useAgentStore } from '../../dist/index.js';
import { random as prng } from '../random.mjs';

function seedOf(text) {
  let x = 2166136261;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 16777619);
  return x >>> 0;
}
const pick = (rnd, list) => list[Math.floor(rnd() * list.length)];
const int = (rnd, lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const money = (rnd, lo, hi) => Math.round((lo + rnd() * (hi - lo)) * 100) / 100;

const FIRST = ['Dana', 'Omar', 'Lena', 'Kenji', 'Priya', 'Mateo', 'Aisha', 'Tom', 'Sofia', 'Yusuf', 'Mia', 'Ravi'];
const LAST = ['Whitfield', 'Haddad', 'Novak', 'Sato', 'Iyer', 'Rojas', 'Bello', 'Byrne', 'Conti', 'Kaya'];
const PRODUCTS = [
  ['TR-220', 'Trail running shoes, size 42'],
  ['HP-ARC', 'Arc wireless headphones'],
  ['BK-017', 'Ceramic pour-over kettle'],
  ['JK-510', 'Packable rain jacket, M'],
  ['LM-003', 'Desk lamp with dimmer'],
  ['YG-MAT', 'Yoga mat, 6 mm'],
  ['BT-900', 'Insulated bottle, 750 ml'],
  ['SN-114', 'Merino socks, 3-pack'],
  ['CH-COF', 'Espresso beans, 1 kg'],
  ['BG-WKD', 'Weekend duffel bag'],
];
const CARRIERS = ['DHL', 'UPS', 'PostNL', 'DPD', 'GLS'];
const STATUSES = ['processing', 'shipped', 'delivered', 'cancelled', 'on hold'];

const orderId = (rnd) => `A-${int(rnd, 1000, 9999)}`;
const customerOf = (rnd) => {
  const first = pick(rnd, FIRST);
  const last = pick(rnd, LAST);
  return {
    id: `C-${int(rnd, 10000, 99999)}`,
    name: `${first} ${last}`,
    email: `${first}.${last}@example.com`.toLowerCase(),
  };
};
const date = (rnd) => `2025-${String(int(rnd, 1, 10)).padStart(2, '0')}-${String(int(rnd, 1, 28)).padStart(2, '0')}`;
const lines = (rnd) =>
  Array.from({ length: int(rnd, 1, 4) }, () => {
    const [sku, title] = pick(rnd, PRODUCTS);
    return { sku, title, quantity: int(rnd, 1, 3), unitPrice: money(rnd, 9, 240) };
  });
const order = (rnd, id = orderId(rnd)) => ({
  id,
  placedAt: date(rnd),
  status: pick(rnd, STATUSES),
  customer: customerOf(rnd),
  lines: lines(rnd),
  shipping: {
    method: pick(rnd, ['standard', 'express']),
    carrier: pick(rnd, CARRIERS),
    address: `${int(rnd, 1, 200)} Canal Street, Amsterdam`,
  },
  payment: { method: pick(rnd, ['card', 'paypal', 'invoice']), captured: rnd() > 0.2 },
});
const list = (rnd, lo, hi, make) => Array.from({ length: int(rnd, lo, hi) }, () => make(rnd));

/** The eight skills: instructions, a description, and tools with realistic schemas and results. */
const SKILLS = [
  {
    name: 'orders',
    description: 'Look up, search and change customer orders (address, items, cancellation before shipping)',
    instructions: [
      'Always confirm the order number back to the operator before changing anything.',
      'An order can be changed or cancelled only while its status is "processing".',
      'Quote amounts with currency and two decimals. Never invent order numbers.',
    ],
    tools: [
      [
        'lookup_order',
        'Get one order with its lines, customer, shipping and payment',
        { orderId: z.string().describe('Order number, e.g. A-1042') },
        (r, i) => order(r, i.orderId),
      ],
      [
        'search_orders',
        'Find orders by customer email and optional status; newest first',
        {
          email: z.string().describe('Customer email'),
          status: z.enum(['processing', 'shipped', 'delivered', 'cancelled']).optional(),
          limit: z.number().int().min(1).max(20).optional(),
        },
        (r) => ({
          results: list(r, 3, 8, (x) => {
            const o = order(x);
            return { id: o.id, placedAt: o.placedAt, status: o.status, total: money(x, 20, 600) };
          }),
        }),
      ],
      [
        'cancel_order',
        'Cancel an order that has not shipped; refunds the payment',
        { orderId: z.string(), reason: z.string().describe('Why, in the customer words') },
        (r, i) => ({
          orderId: i.orderId,
          cancelled: true,
          refund: { amount: money(r, 20, 400), currency: 'EUR', eta: '5 business days' },
        }),
      ],
      [
        'change_address',
        'Change the shipping address of an order that has not shipped',
        {
          orderId: z.string(),
          address: z.object({
            street: z.string(),
            city: z.string(),
            postcode: z.string(),
            country: z.string().length(2),
          }),
        },
        (_r, i) => ({ orderId: i.orderId, updated: true, address: i.address }),
      ],
    ],
  },
  {
    name: 'billing',
    description: 'Invoices, payments, duplicate charges and payment method problems',
    instructions: [
      'Duplicate charges: compare the captured payments with the order total before promising anything.',
      'Invoices are immutable; corrections are credit notes.',
      'Card details are never shown, only the last four digits.',
    ],
    tools: [
      [
        'get_invoice',
        'The invoice of an order: lines, VAT and totals',
        { orderId: z.string() },
        (r, i) => ({
          invoice: `INV-${int(r, 100000, 999999)}`,
          orderId: i.orderId,
          lines: lines(r),
          vat: { rate: 0.21, amount: money(r, 5, 80) },
          total: money(r, 20, 500),
          currency: 'EUR',
          issuedAt: date(r),
        }),
      ],
      [
        'list_payments',
        'Every payment attempt and capture for an order',
        { orderId: z.string() },
        (r, i) => ({
          orderId: i.orderId,
          payments: list(r, 1, 4, (x) => ({
            id: `PAY-${int(x, 1e5, 1e6)}`,
            at: `${date(x)}T${int(x, 10, 23)}:${int(x, 10, 59)}:00Z`,
            amount: money(x, 20, 500),
            status: pick(x, ['captured', 'authorized', 'failed', 'refunded']),
            card: `**** ${int(x, 1000, 9999)}`,
          })),
        }),
      ],
      [
        'issue_credit_note',
        'Credit part of an invoice',
        { invoice: z.string(), amount: z.number().positive(), reason: z.string() },
        (r, i) => ({ creditNote: `CN-${int(r, 1000, 9999)}`, invoice: i.invoice, amount: i.amount, status: 'issued' }),
      ],
      [
        'retry_payment',
        'Retry a failed payment on the customer card on file',
        { orderId: z.string() },
        (r, i) => ({
          orderId: i.orderId,
          status: pick(r, ['captured', 'declined']),
          declineCode: r() > 0.5 ? 'insufficient_funds' : null,
        }),
      ],
    ],
  },
  {
    name: 'shipping',
    description: 'Track parcels, carriers, delivery estimates and lost parcel claims',
    instructions: [
      'A parcel is lost only after 10 business days without a scan; before that, share the tracking.',
      'Express orders late by more than a day get the shipping fee back.',
    ],
    tools: [
      [
        'track_shipment',
        'Carrier, tracking number and scan history of an order parcel',
        { orderId: z.string() },
        (r, i) => ({
          orderId: i.orderId,
          carrier: pick(r, CARRIERS),
          tracking: `${pick(r, ['JD', '1Z', '3S'])}${int(r, 1e8, 1e9)}`,
          eta: date(r),
          scans: list(r, 2, 7, (x) => ({
            at: `${date(x)}T${int(x, 10, 23)}:00:00Z`,
            place: pick(x, [
              'Tilburg hub',
              'Utrecht depot',
              'Amsterdam sorting',
              'Out for delivery',
              'Customs Rotterdam',
            ]),
            status: pick(x, ['in transit', 'arrived', 'departed', 'delayed']),
          })),
        }),
      ],
      [
        'open_claim',
        'Open a lost or damaged parcel claim with the carrier',
        { orderId: z.string(), kind: z.enum(['lost', 'damaged']), note: z.string().optional() },
        (r, i) => ({
          claim: `CL-${int(r, 1000, 9999)}`,
          orderId: i.orderId,
          kind: i.kind,
          expectedAnswer: '3 business days',
        }),
      ],
      [
        'delivery_options',
        'Delivery options and prices for a postcode',
        { postcode: z.string(), country: z.string().length(2) },
        (r) => ({
          options: list(r, 2, 4, (x) => ({
            carrier: pick(x, CARRIERS),
            method: pick(x, ['standard', 'express', 'pickup point']),
            days: int(x, 1, 5),
            price: money(x, 0, 15),
          })),
        }),
      ],
    ],
  },
  {
    name: 'inventory',
    description: 'Stock levels, restock dates and reservations per product and warehouse',
    instructions: [
      'Stock numbers are per warehouse; sum them only when the operator asks for a total.',
      'Reservations expire after 48 hours.',
    ],
    tools: [
      [
        'stock_level',
        'Stock of a product per warehouse',
        { sku: z.string().describe('Product SKU, e.g. TR-220') },
        (r, i) => ({
          sku: i.sku,
          warehouses: ['AMS', 'RTM', 'BER', 'WAW'].map((w) => ({
            warehouse: w,
            onHand: int(r, 0, 400),
            reserved: int(r, 0, 40),
            incoming: int(r, 0, 200),
          })),
        }),
      ],
      [
        'restock_date',
        'The next restock of a product',
        { sku: z.string() },
        (r, i) => ({
          sku: i.sku,
          nextDelivery: date(r),
          quantity: int(r, 50, 500),
          supplier: pick(r, ['Nordic Outdoor BV', 'Kettle & Co', 'Arc Audio Ltd']),
        }),
      ],
      [
        'reserve_stock',
        'Reserve units of a product for a customer',
        { sku: z.string(), quantity: z.number().int().positive(), customerId: z.string() },
        (r, i) => ({ reservation: `R-${int(r, 1000, 9999)}`, ...i, expiresAt: `${date(r)}T18:00:00Z` }),
      ],
      [
        'search_products',
        'Search the catalog by words',
        { query: z.string(), inStockOnly: z.boolean().optional() },
        (r) => ({
          results: list(r, 3, 9, (x) => {
            const [sku, title] = pick(x, PRODUCTS);
            return { sku, title, price: money(x, 9, 240), rating: Math.round(x() * 20 + 30) / 10 };
          }),
        }),
      ],
    ],
  },
  {
    name: 'returns',
    description: 'Return requests, return labels, refunds for returned items',
    instructions: [
      'Returns are accepted within 30 days of delivery, unused and in the original packaging.',
      'Refund only after the warehouse has received the item, unless the customer is a VIP.',
      'Offer an exchange before a refund when the item is in stock.',
    ],
    tools: [
      [
        'check_return',
        'Whether an order line can be returned, and why not',
        { orderId: z.string(), sku: z.string() },
        (r, i) => ({
          ...i,
          eligible: r() > 0.3,
          deliveredAt: date(r),
          daysSinceDelivery: int(r, 1, 45),
          condition: pick(r, ['unopened', 'opened', 'unknown']),
        }),
      ],
      [
        'create_return_label',
        'A prepaid return label',
        { orderId: z.string(), sku: z.string(), carrier: z.enum(['DHL', 'PostNL']).optional() },
        (r, i) => ({ label: `https://labels.example.com/${int(r, 1e6, 1e7)}.pdf`, ...i, validUntil: date(r) }),
      ],
      [
        'refund_return',
        'Refund a returned line once received',
        { orderId: z.string(), sku: z.string(), amount: z.number().positive() },
        (r, i) => ({ refund: `RF-${int(r, 1000, 9999)}`, ...i, status: 'sent' }),
      ],
    ],
  },
  {
    name: 'accounts',
    description: 'Customer accounts: identify a customer, contact details, loyalty tier, GDPR requests',
    instructions: [
      'Identify the customer by email before anything else in this skill.',
      'GDPR export and deletion requests go through request_data_export or request_deletion only.',
    ],
    tools: [
      [
        'find_customer',
        'Find a customer by email or phone',
        { email: z.string().optional(), phone: z.string().optional() },
        (r) => ({
          ...customerOf(r),
          tier: pick(r, ['bronze', 'silver', 'gold', 'VIP']),
          since: date(r),
          orders: int(r, 1, 60),
          lifetimeValue: money(r, 20, 9000),
          marketingConsent: r() > 0.5,
        }),
      ],
      [
        'update_contact',
        'Update a customer email, phone or name',
        {
          customerId: z.string(),
          email: z.string().optional(),
          phone: z.string().optional(),
          name: z.string().optional(),
        },
        (_r, i) => ({ ...i, updated: true }),
      ],
      [
        'request_data_export',
        'Start a GDPR data export',
        { customerId: z.string() },
        (r, i) => ({ ...i, request: `GDPR-${int(r, 1000, 9999)}`, due: date(r) }),
      ],
      [
        'loyalty_history',
        'Loyalty points earned and spent',
        { customerId: z.string() },
        (r, i) => ({
          ...i,
          balance: int(r, 0, 5000),
          history: list(r, 3, 10, (x) => ({
            at: date(x),
            points: int(x, -500, 500),
            reason: pick(x, ['order', 'review', 'redeemed', 'birthday bonus', 'expired']),
          })),
        }),
      ],
    ],
  },
  {
    name: 'analytics',
    description: 'Sales and support reports: daily sales, top products, contact reasons',
    instructions: ['Reports are in UTC. Round percentages to one decimal.', 'Say which period a number covers.'],
    tools: [
      [
        'sales_report',
        'Sales per day for a period',
        { from: z.string().describe('YYYY-MM-DD'), to: z.string().describe('YYYY-MM-DD') },
        (r, i) => ({
          ...i,
          currency: 'EUR',
          days: list(r, 5, 14, (x) => ({
            day: date(x),
            orders: int(x, 80, 600),
            revenue: money(x, 4000, 60000),
            returns: int(x, 0, 40),
          })),
        }),
      ],
      [
        'top_products',
        'Best sellers of a period',
        { from: z.string(), to: z.string(), limit: z.number().int().max(20).optional() },
        (r, i) => ({
          ...i,
          products: list(r, 5, 10, (x) => {
            const [sku, title] = pick(x, PRODUCTS);
            return { sku, title, units: int(x, 20, 900), revenue: money(x, 500, 40000) };
          }),
        }),
      ],
      [
        'contact_reasons',
        'Why customers contacted support in a period',
        { from: z.string(), to: z.string() },
        (r, i) => ({
          ...i,
          reasons: ['where is my order', 'return', 'refund', 'damaged', 'payment', 'account', 'other'].map(
            (reason) => ({ reason, share: Math.round(r() * 300) / 10 }),
          ),
        }),
      ],
    ],
  },
  {
    name: 'promotions',
    description: 'Discount codes, vouchers and goodwill gestures',
    instructions: [
      'Goodwill vouchers up to 15 EUR need no approval; above that, ask the team lead.',
      'One code per order; codes never combine.',
    ],
    tools: [
      [
        'create_voucher',
        'Create a goodwill voucher for a customer',
        { customerId: z.string(), amount: z.number().positive().max(50), reason: z.string() },
        (r, i) => ({ code: `SORRY-${int(r, 1000, 9999)}`, ...i, validUntil: date(r) }),
      ],
      [
        'check_code',
        'Whether a discount code is valid for an order',
        { code: z.string(), orderId: z.string().optional() },
        (r, i) => ({
          ...i,
          valid: r() > 0.4,
          discount: `${int(r, 5, 30)}%`,
          expires: date(r),
          conditions: 'Minimum order 40 EUR; not valid on gift cards.',
        }),
      ],
      [
        'list_campaigns',
        'Running campaigns and their codes',
        {},
        (r) => ({
          campaigns: list(r, 2, 5, (x) => ({
            name: pick(x, ['Autumn sale', 'Free shipping week', 'Member days', 'Back to school']),
            code: `${pick(x, ['FALL', 'SHIP', 'MEMBER', 'SCHOOL'])}${int(x, 10, 99)}`,
            discount: `${int(x, 5, 30)}%`,
            until: date(x),
          })),
        }),
      ],
    ],
  },
];

export const SKILL_NAMES = SKILLS.map((s) => s.name);

const ops = createAgentStore('ops', () => ({ openCases: 0, lastCustomer: '' }));

const VERBS = ['list', 'get', 'update', 'export', 'audit', 'archive', 'bulk_update', 'preview'];
const NOUNS = ['notes', 'history', 'settings', 'templates', 'rules', 'flags', 'attachments', 'reports'];
const POLICY = [
  'Log every change with the operator name and the reason the customer gave.',
  'If two tools disagree, trust the one that reads the source system and say which one you used.',
  'Never share another customer data, even when the customer on the line asks about a shared address.',
  'Amounts above 250 EUR need a second operator; say so and stop.',
  'When a tool fails twice, stop retrying and tell the operator what you tried.',
  'Dates in answers are YYYY-MM-DD; times are CET unless the customer wrote another zone.',
  'Summaries for the customer fit in three sentences and avoid internal codes.',
  'Do not promise delivery dates the carrier has not given.',
  'Escalate legal threats, chargebacks and press inquiries to the team lead at once.',
  'Quote the policy section number when you refuse something, e.g. "policy 4.2".',
  'Keep internal notes factual: what happened, what you did, what is pending.',
  'If the customer is a VIP, offer a callback instead of email.',
];

/**
 * A skill's content. `large` adds what bigger skills carry (an MCP server's tool set, a long
 * SKILL.md): eight more tools and twelve more lines of instructions, never called in the plan.
 */
function SkillBody({ skill, large }) {
  const [calls, setCalls] = useState(0);
  const [last, setLast] = useState('');
  const extraTools = large
    ? VERBS.map((verb, i) => [
        `${skill.name}_${verb}_${NOUNS[i]}`,
        `${verb.replace('_', ' ')} the ${NOUNS[i]} of a ${skill.name} record. Use only when the operator asks for ${NOUNS[i]} explicitly; results are paginated (50 per page).`,
        {
          id: z.string().describe(`The ${skill.name} record id`),
          page: z.number().int().min(1).optional().describe('Page, from 1'),
          filter: z.string().optional().describe('Free-text filter, e.g. "created:>2025-01-01 author:sam"'),
          includeArchived: z.boolean().optional(),
        },
        (r, input) => ({ id: input.id, page: input.page ?? 1, items: [], total: Math.floor(r() * 100) }),
      ])
    : [];
  return h(
    Fragment,
    null,
    h(
      Instructions,
      null,
      [...skill.instructions, ...(large ? POLICY.map((line) => `${skill.name}: ${line}`) : [])].join('\n'),
    ),
    h(Text, null, `${skill.name}: ${calls} calls in this session${last ? `; last: ${last}` : ''}`),
    ...[...skill.tools, ...extraTools].map(([name, description, shape, result]) =>
      h(Tool, {
        key: name,
        name,
        description,
        input: z.object(shape),
        run: (input, ctx) => {
          setCalls((c) => c + 1);
          setLast(`${name} ${JSON.stringify(input).slice(0, 60)}`);
          if (input.customerId) ops.of(ctx).setState({ lastCustomer: input.customerId });
          if (name === 'open_claim' || name === 'issue_credit_note')
            ops.of(ctx).setState((s) => ({ openCases: s.openCases + 1 }));
          return JSON.stringify(result(prng(seedOf(`${name}${JSON.stringify(input)}`)), input));
        },
      }),
    ),
  );
}

function Status() {
  const openCases = useAgentStore(ops, (s) => s.openCases);
  const lastCustomer = useAgentStore(ops, (s) => s.lastCustomer);
  return h(Text, null, `Open cases this shift: ${openCases}. Last customer: ${lastCustomer || 'none yet'}.`);
}

/**
 * The agent: instructions, a status line, eight skills (`large`: bigger skills, see SkillBody), and
 * `children` after them.
 * Lifecycle settings come from the session options.
 */
export function OpsAgent({ large = false, children } = {}) {
  return h(
    Agent,
    null,
    h(
      Instructions,
      null,
      [
        'You are the operations assistant of Northwind Goods, an online shop in Amsterdam. You help the support',
        'team answer customers: you look things up, take actions the team asks for, and explain what you did.',
        'Work from tool results, never from memory: if you need a fact, call the tool that has it.',
        'Read the skill that owns a tool before you use it. Prefer one precise call to several broad ones.',
        'Before any action that changes an order, a payment or an account, say what you will do and why.',
        'Answer in short paragraphs. Quote order numbers, amounts with currency, and dates as YYYY-MM-DD.',
        'If a request is outside your skills, say so and suggest who in the team can help.',
      ].join('\n'),
    ),
    h(Text, null, 'Operator: Sam Okafor (team lead). Shift: 09:00–17:00 CET. Queue: email and chat.'),
    h(Status),
    ...SKILLS.map((skill) =>
      h(Skill, { key: skill.name, name: skill.name, description: skill.description }, h(SkillBody, { skill, large })),
    ),
    // What a bench adds beside the skills (the subagents bench: two <Subagent>s).
    children,
  );
}

/** An input for a tool, drawn from the tool's schema shape (strings get ids and emails that look real). */
function inputFor(rnd, shape) {
  const input = {};
  for (const [key, schema] of Object.entries(shape)) {
    const optional = schema.safeParse(undefined).success;
    if (optional && rnd() < 0.5) continue;
    const inner = optional ? schema.unwrap() : schema;
    if (key === 'orderId') input[key] = orderId(rnd);
    else if (key === 'email') input[key] = customerOf(rnd).email;
    else if (key === 'customerId') input[key] = customerOf(rnd).id;
    else if (key === 'sku') input[key] = pick(rnd, PRODUCTS)[0];
    else if (key === 'from' || key === 'to') input[key] = date(rnd);
    else if (key === 'address')
      input[key] = {
        street: `${int(rnd, 1, 300)} Prinsengracht`,
        city: 'Amsterdam',
        postcode: `10${int(rnd, 10, 99)} AB`,
        country: 'NL',
      };
    else if (inner.def?.type === 'number')
      input[key] = key === 'quantity' || key === 'limit' ? int(rnd, 1, 5) : money(rnd, 5, 45);
    else if (inner.def?.type === 'boolean') input[key] = rnd() < 0.5;
    else if (inner.def?.type === 'enum') input[key] = pick(rnd, inner.options);
    else if (key === 'invoice') input[key] = `INV-${int(rnd, 100000, 999999)}`;
    else if (key === 'code') input[key] = `FALL${int(rnd, 10, 99)}`;
    else if (key === 'country') input[key] = 'NL';
    else if (key === 'postcode') input[key] = `10${int(rnd, 10, 99)} AB`;
    else
      input[key] = pick(rnd, [
        'customer says the box was empty',
        'wrong size',
        'arrived damaged',
        'asked twice already',
        'goodwill after a late delivery',
      ]);
  }
  return input;
}

const ASK = [
  'Hi, can you help with this one? ',
  'Next customer: ',
  'Quick one: ',
  'The customer on chat asks: ',
  'From the email queue: ',
  '',
];
const THANKS = ['Thanks, that is all for this one.', 'Great, thank you!', 'Perfect.', 'OK, noted.'];

/**
 * The plan of a conversation of `turns` turns: per turn a user message, the skill it needs, the tool
 * calls (grouped into steps; a step may hold two calls), and the answer. Topic changes follow a
 * simple habit: stay on the current skill, go back to a recent one, or open another.
 */
export function planConversation(turns, seed = 14) {
  const rnd = prng(seed);
  const plan = [];
  let current = 0;
  const recent = [0];
  for (let t = 0; t < turns; t++) {
    if (t > 0 && rnd() < 0.1) {
      plan.push({
        user: pick(rnd, THANKS),
        skill: null,
        steps: [],
        reread: false,
        answer: 'You are welcome. I am here when the next one comes in.',
      });
      continue;
    }
    const r = rnd();
    if (t > 0 && r >= 0.5) {
      const others = recent.filter((s) => s !== current);
      current = r < 0.75 && others.length > 0 ? pick(rnd, others) : int(rnd, 0, SKILLS.length - 1);
    }
    recent.splice(recent.indexOf(current) >>> 0, recent.includes(current) ? 1 : 0);
    recent.push(current);
    if (recent.length > 4) recent.shift();
    const skill = SKILLS[current];
    const count = pick(rnd, [1, 1, 1, 2, 2, 2, 2, 3, 3, 4]);
    const calls = Array.from({ length: count }, () => {
      const [name, , shape] = pick(rnd, skill.tools);
      return { name, input: inputFor(rnd, shape) };
    });
    const steps = [];
    for (let i = 0; i < calls.length; i++) {
      if (i + 1 < calls.length && rnd() < 0.2) {
        steps.push({ text: 'Checking both at once.', calls: [calls[i], calls[i + 1]] });
        i++;
      } else
        steps.push({
          text: rnd() < 0.3 ? pick(rnd, ['Let me check.', 'One moment.', 'Looking that up now.']) : '',
          calls: [calls[i]],
        });
    }
    const first = calls[0];
    const user = `${pick(rnd, ASK)}${first.name.replace(/_/g, ' ')} for ${
      Object.values(first.input)
        .filter((v) => typeof v === 'string')
        .join(', ') || 'this week'
    }. ${pick(rnd, ['The customer is waiting on chat.', 'They wrote twice already.', 'Please be quick.', 'No rush.', ''])}`.trim();
    const answer = `Done. ${calls
      .map(
        (c) =>
          `${c.name.replace(/_/g, ' ')} (${Object.values(c.input)
            .filter((v) => typeof v !== 'object')
            .join(', ')})`,
      )
      .join(
        '; then ',
      )}. ${pick(rnd, ['Everything checks out; you can reply to the customer with the details above.', 'I summarised the result above. Tell me if you want me to take the next step.', 'One thing to watch: the numbers changed since the customer last wrote, so quote these, not theirs.', 'The customer can expect an email confirmation within the hour.'])}`;
    plan.push({ user, skill: skill.name, steps, reread: rnd() < 0.25, answer });
  }
  return plan;
}

/**
 * The model that plays a plan. At each request it looks at where the turn is: it reads the turn's
 * skill when that skill's tools are missing from the request (or, sometimes, re-reads a loaded one),
 * then makes the planned calls step by step, then answers.
 */
export function planModel(plan, toolsOf = (skill) => SKILLS.find((s) => s.name === skill).tools.map((t) => t[0])) {
  let turn = -1;
  let queue = [];
  return {
    name: 'bench:long-conversation',
    async generate(req) {
      const last = req.messages[req.messages.length - 1];
      if (last?.role === 'user') {
        turn++;
        const t = plan[turn];
        queue = [];
        if (t.skill) {
          const offered = new Set(req.tools.map((tool) => tool.name));
          const missing = !toolsOf(t.skill).every((name) => offered.has(name));
          if (missing || t.reread) queue.push({ text: '', calls: [{ name: 'read_skill', input: { name: t.skill } }] });
          queue.push(...t.steps);
        }
        queue.push({ text: t.answer, calls: [] });
      }
      const step = queue.shift() ?? { text: 'Done.', calls: [] };
      return {
        text: step.text,
        toolCalls: step.calls.map((c, i) => ({
          id: `toolu_${turn}_${queue.length}_${i}`,
          name: c.name,
          input: c.input,
        })),
        usage: { outputTokens: Math.ceil((step.text.length + JSON.stringify(step.calls).length) / 4) },
      };
    },
  };
}
