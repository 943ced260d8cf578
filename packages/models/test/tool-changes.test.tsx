/**
 * The skill lifecycle as Anthropic tool changes, on the wire: which models and windows get deltas,
 * what the body holds (typed against the SDK's beta types), when the beta header goes, and a test
 * server that refuses what the API refuses (a removed tool called, an addition that names no
 * deferred tool, a system message out of place).
 */
import type Anthropic from '@anthropic-ai/sdk';
import {
  Agent,
  createSession,
  Instructions,
  type Model,
  type ModelRequest,
  restoreSession,
  Skill,
  Text,
  Tool,
  textOf,
} from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anthropic,
  anthropicDeltaBody,
  INLINE_TOOLS_BETA,
  supportsToolChanges,
  TOOL_CHANGE_MODELS,
  TOOL_CHANGES_BETA,
  usesToolChanges,
} from '../src/anthropic.js';
import { anthropicProblem, betaHeader, checked } from './helpers/anthropic-rules.js';
import { Refunds, Track } from './helpers/long-conversation.js';
import { type Recorded, serverPerTest, sse } from './helpers/server.js';
import { anthropicEvents, type WireStep } from './helpers/wire.js';

const server = serverPerTest();

function Ops() {
  return (
    <Agent maxLoadedSkills={2}>
      <Instructions>You run operations.</Instructions>
      <Refunds />
      <Skill name="billing" description="Invoices">
        <Instructions>Invoices are monthly.</Instructions>
        <Text>Open invoices: 2</Text>
        <Tool name="send_invoice" description="Send" input={z.object({})} run={() => 'sent'} />
      </Skill>
      <Skill name="notes" description="House notes">
        <Instructions>Write dates as YYYY-MM-DD.</Instructions>
      </Skill>
      <Skill name="shipping" description="Shipments">
        <Track description="Track" />
      </Skill>
    </Agent>
  );
}

const read = (name: string, id: string): WireStep => ({ toolCalls: [{ id, name: 'read_skill', input: { name } }] });
const use = (name: string, id: string, input: unknown = {}): WireStep => ({ toolCalls: [{ id, name, input }] });

/** A session on the test server; every request is checked by the API's rules before it is answered. */
function session(
  steps: WireStep[],
  options: { model?: string; toolChanges?: boolean | 'auto'; inlineTools?: boolean } = {},
) {
  for (const step of steps) server.queue(checked(sse(anthropicEvents(step))));
  const model = anthropic({
    model: options.model ?? 'claude-opus-4-8',
    apiKey: 'sk-test',
    baseURL: server.url,
    toolChanges: options.toolChanges,
    inlineTools: options.inlineTools,
    initialRetryDelayMs: 1,
    maxRetries: 0,
  });
  return createSession(<Ops />, { model, windowMode: 'stable' });
}

const statuses = () => server.requests.map((r) => anthropicProblem(r.body, r.headers['anthropic-beta'] as string));
const systemMessages = (r: Recorded) => (r.body.messages as { role: string }[]).filter((m) => m.role === 'system');

describe("one place decides: toolChanges 'auto' follows the model table and the window", () => {
  const sample = (windowMode: 'sliding' | 'stable') => {
    const s = createSession(<Ops />, { windowMode });
    return s.request();
  };
  it.each(TOOL_CHANGE_MODELS.map((m) => [m]))('%s takes deltas with the stable window', (model) => {
    expect(supportsToolChanges(model)).toBe(true);
    expect(supportsToolChanges(`${model}-20260601`)).toBe(true);
    expect(usesToolChanges(sample('stable'), model, 'auto')).toBe(true);
    expect(usesToolChanges(sample('sliding'), model, 'auto')).toBe(false);
  });
  it.each([
    ['claude-sonnet-4-5'],
    ['claude-sonnet-5'],
    ['claude-haiku-4-5'],
    ['claude-opus-4-7'],
    ['claude-opus-4-8x'],
    ['gpt-5'],
  ])('%s keeps the classic layout', (model) => {
    expect(supportsToolChanges(model)).toBe(false);
    expect(usesToolChanges(sample('stable'), model, 'auto')).toBe(false);
  });
  it('true forces deltas (any window), false never sends them, and an agent without skills has none', () => {
    expect(usesToolChanges(sample('sliding'), 'claude-sonnet-4-5', true)).toBe(true);
    expect(usesToolChanges(sample('stable'), 'claude-opus-4-8', false)).toBe(false);
    const plain = createSession(
      <Agent>
        <Text>no skills</Text>
      </Agent>,
    ).request();
    expect(plain.lifecycle).toBeUndefined();
    expect(usesToolChanges(plain, 'claude-opus-4-8', true)).toBe(false);
  });
});

describe('the wire', () => {
  it('a load goes out as a system message after the read’s result: its text and a tool_addition of a deferred tool; the header only once a change is sent', async () => {
    const s = session([read('refunds', 't1'), use('refund_order', 't2', { id: '7' }), { text: 'Refunded.' }]);
    await s.send('refund order 7');
    expect(statuses()).toEqual([null, null, null]);
    const [first, second, third] = server.requests;
    expect(betaHeader({ headers: first.headers } as never)).toBeUndefined();
    expect(second.headers['anthropic-beta']).toBe(TOOL_CHANGES_BETA);
    expect(third.headers['anthropic-beta']).toBe(TOOL_CHANGES_BETA);
    expect(second.body.betas).toBeUndefined();
    // The tools' prefix never changes: the read tool, then the added tool deferred.
    expect(first.body.tools.map((t: { name: string }) => t.name)).toEqual(['read_skill']);
    expect(second.body.tools).toEqual([
      expect.objectContaining({ name: 'read_skill', cache_control: { type: 'ephemeral' } }),
      expect.objectContaining({ name: 'refund_order', defer_loading: true }),
    ]);
    expect(second.body.system).toEqual(first.body.system);
    const [load] = systemMessages(second);
    expect(load).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: expect.stringContaining('Refunds within 30 days.') },
        { type: 'tool_addition', tool: { type: 'tool_reference', name: 'refund_order' } },
      ],
    });
    // Every block the first request sent before its context is sent again, byte for byte (cache marks aside).
    const unmarked = (r: Recorded) =>
      JSON.stringify(r.body.messages[0].content[0], (k, v) => (k === 'cache_control' ? undefined : v));
    expect(unmarked(second)).toBe(unmarked(first));
  });

  it('an unload is a tool_removal; a later call of the removed tool is replayed valid and answered Unknown tool', async () => {
    const s = session([
      read('refunds', 't1'),
      read('billing', 't2'),
      read('shipping', 't3'),
      use('refund_order', 't4', { id: '1' }),
      { text: 'Sorry.' },
    ]);
    await s.send('go');
    expect(statuses()).toEqual([null, null, null, null, null]);
    const last = server.requests[4];
    const blocksOf = (m: { content: { type: string; tool?: { name: string } }[] }) =>
      m.content.filter((b) => b.type !== 'text').map((b) => `${b.type} ${b.tool?.name}`);
    expect(systemMessages(last).map((m) => blocksOf(m as never))).toEqual([
      ['tool_addition refund_order'],
      ['tool_addition send_invoice'],
      // The unload, the load, then the refused call's tool added right before the call…
      ['tool_removal refund_order', 'tool_addition track', 'tool_addition refund_order'],
      // …and removed again after its result.
      ['tool_removal refund_order'],
    ]);
    const refused = s.transcript.find((m) => m.role === 'tool' && m.name === 'refund_order');
    expect(refused && textOf(refused)).toMatch(/^Unknown tool: refund_order \(skill "refunds" is not loaded/);
  });

  it('inline tools define the addition by value: no deferred tools, the inline beta', async () => {
    const s = session([read('billing', 't1'), { text: 'ok' }], { inlineTools: true });
    await s.send('invoices');
    expect(statuses()).toEqual([null, null]);
    const second = server.requests[1];
    expect(second.headers['anthropic-beta']).toBe(INLINE_TOOLS_BETA);
    expect(second.body.tools.map((t: { name: string }) => t.name)).toEqual(['read_skill']);
    expect(systemMessages(second)[0]).toMatchObject({
      content: [
        { type: 'text' },
        { type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'send_invoice' } } },
      ],
    });
  });

  it('a load of a skill without tools is a system message with text only: no beta header', async () => {
    const s = session([read('notes', 't1'), { text: 'ok' }]);
    await s.send('dates?');
    expect(statuses()).toEqual([null, null]);
    expect(server.requests[1].headers['anthropic-beta']).toBeUndefined();
    expect(systemMessages(server.requests[1])).toEqual([
      { role: 'system', content: [{ type: 'text', text: expect.stringContaining('Write dates as YYYY-MM-DD.') }] },
    ]);
  });

  it("a model without tool changes ('auto') gets the classic body: no system messages, no header", async () => {
    const s = session([read('refunds', 't1'), { text: 'ok' }], { model: 'claude-sonnet-4-5' });
    await s.send('x');
    expect(server.requests[1].headers['anthropic-beta']).toBeUndefined();
    expect(systemMessages(server.requests[1])).toEqual([]);
    expect(server.requests[1].body.tools.map((t: { name: string }) => t.name)).toEqual(['read_skill', 'refund_order']);
  });

  it('a restored session sends the same body as the one it was taken from', async () => {
    const s = session([read('refunds', 't1'), read('billing', 't2'), { text: 'ok' }]);
    await s.send('x');
    const original = anthropicDeltaBody(s.request(), { model: 'claude-opus-4-8' });
    const restored = restoreSession(<Ops />, JSON.stringify(s.snapshot()), { windowMode: 'stable' });
    expect(JSON.stringify(anthropicDeltaBody(restored.request(), { model: 'claude-opus-4-8' }))).toBe(
      JSON.stringify(original),
    );
  });
});

describe('the body type-checks against the SDK’s beta types', () => {
  it('a load, typed as the SDK’s beta params, is exactly what the adapter builds', async () => {
    const steps = [read('refunds', 't1'), { text: 'ok' }];
    let seen: ModelRequest | undefined;
    const scripted: Model = {
      async generate(req) {
        seen = req;
        const step = steps.shift() as WireStep;
        return { text: step.text ?? '', toolCalls: step.toolCalls ?? [] };
      },
    };
    const s = createSession(<Ops />, { model: scripted, windowMode: 'stable' });
    await s.send('refund');
    const req = seen as ModelRequest;
    const expected = {
      model: 'claude-opus-4-8',
      max_tokens: 4096,
      betas: [TOOL_CHANGES_BETA],
      system: [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }],
      tools: [
        {
          name: 'read_skill',
          description: req.tools[0].description,
          input_schema: req.tools[0].inputSchema as never,
          cache_control: { type: 'ephemeral' },
        },
        { name: 'refund_order', description: 'Refund', input_schema: expect.any(Object), defer_loading: true },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'refund' }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 't1',
              name: 'read_skill',
              input: { name: 'refunds' },
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: expect.any(String),
              cache_control: { type: 'ephemeral' },
            },
            { type: 'text', text: expect.stringContaining('<current_context>') },
          ],
        },
        {
          role: 'system',
          content: [
            { type: 'text', text: expect.stringContaining('Skill "refunds" loaded') },
            { type: 'tool_addition', tool: { type: 'tool_reference', name: 'refund_order' } },
          ],
        },
      ],
    } satisfies Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
    const built = anthropicDeltaBody(req, { model: 'claude-opus-4-8' });
    expect(built).toEqual(expected);
  });
});

describe('the test server refuses what the API refuses', () => {
  const base = {
    model: 'claude-opus-4-8',
    max_tokens: 10,
    tools: [
      { name: 'read_skill', input_schema: { type: 'object' } },
      { name: 'refund_order', input_schema: { type: 'object' }, defer_loading: true },
    ],
  };
  const add = {
    role: 'system',
    content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'refund_order' } }],
  };
  const remove = {
    role: 'system',
    content: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'refund_order' } }],
  };
  const user = { role: 'user', content: 'hi' };
  const callRefund = { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'refund_order', input: {} }] };
  const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] };
  const problem = (messages: unknown[], beta = TOOL_CHANGES_BETA, extra: object = {}) =>
    anthropicProblem({ ...base, ...extra, messages }, beta);

  it('accepts a valid sequence', () => {
    expect(problem([user, add, callRefund, result, remove])).toBeNull();
  });
  it('refuses a call of a removed tool', () => {
    expect(problem([user, add, { role: 'assistant', content: 'ok' }, user, remove, callRefund, result])).toMatch(
      /not available/,
    );
  });
  it('refuses an addition that names no deferred tool', () => {
    const tools = [
      { name: 'read_skill', input_schema: {} },
      { name: 'refund_order', input_schema: {} },
    ];
    expect(problem([user, add], TOOL_CHANGES_BETA, { tools })).toMatch(/defer_loading/);
  });
  it('refuses tool changes before a user message, between a call and its result, first, or without the beta', () => {
    expect(problem([user, add, user])).toMatch(/must precede an 'assistant' message or end the array/);
    expect(problem([user, callRefund, add, result])).toMatch(/between a tool_use/);
    expect(problem([add, user])).toMatch(/top-level 'system'/);
    expect(problem([user, add], '')).toMatch(/beta/);
    expect(anthropicProblem({ ...base, model: 'claude-sonnet-4-5', messages: [user, add] }, TOOL_CHANGES_BETA)).toMatch(
      /not supported on this model/,
    );
  });
});

describe('the AI SDK bridge passes the deltas through @ai-sdk/anthropic’s toolChanges', () => {
  it('a real @ai-sdk/anthropic provider sends a load as a tool_addition of a deferred tool, accepted by the rules', async () => {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    const { aiSdk } = await import('../src/ai-sdk.js');
    for (const step of [read('refunds', 't1'), read('billing', 't2'), read('shipping', 't3'), { text: 'ok' }]) {
      server.queue(checked(sse(anthropicEvents(step))));
    }
    const provider = createAnthropic({ apiKey: 'sk-test', baseURL: `${server.url}/v1` });
    const s = createSession(<Ops />, {
      model: aiSdk(provider('claude-opus-4-8'), { maxRetries: 0 }),
      windowMode: 'stable',
    });
    await s.send('go');
    expect(statuses()).toEqual([null, null, null, null]);
    const last = server.requests[3];
    expect(String(last.headers['anthropic-beta'])).toContain(TOOL_CHANGES_BETA);
    expect(
      last.body.tools.map(
        (t: { name: string; defer_loading?: boolean }) => `${t.name}${t.defer_loading ? ' (deferred)' : ''}`,
      ),
    ).toEqual(['read_skill', 'refund_order (deferred)', 'send_invoice (deferred)', 'track (deferred)']);
    const changes = systemMessages(last).map((m) =>
      (m as unknown as { content: { type: string; tool?: { name: string } }[] }).content
        .filter((b) => b.type !== 'text')
        .map((b) => `${b.type} ${b.tool?.name}`),
    );
    expect(changes).toEqual([
      ['tool_addition refund_order'],
      ['tool_addition send_invoice'],
      ['tool_removal refund_order', 'tool_addition track'],
    ]);
  });

  it('another provider gets the classic layout (flattened): no system messages inside the prompt', async () => {
    const { aiSdkCallOptions, aiSdkUsesToolChanges } = await import('../src/ai-sdk.js');
    const s = createSession(<Ops />, { windowMode: 'stable' });
    await s.readSkill('refunds');
    const req = s.request();
    expect(aiSdkUsesToolChanges(req, { provider: 'openai.responses', modelId: 'gpt-5' })).toBe(false);
    expect(aiSdkUsesToolChanges(req, { provider: 'anthropic.messages', modelId: 'claude-opus-4-8' })).toBe(true);
    // @ai-sdk/anthropic 2.x has no toolChanges: classic.
    const v2 = { provider: 'anthropic.messages', modelId: 'claude-opus-4-8', specificationVersion: 'v2' };
    expect(aiSdkUsesToolChanges(req, v2, true)).toBe(false);
    const call = aiSdkCallOptions(req, {});
    expect(call.prompt.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(call.tools?.map((t) => t.name)).toEqual(['read_skill', 'refund_order']);
  });
});
