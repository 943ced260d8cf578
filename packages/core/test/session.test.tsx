/**
 * Sessions: bad input gets a clear error and nothing is lost; models, events, snapshots.
 */
import { useState } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createAgentStore,
  createSession,
  lastToolResult,
  type Model,
  restoreSession,
  type SessionEvent,
  Skill,
  scriptedModel,
  Text,
  Tool,
  useAgentStore,
} from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { call, cart, expectResultsFollowCalls as expectValidTranscript, ShopAgent, SkillsAgent } from './fixtures.js';
import { heldModel } from './gate.js';
import { WaitTool } from './researcher.js';

describe('bad tool input and failing tools', () => {
  test('invalid input: an error result naming each failing field; run is not called', async () => {
    const run = vi.fn(() => 'ok');
    const session = createSession(
      <Agent>
        <Tool name="order" description="Order" input={z.object({ sku: z.string(), qty: z.number().int() })} run={run} />
      </Agent>,
    );
    const result = await call(session, 'order', { sku: 42, qty: 1.5 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid input for tool "order": sku: expected string, received number; qty: expected int, received number',
    );
    expect(run).not.toHaveBeenCalled();
  });

  test('arguments that are not valid JSON get a clear error result', async () => {
    const run = vi.fn(() => 'ok');
    const session = createSession(
      <Agent>
        <Tool name="order" description="Order" input={z.object({ sku: z.string() })} run={run} />
      </Agent>,
    );
    expect(textOf(await call(session, 'order', '{"sku": "a"}'))).toBe('ok');
    const bad = await call(session, 'order', '{"sku": ');
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('the arguments are not valid JSON');
    expect(run).toHaveBeenCalledTimes(1);
  });

  test('run throws or rejects: an error result with the message; the session stays usable', async () => {
    const session = createSession(
      <Agent>
        <Tool
          name="boom"
          description="Boom"
          run={() => {
            throw new Error('database is down');
          }}
        />
        <Tool name="later" description="Later" run={async () => Promise.reject(new Error('timeout upstream'))} />
        <Tool name="fine" description="Fine" run={() => ({ ok: true })} />
      </Agent>,
    );
    expect(await call(session, 'boom')).toMatchObject({
      isError: true,
      errorKind: 'threw',
      content: [{ type: 'text', text: 'Tool "boom" failed: database is down' }],
    });
    expect(await call(session, 'later')).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Tool "later" failed: timeout upstream' }],
    });
    expect(await call(session, 'fine')).toMatchObject({ content: [{ type: 'text', text: '{"ok":true}' }] });
  });

  test('a tool that never settles times out into an error result (per-tool timeout)', async () => {
    let aborted = false;
    const session = createSession(
      <Agent>
        <Tool
          name="hang"
          description="Hangs"
          timeout={30}
          run={(_, ctx) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
            });
            return new Promise(() => {});
          }}
        />
      </Agent>,
    );
    const result = await call(session, 'hang');
    expect(result).toMatchObject({
      isError: true,
      errorKind: 'timeout',
      content: [{ type: 'text', text: 'Tool "hang" failed: Tool "hang" timed out after 30 ms.' }],
    });
    expect(aborted).toBe(true);
  });

  test('a skill that throws while rendering is unloaded with an error result; the session goes on', async () => {
    const Fragile = () => {
      const [broken, setBroken] = useState(false);
      if (broken) throw new Error('render exploded');
      return <Tool name="break" description="Break it" run={() => setBroken(true)} />;
    };
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const session = createSession(<SkillsAgent skills={{ fragile: <Fragile />, alpha: <Text>alpha here</Text> }} />);
    await call(session, 'read_skill', { name: 'fragile' });
    const result = await call(session, 'break');
    spy.mockRestore();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Skill "fragile" threw while rendering and was unloaded: render exploded');
    expect(textOf(result)).toContain('contextChanged fragile unloaded');
    expect(session.loadedSkills).toEqual([]);
    expect((await call(session, 'read_skill', { name: 'fragile' })).isError).toBeUndefined();
    expect(session.request().tools.map((t) => t.name)).toContain('break');
  });
});

describe('the model loop', () => {
  test('send loops model → tools → model until a reply without tool calls', async () => {
    const model = scriptedModel([
      { text: 'Let me look.', toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] },
      { toolCalls: [{ name: 'add_to_cart', input: { sku: 'lamp' } }] },
      { text: 'Added a lamp.' },
    ]);
    const session = createSession(<ShopAgent />, { model });
    const turn = await session.send('I need a lamp');
    expect(turn.text).toBe('Added a lamp.');
    expect(turn.steps).toBe(3);
    expect(turn.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(session.store(cart).getState().items).toEqual(['lamp']);
  });

  test('a model error rejects send and leaves the transcript valid; the next send continues', async () => {
    let calls = 0;
    const model: Model = {
      async generate(req) {
        calls++;
        if (calls === 2) throw new Error('503 overloaded');
        if (calls === 1) return { text: '', toolCalls: [{ id: 't1', name: 'read_skill', input: { name: 'alpha' } }] };
        return { text: `ok after ${req.messages.length} messages`, toolCalls: [] };
      },
    };
    const session = createSession(<ShopAgent />, { model });
    await expect(session.send('hi')).rejects.toThrow('503 overloaded');
    expectValidTranscript(session.transcript);
    expect(session.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    const turn = await session.send('again');
    expect(turn.text).toBe('ok after 4 messages');
  });

  test('maxSteps exceeded: a clear error, the transcript valid', async () => {
    const model = scriptedModel(Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'alpha_ping' }] })));
    const session = createSession(<ShopAgent />, { model, maxSteps: 3 });
    await session.readSkill('alpha');
    await expect(session.send('loop')).rejects.toThrow(/maxSteps reached: the model made 3 calls/);
    expectValidTranscript(session.transcript);
    expect(session.transcript.filter((m) => m.role === 'assistant')).toHaveLength(3);
  });

  test('scriptedModel: running out of steps is a clear error; a step is used up even if it throws', async () => {
    const model = scriptedModel([
      () => {
        throw new Error('scripted failure');
      },
      { text: 'second' },
    ]);
    const session = createSession(<ShopAgent />, { model });
    await expect(session.send('a')).rejects.toThrow('scripted failure');
    expect((await session.send('b')).text).toBe('second');
    await expect(session.send('c')).rejects.toThrow('scriptedModel ran out of steps: 2 scripted, step 3 was requested');
    expect(model.remaining).toBe(0);
  });

  test('lastToolResult: a step reads the tool result it follows; after a user message it is an error naming that', async () => {
    const seen: string[] = [];
    const session = createSession(<ShopAgent />, {
      model: scriptedModel([
        (req) => ({ text: textOf(lastToolResult(req)) }),
        { toolCalls: [{ name: 'read_skill', input: { name: 'alpha' } }] },
        (req) => {
          seen.push(textOf(lastToolResult(req)).split('\n')[0]);
          return { text: 'done' };
        },
      ]),
    });
    await expect(session.send('a')).rejects.toThrow(
      "lastToolResult: the request's last message is a user message, not a tool result. Call it from a step that follows a tool call.",
    );
    expect((await session.send('b')).text).toBe('done');
    expect(seen).toEqual(['Loaded skill "alpha"; it is now active.']);
  });

  test('a second send while a turn runs is refused clearly', async () => {
    const { model, called: calling, release } = heldModel();
    const session = createSession(<ShopAgent />, { model });
    const first = session.send('one');
    await expect(session.send('two')).rejects.toThrow('A turn is already running');
    await calling;
    release();
    await expect(first).resolves.toMatchObject({ text: 'done' });
  });

  test('abort: send rejects, every call has a result', async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'wait' }, { name: 'wait' }] }, { text: 'never' }]);
    const session = createSession(
      <Agent>
        <WaitTool onWaiting={() => controller.abort()} />
      </Agent>,
      { model },
    );
    await expect(session.send('go', { signal: controller.signal })).rejects.toThrow();
    expectValidTranscript(session.transcript);
    expect(session.transcript.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });

  test('the default model says how to pass one', async () => {
    await expect(createSession(<ShopAgent />).send('hi')).rejects.toThrow('No model: pass { model } to createSession');
  });

  test('stream yields the events of a turn, and streaming models feed text deltas', async () => {
    const model: Model = {
      async generate() {
        throw new Error('unused');
      },
      async *stream(req) {
        if (req.messages.length === 1) {
          yield { type: 'tool-call', id: 'c1', name: 'read_skill', input: { name: 'alpha' } };
          yield { type: 'finish' };
          return;
        }
        yield { type: 'text-delta', text: 'Hel' };
        yield { type: 'text-delta', text: 'lo' };
        yield { type: 'finish', usage: { inputTokens: 10, outputTokens: 2 } };
      },
    };
    const session = createSession(<ShopAgent />, { model });
    const events: SessionEvent[] = [];
    for await (const event of session.stream('hi')) events.push(event);
    const types = events.map((e) => e.type).filter((t) => t !== 'message' && t !== 'store-changed');
    expect(types).toEqual([
      'request',
      'step-finish',
      'tool-call',
      'skill-loaded',
      'context-changed',
      'tool-result',
      'request',
      'text-delta',
      'text-delta',
      'step-finish',
      'finish',
    ]);
    expect(events.filter((e) => e.type === 'step-finish').at(-1)).toEqual({
      type: 'step-finish',
      step: 2,
      usage: { inputTokens: 10, outputTokens: 2 },
    });
    const finish = events.at(-1) as Extract<SessionEvent, { type: 'finish' }>;
    expect(finish.turn).toMatchObject({ text: 'Hello', steps: 2, usage: { inputTokens: 10, outputTokens: 2 } });
  });

  test('on(type) subscribes to one event type and returns an unsubscribe function', async () => {
    const session = createSession(<ShopAgent />);
    const loaded: string[] = [];
    const off = session.on('skill-loaded', (e) => loaded.push(e.name));
    await session.readSkill('alpha');
    off();
    await session.readSkill('beta');
    expect(loaded).toEqual(['alpha']);
  });
});

describe('mistakes in the tree get errors naming the components', () => {
  const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => {});

  test('two rendered tools with one name', async () => {
    function Shopping() {
      return <Tool name="lookup" description="a" run={() => 'a'} />;
    }
    function Orders() {
      return <Tool name="lookup" description="b" run={() => 'b'} />;
    }
    const session = createSession(<SkillsAgent skills={{ shopping: <Shopping />, orders: <Orders /> }} />);
    await session.readSkill('shopping');
    await expect(session.readSkill('orders')).rejects.toThrow(
      'Cannot load skill "orders"; it stays unloaded. Its tool "lookup" (rendered by <Orders>) clashes with tool "lookup" of skill "shopping" (rendered by <Shopping>).',
    );
    expect(session.loadedSkills).toEqual(['shopping']);
    expect(session.request().tools.map((t) => t.name)).toEqual(['read_skill', 'lookup']);
  });

  test('an invalid tool name', () => {
    function Bad() {
      return <Tool name="add to cart" description="a" run={() => 'a'} />;
    }
    expect(() =>
      createSession(
        <Agent>
          <Bad />
        </Agent>,
      ),
    ).toThrow(
      'Invalid tool name "add to cart" (rendered by <Bad> at agent level): tool names must match ^[a-zA-Z0-9_-]{1,64}$.',
    );
  });

  test('a Skill without a name', () => {
    const spy = quiet();
    expect(() =>
      createSession(
        <Agent>
          {/* @ts-expect-error the name is missing on purpose */}
          <Skill description="Nameless">x</Skill>
        </Agent>,
      ),
    ).toThrow('<Skill> needs a non-empty "name" prop (got undefined for "Nameless").');
    spy.mockRestore();
  });

  test('two skills with one name', () => {
    function Catalog() {
      return (
        <>
          <Skill name="dup" description="one" />
          <Skill name="dup" description="two" />
        </>
      );
    }
    expect(() =>
      createSession(
        <Agent>
          <Catalog />
        </Agent>,
      ),
    ).toThrow('Two skills are named "dup" (rendered by <Catalog> and by <Catalog>).');
  });

  test('a tool that clashes with read_skill', () => {
    expect(() =>
      createSession(
        <Agent>
          <Tool name="read_skill" description="mine" run={() => ''} />
          <Skill name="a" description="a" />
        </Agent>,
      ),
    ).toThrow('clashes with the built-in tool that reads skills');
  });

  test('two store definitions with one name in one session', () => {
    const first = createAgentStore('prefs', () => ({ a: 1 }));
    const second = createAgentStore('prefs', () => ({ b: 2 }));
    function UsesBoth() {
      useAgentStore(first);
      useAgentStore(second);
      return null;
    }
    const spy = quiet();
    expect(() =>
      createSession(
        <Agent>
          <UsesBoth />
        </Agent>,
      ),
    ).toThrow('Two agent stores are named "prefs" in this session');
    spy.mockRestore();
  });

  test('text outside Instructions or Text', () => {
    function Loose() {
      return <>hello</>;
    }
    const spy = quiet();
    expect(() =>
      createSession(
        <Agent>
          <Loose />
        </Agent>,
      ),
    ).toThrow('Text "hello" must be rendered inside <Instructions> or <Text>');
    spy.mockRestore();
  });
});

describe('snapshots', () => {
  test('snapshot → JSON → restoreSession round-trips transcript, loaded skills (LRU order) and store state', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] },
      { toolCalls: [{ name: 'add_to_cart', input: { sku: 'lamp' } }] },
      { toolCalls: [{ name: 'read_skill', input: { name: 'alpha' } }] },
      { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
      { text: 'done' },
    ]);
    const session = createSession(<ShopAgent />, { model });
    await session.send('go');
    const json = JSON.stringify(session.snapshot());
    const before = session.request();

    const restored = restoreSession(<ShopAgent />, JSON.parse(json), { model: scriptedModel([{ text: 'again' }]) });
    expect(restored.transcript).toEqual(session.transcript);
    expect(restored.loadedSkills).toEqual(['shopping', 'alpha', 'refunds']);
    expect(restored.store(cart).getState().items).toEqual(['lamp']);
    expect(restored.request()).toEqual(before);
    // Restoring records nothing new: the next message carries only its own text.
    await restored.send('next');
    expect(restored.transcript.at(-2)).toEqual({ role: 'user', content: [{ type: 'text', text: 'next' }] });
  });

  test('a restored session goes on numbering tool calls after the ones it has', async () => {
    const session = createSession(<ShopAgent />);
    await call(session, 'read_skill', { name: 'alpha' });
    await call(session, 'alpha_ping');
    const restored = restoreSession(<ShopAgent />, JSON.stringify(session.snapshot()));
    expect(restored.nextCallId()).toBe('call_3');
  });

  test('restoreSession rejects what is not a snapshot, clearly', () => {
    expect(() => restoreSession(<ShopAgent />, { nope: 1 } as never)).toThrow(
      'restoreSession: unknown snapshot version undefined; this version of skilltree reads versions 1 and 2. Pass what session.snapshot() returned (or its JSON text).',
    );
  });

  test('dispose unmounts the tree and later calls say the session is disposed', async () => {
    const session = createSession(<ShopAgent />);
    session.dispose();
    expect(() => session.request()).toThrow('This session is disposed');
  });
});

describe('ids and freshness from caller code', () => {
  test('tool-call ids are unique within a session, whoever makes the calls', async () => {
    const session = createSession(<ShopAgent />, {
      model: scriptedModel([{ toolCalls: [{ name: 'read_skill', input: { name: 'alpha' } }] }, { text: 'ok' }]),
    });
    await call(session, 'read_skill', { name: 'beta' });
    await session.send('hi');
    const ids = session.transcript.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    expect(ids).toEqual(['call_1', 'call_2']);
  });

  test('request() sees a store update made by caller code at once', async () => {
    const session = createSession(<ShopAgent />);
    await session.readSkill('shopping');
    cart.of(session).setState({ items: ['mug'] });
    expect(session.request().context).toContain('Cart: mug');
  });

  test('settled() waits for updates that effects schedule', async () => {
    const session = createSession(<ShopAgent />);
    await session.readSkill('shopping');
    setTimeout(() => cart.of(session).setState({ items: ['late'] }), 1);
    await new Promise((r) => setTimeout(r, 5));
    await session.settled();
    expect(session.request().context).toContain('Cart: late');
  });
});

test('read_skill arguments that are not valid JSON get the same clear error', async () => {
  const session = createSession(<ShopAgent />);
  expect((await call(session, 'read_skill', '{"name": "alpha"}')).isError).toBeUndefined();
  const bad = await call(session, 'read_skill', '{"name": ');
  expect(bad).toMatchObject({ isError: true });
  expect(textOf(bad)).toContain('Invalid input for tool "read_skill": the arguments are not valid JSON');
});
