/**
 * Rule: requests are cache-aware. Between consecutive steps of a tool loop the bytes that a provider
 * caches stay identical: for Anthropic the tools, the system prompt and the messages up to the last
 * `cache_control` breakpoint of the earlier request (the breakpoint markers themselves are not part
 * of the cache key and move with the conversation); for OpenAI, which caches prefixes on its own,
 * the tools and every byte of the request before the context. The context changes between the
 * steps and never sits inside the cached prefix.
 */
import {
  Agent,
  createAgentStore,
  createSession,
  Instructions,
  type Model,
  Text,
  Tool,
  useAgentStore,
} from '@skilltree/core';
import type { ContextPlacement } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropic } from '../src/anthropic.js';
import { openai } from '../src/openai.js';
import { streamedOrNot } from './helpers/generate-only.js';
import { json, type Recorded, serverPerTest, sse } from './helpers/server.js';
import { anthropicEvents, anthropicMessage, openaiChunks, openaiCompletion, type WireStep } from './helpers/wire.js';

const server = serverPerTest();

const cart = createAgentStore('cart', () => ({ items: [] as string[] }));

/** The context shows the cart, so every add_to_cart changes it between steps. */
function Shop() {
  const items = useAgentStore(cart, (s) => s.items);
  return (
    <Agent>
      <Instructions>You are a shop assistant. Add what the user asks for, one call per item.</Instructions>
      <Text>Cart: {items.join(', ') || 'empty'}</Text>
      <Tool
        name="search"
        description="Search the catalog"
        input={z.object({ query: z.string(), limit: z.number().optional() })}
        run={({ query }) => `found ${query}`}
      />
      <Tool
        name="add_to_cart"
        description="Add an item"
        input={z.object({ sku: z.string(), quantity: z.number().optional() })}
        run={({ sku }, ctx) => {
          cart.of(ctx).setState((s) => ({ items: [...s.items, sku] }));
          return `added ${sku}`;
        }}
      />
    </Agent>
  );
}

/** model → tool call → model → two tool calls → model. */
const LOOP: WireStep[] = [
  { toolCalls: [{ id: 'toolu_1', name: 'add_to_cart', input: { sku: 'lamp', quantity: 1 } }] },
  {
    text: 'Now the rest.',
    toolCalls: [
      { id: 'toolu_2', name: 'search', input: { query: 'desk', limit: 3 } },
      { id: 'toolu_3', name: 'add_to_cart', input: { quantity: 2, sku: 'desk' } },
    ],
  },
  { text: 'Your cart: lamp, desk.' },
];

async function runLoop(model: Model, contextPlacement: ContextPlacement): Promise<Recorded[]> {
  const session = createSession(<Shop />, { model, contextPlacement });
  try {
    expect((await session.send('A lamp and a desk, please.')).text).toBe('Your cart: lamp, desk.');
  } finally {
    session.dispose();
  }
  expect(server.requests).toHaveLength(LOOP.length);
  return server.requests;
}

/** A copy without `cache_control` keys: the markers are not part of what Anthropic caches. */
function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarked);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, v]) => [key, unmarked(v)]),
  );
}

type Turn = { role: string; content: Record<string, unknown>[] };

/** Every breakpoint in the messages, as [turn, block]. */
function marks(messages: Turn[]): [number, number][] {
  return messages.flatMap((turn, t) =>
    turn.content.flatMap((block, b) => (block.cache_control ? [[t, b] as [number, number]] : [])),
  );
}

/** The messages up to and including block `b` of turn `t`, serialised without breakpoint markers. */
function prefixBytes(messages: Turn[], [t, b]: [number, number]): string {
  const head = messages.slice(0, t);
  const last = { role: messages[t].role, content: messages[t].content.slice(0, b + 1) };
  return JSON.stringify(unmarked([...head, last]));
}

describe.each(['end', 'system'] as const)('cache-aware Anthropic requests (contextPlacement %s)', (placement) => {
  for (const stream of [true, false]) {
    it(`${stream ? 'stream' : 'generate'}: tools, system and messages up to the last breakpoint are byte-identical at the next step`, async () => {
      server.queue(...LOOP.map((step) => (stream ? sse(anthropicEvents(step)) : json(200, anthropicMessage(step)))));
      const model = anthropic({ model: 'claude-test', apiKey: 'k', baseURL: server.url });
      const requests = await runLoop(streamedOrNot(model, stream), placement);

      for (let step = 0; step + 1 < requests.length; step++) {
        const [before, after] = [requests[step], requests[step + 1]];
        // The bytes on the wire carry the tools and system exactly as serialised here.
        expect(before.raw).toContain(JSON.stringify(before.body.tools));
        expect(JSON.stringify(after.body.tools)).toBe(JSON.stringify(before.body.tools));
        // The system prompt's breakpoint is on its first block ('system' placement: the context follows).
        expect(before.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
        expect(JSON.stringify(after.body.system[0])).toBe(JSON.stringify(before.body.system[0]));
        expect(before.body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });

        const points = marks(before.body.messages);
        expect(points.length).toBeGreaterThan(0);
        // Anthropic takes at most four breakpoints: tools, system, and two in the messages.
        expect(points.length + 2).toBeLessThanOrEqual(4);
        const last = points[points.length - 1];
        const cached = prefixBytes(before.body.messages, last);
        expect(prefixBytes(after.body.messages, last)).toBe(cached);
        expect(cached).not.toContain('current_context');
      }

      // The test means something only if the context did change between the steps.
      const contexts = requests.map((r) => r.raw.match(/<current_context>\\n<agent>\\nCart: ([a-z, ]+)/)?.[1]);
      expect(contexts).toEqual(['empty', 'lamp', 'lamp, desk']);
    });
  }

  it('breakpoint 4 sits on the newest block before the context, so step n+1 reads what step n wrote', async () => {
    server.queue(...LOOP.map((step) => sse(anthropicEvents(step))));
    const requests = await runLoop(anthropic({ model: 'claude-test', apiKey: 'k', baseURL: server.url }), placement);
    const second = requests[1].body.messages as Turn[];
    const newest = marks(second).at(-1) as [number, number];
    // In step 2 the newest stable block is the result of step 1's tool call.
    expect(second[newest[0]].content[newest[1]]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    if (placement === 'end') {
      // …and the context follows it as a block of its own, with no breakpoint.
      const context = second[newest[0]].content[newest[1] + 1];
      expect(context).toEqual({ type: 'text', text: expect.stringMatching(/^\n\n<current_context>/) });
    }
  });

  it('cache: false sends no breakpoint at any step', async () => {
    server.queue(...LOOP.map((step) => sse(anthropicEvents(step))));
    const model = anthropic({ model: 'claude-test', apiKey: 'k', baseURL: server.url, cache: false });
    for (const request of await runLoop(model, placement)) expect(request.raw).not.toContain('cache_control');
  });
});

describe.each(['end', 'system'] as const)('cache-aware OpenAI requests (contextPlacement %s)', (placement) => {
  for (const stream of [true, false]) {
    it(`${stream ? 'stream' : 'generate'}: every byte before the context is a prefix of the next step's request, tools identical`, async () => {
      server.queue(...LOOP.map((step) => (stream ? sse(openaiChunks(step)) : json(200, openaiCompletion(step)))));
      const model = openai({ model: 'gpt-test', api: 'chat', apiKey: 'k', baseURL: `${server.url}/v1` });
      const requests = await runLoop(streamedOrNot(model, stream), placement);

      for (let step = 0; step + 1 < requests.length; step++) {
        const [before, after] = [requests[step], requests[step + 1]];
        expect(JSON.stringify(after.body.tools)).toBe(JSON.stringify(before.body.tools));
        if (placement === 'end') {
          // The raw body up to the context (JSON-escaped) is where OpenAI's automatic cache can hit.
          const cut = before.raw.indexOf('\\n\\n<current_context>');
          expect(cut).toBeGreaterThan(0);
          expect(after.raw.slice(0, cut)).toBe(before.raw.slice(0, cut));
        } else {
          // The context is in the system message: everything after it stays identical.
          const messages = before.body.messages.slice(1);
          expect(after.body.messages.slice(1, messages.length + 1)).toEqual(messages);
        }
      }
    });
  }
});
