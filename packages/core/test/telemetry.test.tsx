/**
 * Traces, checked with the real OpenTelemetry SDK (`@opentelemetry/sdk-trace-base` and its in-memory
 * exporter): the tree of spans a conversation makes, their GenAI and skilltree attributes, error
 * status, and that content is recorded only when asked for.
 */
import { context, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSession,
  createSessions,
  estimateCost,
  Instructions,
  type Model,
  type ModelRequest,
  type SessionOptions,
  Skill,
  scriptedModel,
  Tool,
} from '../src/index.js';
import { type ModelCallOptions, modelIdentity } from '../src/provider.js';
import { type SpanOrder, shutDownTracing, tracing } from './tracing.js';

const SECRET = 'my card is 4111-1111';

function ShopAgent() {
  return (
    <Agent maxLoadedSkills={1}>
      <Instructions>You run a shop. Internal note: discount code ZEBRA.</Instructions>
      <Skill name="shopping" description="Find and buy products">
        <Instructions>Search before you add.</Instructions>
        <Tool
          name="add_to_cart"
          description="Add an item"
          input={z.object({ sku: z.string() })}
          run={({ sku }) => `added ${sku}`}
        />
        <Tool
          name="pay"
          description="Pay"
          input={z.object({ card: z.string() })}
          run={() => {
            throw new TypeError('card declined');
          }}
        />
      </Skill>
      <Skill name="refunds" description="Refund an order">
        <Tool name="refund" description="Refund" input={z.object({ order: z.string() })} run={() => 'refunded'} />
      </Skill>
    </Agent>
  );
}

/** The spans as an indented tree of names, children in start order. */
function tree(spans: readonly ReadableSpan[], order: SpanOrder): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const visit = (parent: string | undefined, depth: number) => {
    const list = (children.get(parent) ?? []).sort(order.byStart);
    for (const span of list) {
      lines.push(`${'  '.repeat(depth)}${span.name}${span.status.code === 2 ? ' [error]' : ''}`);
      visit(span.spanContext().spanId, depth + 1);
    }
  };
  visit(undefined, 0);
  return lines.join('\n');
}

const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

/** Turn 1: read shopping, add, pay (throws), read refunds (pushes shopping out), reply. */
function conversation() {
  return scriptedModel([
    { toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'shopping' } }] },
    {
      toolCalls: [
        { id: 'c2', name: 'add_to_cart', input: { sku: 'lamp' } },
        { id: 'c3', name: 'pay', input: { card: SECRET } },
      ],
    },
    { toolCalls: [{ id: 'c4', name: 'read_skill', input: { name: 'refunds' } }] },
    { text: 'Your lamp is in the cart; payment failed.' },
  ]);
}

async function abortedTurn(options: SessionOptions) {
  const waiting: ModelRequest[] = [];
  const model = scriptedModel([
    (req) => {
      waiting.push(req);
      return new Promise(() => {});
    },
  ]);
  const session = createSession(<ShopAgent />, { ...options, model });
  const controller = new AbortController();
  const sent = session.send('wait for me', { signal: controller.signal });
  while (waiting.length === 0) await new Promise((r) => setTimeout(r, 1));
  controller.abort();
  await expect(sent).rejects.toThrow();
  return session;
}

afterEach(async () => {
  trace.disable();
  await shutDownTracing();
});

describe('the span tree', () => {
  test('a turn is one invoke_agent span; model calls, tool calls and skill loads and unloads nest under it as they happen', async () => {
    const t = tracing();
    const session = createSession(<ShopAgent />, {
      model: conversation(),
      telemetry: { tracer: t.tracer, agentName: 'shop' },
    });
    await session.send(`buy a lamp, ${SECRET}`);
    expect(tree(t.exporter.getFinishedSpans(), t.order)).toBe(
      [
        'invoke_agent shop',
        '  chat scripted',
        '  execute_tool read_skill',
        '    load_skill shopping',
        '  chat scripted',
        '  execute_tool add_to_cart',
        '  execute_tool pay [error]',
        '  chat scripted',
        '  execute_tool read_skill',
        '    load_skill refunds',
        '      unload_skill shopping',
        '  chat scripted',
      ].join('\n'),
    );
  });

  test('spans carry the GenAI semantic conventions: operation, provider, models, tokens, cache reads, tool name and call id, conversation id', async () => {
    const t = tracing();
    const session = createSession(<ShopAgent />, {
      model: conversation(),
      telemetry: { tracer: t.tracer, conversationId: 'conv-7' },
    });
    const turn = await session.send('buy a lamp');
    const spans = t.exporter.getFinishedSpans();
    const [agent] = named(spans, 'invoke_agent');
    expect(agent.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      [ATTR_GEN_AI_CONVERSATION_ID]: 'conv-7',
      [ATTR_GEN_AI_PROVIDER_NAME]: 'scripted',
      [ATTR_GEN_AI_REQUEST_MODEL]: 'scripted',
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: turn.usage?.inputTokens,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: turn.usage?.outputTokens,
      'skilltree.session.id': 'conv-7',
      'skilltree.turn.steps': 4,
      'skilltree.usage.estimated': true,
      'skilltree.skills.loaded': ['refunds'],
    });
    const chats = named(spans, 'chat scripted');
    expect(chats).toHaveLength(4);
    expect(chats[1].attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
      [ATTR_GEN_AI_PROVIDER_NAME]: 'scripted',
      [ATTR_GEN_AI_REQUEST_MODEL]: 'scripted',
      [ATTR_GEN_AI_RESPONSE_MODEL]: 'scripted',
      [ATTR_GEN_AI_CONVERSATION_ID]: 'conv-7',
      'skilltree.step': 2,
      'skilltree.tools.offered': ['read_skill', 'add_to_cart', 'pay'],
      'skilltree.skills.loaded': ['shopping'],
      'skilltree.window.messages': 3,
    });
    expect(chats[1].attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]).toBeGreaterThan(0);
    // The second request repeats the first one's prefix: an estimated cache read.
    expect(chats[1].attributes[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]).toBeGreaterThan(0);
    const sum = chats.reduce((n, s) => n + Number(s.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]), 0);
    expect(sum).toBe(turn.usage?.inputTokens);
    const [add] = named(spans, 'execute_tool add_to_cart');
    expect(add.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: 'add_to_cart',
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'c2',
      'skilltree.skill': 'shopping',
    });
    expect(add.status.code).toBe(0);
  });

  test('spans count files and reasoning tokens, never their bytes or their text', async () => {
    const t = tracing();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const model = scriptedModel([{ text: 'seen' }]);
    const reasoning = {
      ...model,
      generate: async (req: ModelRequest, o: ModelCallOptions) => ({
        ...(await model.generate(req, o)),
        usage: { inputTokens: 9, outputTokens: 7, reasoningTokens: 5 },
      }),
    };
    const session = createSession(<ShopAgent />, { model: reasoning, telemetry: { tracer: t.tracer } });
    await session.send('look', { files: [{ data: png, filename: 'p.png' }] });
    const [chat] = named(t.exporter.getFinishedSpans(), 'chat scripted');
    expect(chat.attributes).toMatchObject({
      'skilltree.request.files': 1,
      'skilltree.request.file_bytes': 16,
      'gen_ai.usage.reasoning.output_tokens': 5,
    });
    expect(JSON.stringify(chat.attributes)).not.toContain(Buffer.from(png).toString('base64'));
  });

  test('a real model names its provider and requested model, the model that answered, and the estimated cost at its list price', async () => {
    const t = tracing();
    const usage = { inputTokens: 12_000, cacheReadTokens: 10_000, cacheWriteTokens: 1_000, outputTokens: 300 };
    const model = {
      name: 'anthropic:claude-sonnet-4-5',
      generate: async () => ({ text: 'hi', toolCalls: [], usage, model: 'claude-sonnet-4-5-20250929' }),
    };
    const session = createSession(<ShopAgent />, { model, telemetry: { tracer: t.tracer } });
    await session.send('hello');
    const [chat] = named(t.exporter.getFinishedSpans(), 'chat claude-sonnet-4-5');
    expect(chat.attributes).toMatchObject({
      [ATTR_GEN_AI_PROVIDER_NAME]: 'anthropic',
      [ATTR_GEN_AI_REQUEST_MODEL]: 'claude-sonnet-4-5',
      [ATTR_GEN_AI_RESPONSE_MODEL]: 'claude-sonnet-4-5-20250929',
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 12_000,
      [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: 10_000,
      [ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS]: 1_000,
      'skilltree.cost.usd': estimateCost(usage, 'claude-sonnet-4-5').total,
    });
    expect(chat.attributes).not.toHaveProperty('skilltree.usage.estimated');
  });

  test('a skill pushed out by a read says why and by which read; a load says whether it mounted', async () => {
    const t = tracing();
    const session = createSession(<ShopAgent />, { model: conversation(), telemetry: { tracer: t.tracer } });
    await session.send('buy a lamp');
    const spans = t.exporter.getFinishedSpans();
    const [unload] = named(spans, 'unload_skill shopping');
    expect(unload.attributes).toMatchObject({
      'skilltree.operation.name': 'unload_skill',
      'skilltree.skill': 'shopping',
      'skilltree.skill.unload_reason': 'lru',
      'skilltree.skill.unloaded_by': 'refunds',
    });
    const [load] = named(spans, 'load_skill refunds');
    expect(load.attributes).toMatchObject({
      'skilltree.skill.mounted': true,
      'skilltree.skill.unloaded': ['shopping'],
      'skilltree.skills.loaded': ['refunds'],
    });
  });

  test('a tool that throws, a model error and an abort set error status and record the exception', async () => {
    const t = tracing();
    const session = createSession(<ShopAgent />, {
      model: conversation(),
      telemetry: { tracer: t.tracer, recordContent: true },
    });
    await session.send('buy a lamp');
    const [pay] = named(t.exporter.getFinishedSpans(), 'execute_tool pay');
    expect(pay.status).toMatchObject({ code: 2, message: 'card declined' });
    expect(pay.attributes['error.type']).toBe('TypeError');
    expect(pay.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([
      ['exception', 'card declined'],
    ]);

    // The script is used up: the next model call fails.
    t.exporter.reset();
    await expect(session.send('again')).rejects.toThrow(/ran out of steps/);
    expect(tree(t.exporter.getFinishedSpans(), t.order)).toBe('invoke_agent [error]\n  chat scripted [error]');
    for (const span of t.exporter.getFinishedSpans()) {
      expect(span.events[0]?.attributes?.['exception.message']).toMatch(/ran out of steps/);
    }

    t.exporter.reset();
    await abortedTurn({ telemetry: { tracer: t.tracer, recordContent: true } });
    const spans = t.exporter.getFinishedSpans();
    expect(tree(spans, t.order)).toBe('invoke_agent [error]\n  chat scripted [error]');
    expect(spans.map((s) => s.attributes['error.type'])).toEqual(['AbortError', 'AbortError']);
  });

  test('an unknown tool is an error span too, named after what the model called', async () => {
    const t = tracing();
    const model = () => scriptedModel([{ toolCalls: [{ id: 'x', name: 'refund' }] }, { text: 'ok' }]);
    const session = createSession(<ShopAgent />, { model: model(), telemetry: { tracer: t.tracer } });
    await session.send('refund');
    const [span] = named(t.exporter.getFinishedSpans(), 'execute_tool refund');
    expect(span.status).toEqual({
      code: 2,
      message: 'The tool call failed (tool_error); its message is recorded only with telemetry.recordContent.',
    });
    expect(span.attributes['error.type']).toBe('tool_error');

    t.exporter.reset();
    const recorded = createSession(<ShopAgent />, {
      model: model(),
      telemetry: { tracer: t.tracer, recordContent: true },
    });
    await recorded.send('refund');
    const [withContent] = named(t.exporter.getFinishedSpans(), 'execute_tool refund');
    expect(withContent.events[0]?.attributes?.['exception.message']).toMatch(/^Unknown tool: refund/);
  });

  test('the turn is a child of the traceContext passed to send, or of the active span', async () => {
    const t = tracing();
    const parent = t.tracer.startSpan('POST /api/chat');
    const session = createSession(<ShopAgent />, {
      model: scriptedModel([{ text: 'a' }, { text: 'b' }]),
      telemetry: { tracer: t.tracer },
    });
    await session.send('hi', { traceContext: trace.setSpan(context.active(), parent) });
    parent.end();
    const [agent] = named(t.exporter.getFinishedSpans(), 'invoke_agent');
    expect(agent.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(agent.spanContext().traceId).toBe(parent.spanContext().traceId);
  });
});

describe('a model’s own spans', () => {
  test('a model gets the context of its call’s chat span (opts.traceContext): spans it starts there nest in the turn’s trace', async () => {
    const t = tracing();
    const model: Model = {
      name: 'anthropic:claude-test',
      generate: async (_req, opts) => {
        // As a provider SDK does: its own span of the HTTP call, under the context it is given.
        t.tracer.startSpan('http POST', {}, opts.traceContext as Parameters<typeof t.tracer.startSpan>[2]).end();
        return { text: 'hi', toolCalls: [] };
      },
    };
    await createSession(<ShopAgent />, { model, telemetry: { tracer: t.tracer } }).send('hello');
    expect(tree(t.exporter.getFinishedSpans(), t.order)).toBe('invoke_agent\n  chat claude-test\n    http POST');

    // Untraced, the model gets no context.
    const seen: unknown[] = [];
    const untraced = createSession(<ShopAgent />, {
      model: {
        generate: async (_req, opts) => {
          seen.push(opts.traceContext);
          return { text: 'hi', toolCalls: [] };
        },
      },
      telemetry: false,
    });
    await untraced.send('hello');
    expect(seen).toEqual([undefined]);
  });
});

describe('hostile trace contexts', () => {
  test('a traceContext that is not an OpenTelemetry Context is ignored: the turn runs and starts its own trace', async () => {
    const t = tracing();
    const session = createSession(<ShopAgent />, {
      model: scriptedModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]),
      telemetry: { tracer: t.tracer },
    });
    for (const traceContext of ['00-abc', { getValue: 'no' }, 42]) {
      t.exporter.reset();
      expect((await session.send('hi', { traceContext })).text).toMatch(/^[abc]$/);
      const [agent] = named(t.exporter.getFinishedSpans(), 'invoke_agent');
      expect(agent.parentSpanContext).toBeUndefined();
    }
  });
});

describe('a tracer that fails never fails the turn', () => {
  test('a tracer whose startSpan throws: the turn, its tools and its transcript go on as without tracing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tracer = {
      startSpan: () => {
        throw new Error('exporter exploded');
      },
    };
    const session = createSession(<ShopAgent />, { model: conversation(), telemetry: { tracer } });
    const turn = await session.send('buy a lamp');
    expect(turn.text).toBe('Your lamp is in the cart; payment failed.');
    expect(session.loadedSkills).toEqual(['refunds']);
    warn.mockRestore();
  });

  test('spans whose methods throw: the turn finishes, and the spans that did end still nest under the turn', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const t = tracing();
    const tracer = {
      startSpan: (name: string, options?: object, parent?: unknown) => {
        const span = t.tracer.startSpan(name, options, parent as Parameters<typeof t.tracer.startSpan>[2]);
        span.setAttributes = () => {
          throw new Error('attribute processor exploded');
        };
        return span;
      },
    };
    const session = createSession(<ShopAgent />, { model: conversation(), telemetry: { tracer } });
    expect((await session.send('buy a lamp')).text).toBe('Your lamp is in the cart; payment failed.');
    const spans = t.exporter.getFinishedSpans();
    const [agent] = named(spans, 'invoke_agent');
    expect(named(spans, 'execute_tool add_to_cart')[0].parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
    warn.mockRestore();
  });
});

describe('content is recorded only when asked for', () => {
  const CONTENT = [
    ATTR_GEN_AI_INPUT_MESSAGES,
    ATTR_GEN_AI_OUTPUT_MESSAGES,
    ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
    ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
    ATTR_GEN_AI_TOOL_CALL_RESULT,
  ];

  test('by default no span carries prompts, messages, tool inputs, results or the reply', async () => {
    const t = tracing();
    const session = createSession(<ShopAgent />, { model: conversation(), telemetry: { tracer: t.tracer } });
    await session.send(`buy a lamp, ${SECRET}`);
    const spans = t.exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(5);
    for (const span of spans) {
      for (const key of CONTENT) expect(span.attributes).not.toHaveProperty(key);
      // Random ids (a session's UUID) are hex: they may spell "added" or "4111" by chance.
      const text = JSON.stringify([span.attributes, span.events]).replace(
        /[0-9a-f]{8}(?:-?[0-9a-f]{4}){3}-?[0-9a-f]{12}/g,
        '',
      );
      for (const said of ['4111', 'lamp', 'ZEBRA', 'Search before you add', 'added', 'payment failed']) {
        expect(text).not.toContain(said);
      }
    }
  });

  test('with recordContent the system prompt, messages, tool inputs and results and the reply are on their spans', async () => {
    const t = tracing();
    const session = createSession(<ShopAgent />, {
      model: conversation(),
      telemetry: { tracer: t.tracer, recordContent: true },
    });
    await session.send(`buy a lamp, ${SECRET}`);
    const spans = t.exporter.getFinishedSpans();
    const [agent] = named(spans, 'invoke_agent');
    expect(JSON.parse(String(agent.attributes[ATTR_GEN_AI_INPUT_MESSAGES]))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: `buy a lamp, ${SECRET}` }] },
    ]);
    expect(String(agent.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])).toContain('payment failed');
    const [chat] = named(spans, 'chat scripted');
    expect(String(chat.attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS])).toContain('ZEBRA');
    expect(String(chat.attributes[ATTR_GEN_AI_INPUT_MESSAGES])).toContain(SECRET);
    const [pay] = named(spans, 'execute_tool pay');
    expect(JSON.parse(String(pay.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]))).toEqual({ card: SECRET });
    expect(pay.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toMatch(/card declined/);
  });
});

describe('where spans go', () => {
  test('without a tracer option, spans go to the tracer provider registered with @opentelemetry/api', async () => {
    const t = tracing();
    trace.setGlobalTracerProvider(t.provider);
    const session = createSession(<ShopAgent />, { model: scriptedModel([{ text: 'hi' }]) });
    await session.send('hello');
    const spans = t.exporter.getFinishedSpans();
    expect(tree(spans, t.order)).toBe('invoke_agent\n  chat scripted');
    expect(spans[0].instrumentationScope.name).toBe('@skilltree/core');
  });

  test('telemetry: false makes no spans, even with a provider registered', async () => {
    const t = tracing();
    trace.setGlobalTracerProvider(t.provider);
    const session = createSession(<ShopAgent />, { model: scriptedModel([{ text: 'hi' }]), telemetry: false });
    await session.send('hello');
    const other = createSession(<ShopAgent />, {
      model: scriptedModel([{ text: 'hi' }]),
      telemetry: { enabled: false, tracer: t.tracer },
    });
    await other.send('hello');
    expect(t.exporter.getFinishedSpans()).toEqual([]);
  });

  test('createSessions names each session and its owner on every span', async () => {
    const t = tracing();
    const sessions = createSessions(<ShopAgent />, {
      model: conversation(),
      telemetry: { tracer: t.tracer, attributes: { 'deployment.environment.name': 'test' } },
    });
    await sessions.send('chat-1', 'buy a lamp', { owner: 'ada' });
    const spans = t.exporter.getFinishedSpans();
    // The turn's 12, and the store's: the lease wait, the load, a commit per message (9) and the last one.
    expect(spans.length).toBe(24);
    for (const span of spans) {
      expect(span.attributes).toMatchObject({
        [ATTR_GEN_AI_CONVERSATION_ID]: 'chat-1',
        'skilltree.session.id': 'chat-1',
        'skilltree.owner': 'ada',
        'deployment.environment.name': 'test',
      });
    }
    await sessions.close();
  });
});

describe('provider and model from a model name', () => {
  test('adapter names map to gen_ai.provider.name and gen_ai.request.model', () => {
    expect(modelIdentity('anthropic:claude-sonnet-4-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(modelIdentity('openai:gpt-4.1-mini')).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
    expect(modelIdentity('ai-sdk:openai.chat:gpt-4o')).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(modelIdentity('scripted')).toEqual({ provider: 'scripted', model: 'scripted' });
    expect(modelIdentity(undefined)).toEqual({ provider: 'unknown', model: 'unknown' });
  });
});
