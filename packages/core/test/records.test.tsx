/**
 * What the records say is true: usage is numbers a sum and a price can trust, a tool result is
 * bounded, and a model's tool calls reach the transcript (and the next request) only repaired.
 * Each test is a hostile input kept as the rule it checks.
 */
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSession,
  type Model,
  type ModelRequest,
  restoreSession,
  type SessionEvent,
  Text,
  Tool,
} from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { CONTEXT_CHANGED, cutResult, isSafeToolCallId, type ModelStreamPart } from '../src/provider.js';

const SAFE_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/** A model that answers with `responses` in turn, exactly as given (no type checks: models lie). */
function replies(...responses: unknown[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'hostile',
    requests,
    async generate(request) {
      requests.push(structuredClone(request));
      const next = responses.shift();
      if (next === undefined) throw new Error('no more responses');
      return next as never;
    },
  };
}

/** The same, streaming: each response is a list of stream parts. */
function streams(...responses: unknown[][]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'hostile-stream',
    requests,
    generate: () => Promise.reject(new Error('stream only')),
    async *stream(request) {
      requests.push(structuredClone(request));
      for (const part of responses.shift() ?? []) yield part as ModelStreamPart;
    },
  };
}

const echo = (
  <Tool name="echo" description="Echo" input={z.object({ text: z.string() })} run={({ text }) => `echo: ${text}`} />
);

describe('usage is numbers a sum can trust', () => {
  test('negative, non-finite and unknown usage fields are ignored', async () => {
    const model = replies({
      text: 'Hi.',
      toolCalls: [],
      usage: {
        inputTokens: -5,
        outputTokens: Number.NaN,
        cacheReadTokens: Number.POSITIVE_INFINITY,
        cacheWriteTokens: 3,
        dollars: 7,
        costUsd: -1,
      },
    });
    const session = createSession(<Agent>{null}</Agent>, { model });
    const events: SessionEvent[] = [];
    session.on('event', (e) => events.push(e));
    const turn = await session.send('hello');
    expect(turn.usage).toEqual({ cacheWriteTokens: 3 });
    expect(session.usage).toEqual({ cacheWriteTokens: 3 });
    expect(events.find((e) => e.type === 'step-finish')).toEqual({
      type: 'step-finish',
      step: 1,
      usage: { cacheWriteTokens: 3 },
    });
  });

  test('usage that is not an object, or holds strings and inherited fields, counts as none', async () => {
    const inherited = Object.create({ inputTokens: 50 });
    const model = replies(
      { text: 'a', toolCalls: [], usage: 'lots' },
      { text: 'b', toolCalls: [], usage: { inputTokens: '12', outputTokens: null } },
      { text: 'c', toolCalls: [], usage: inherited },
    );
    const session = createSession(<Agent>{null}</Agent>, { model });
    for (const text of ['1', '2', '3']) expect((await session.send(text)).usage).toBeUndefined();
    expect(session.usage).toBeUndefined();
  });

  test('usage clamps at Number.MAX_SAFE_INTEGER, in a step and in the sums', async () => {
    const huge = { inputTokens: Number.MAX_SAFE_INTEGER, outputTokens: 1e300 };
    const model = replies(
      { text: '', toolCalls: [{ id: 'a', name: 'echo', input: { text: 'x' } }], usage: huge },
      { text: 'Done.', toolCalls: [], usage: huge },
    );
    const session = createSession(<Agent>{echo}</Agent>, { model });
    const turn = await session.send('go');
    const max = { inputTokens: Number.MAX_SAFE_INTEGER, outputTokens: Number.MAX_SAFE_INTEGER };
    expect(turn.usage).toEqual(max);
    expect(session.usage).toEqual(max);
    expect(Number.isSafeInteger(session.usage?.inputTokens)).toBe(true);
  });

  test('a streamed finish part is checked the same way', async () => {
    const model = streams([
      { type: 'text-delta', text: 'Hi.' },
      { type: 'finish', usage: { inputTokens: 10, outputTokens: -2, extra: 1 } },
    ]);
    const session = createSession(<Agent>{null}</Agent>, { model });
    expect((await session.send('hello')).usage).toEqual({ inputTokens: 10 });
  });

  test("restoreSession checks a snapshot's usage with the same rule as a model's", () => {
    const json = `{"version":1,"transcript":[],"loadedSkills":[],"stores":{},
      "usage":{"inputTokens":-1,"outputTokens":1e999,"cacheReadTokens":9007199254740993000,"cacheWriteTokens":4,"dollars":9}}`;
    const session = restoreSession(<Agent>{null}</Agent>, json);
    expect(session.usage).toEqual({ cacheReadTokens: Number.MAX_SAFE_INTEGER, cacheWriteTokens: 4 });
    expect(session.snapshot().usage).toEqual({ cacheReadTokens: Number.MAX_SAFE_INTEGER, cacheWriteTokens: 4 });
    const none = restoreSession(<Agent>{null}</Agent>, {
      version: 1,
      transcript: [],
      loadedSkills: [],
      usage: 'x',
    } as never);
    expect(none.usage).toBeUndefined();
  });
});

describe('a tool result has a size cap', () => {
  const note = (cut: number, total: number, max: number) =>
    `[…truncated: ${cut.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters were cut; a tool result carries at most ${max.toLocaleString('en-US')} (maxToolResultChars).]`;

  function dumping(size: number, options: { fail?: boolean } = {}) {
    const text = 'x'.repeat(size);
    return (
      <Tool
        name="dump"
        description="Dump everything"
        run={() => {
          if (options.fail) throw new Error(text);
          return text;
        }}
      />
    );
  }

  async function callDump(session: ReturnType<typeof createSession>) {
    const [call] = session.addAssistantMessage({ content: '', toolCalls: [{ id: '', name: 'dump', input: {} }] })
      .toolCalls!;
    return session.callTool(call);
  }

  test('by default a result is cut at 100,000 characters, with a note that says how much was cut', async () => {
    const session = createSession(<Agent>{dumping(250_000)}</Agent>);
    const result = await callDump(session);
    expect(textOf(result)).toBe(`${'x'.repeat(100_000)}\n${note(150_000, 250_000, 100_000)}`);
  });

  test('maxToolResultChars sets the cap, and error results are cut too', async () => {
    const session = createSession(<Agent>{dumping(5_000, { fail: true })}</Agent>, { maxToolResultChars: 1_000 });
    const result = await callDump(session);
    expect(result.isError).toBe(true);
    const prefix = 'Tool "dump" failed: ';
    expect(textOf(result)).toBe(
      `${prefix}${'x'.repeat(1_000 - prefix.length)}\n${note(5_000 + prefix.length - 1_000, 5_000 + prefix.length, 1_000)}`,
    );
  });

  test('a result at the cap is kept whole', async () => {
    const session = createSession(<Agent>{dumping(1_000)}</Agent>, { maxToolResultChars: 1_000 });
    expect(textOf(await callDump(session))).toBe('x'.repeat(1_000));
  });

  test('a tool sees the cap as ctx.maxResultChars', async () => {
    let seen = 0;
    const tool = (
      <Tool
        name="dump"
        description="Reports its cap"
        run={(_input, ctx) => {
          seen = ctx.maxResultChars;
          return 'ok';
        }}
      />
    );
    await callDump(createSession(<Agent>{tool}</Agent>, { maxToolResultChars: 4_321 }));
    expect(seen).toBe(4_321);
    await callDump(createSession(<Agent>{tool}</Agent>, { maxToolResultChars: -3 }));
    expect(seen).toBe(100_000);
  });

  test('a cut ends at a line end when one is near, and never splits a character', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const cut = cutResult(lines, 200);
    expect(cut.split('\n[…truncated:')[0]).toBe(lines.slice(0, lines.lastIndexOf('\n', 200)));
    const emoji = '😀'.repeat(100);
    const head = cutResult(emoji, 11).split('\n')[0];
    expect(head).toBe('😀'.repeat(5));
  });

  test("the cap cuts the tool's own text; the contextChanged lines after it are kept whole", async () => {
    function Counter() {
      const [count, setCount] = useState(0);
      return (
        <>
          <Text>{`Dumps so far: ${count}`}</Text>
          <Tool
            name="dump"
            description="Dump and count"
            run={() => {
              setCount((n) => n + 1);
              return 'x'.repeat(3_000);
            }}
          />
        </>
      );
    }
    const session = createSession(
      <Agent>
        <Counter />
      </Agent>,
      { maxToolResultChars: 500 },
    );
    const result = await callDump(session);
    const [text, ...changes] = textOf(result).split(`\n${CONTEXT_CHANGED}`);
    expect(text).toBe(`${'x'.repeat(500)}\n${note(2_500, 3_000, 500)}`);
    expect(changes.join('\n')).toContain('Dumps so far: 1');
  });
});

describe("a model's tool calls are repaired before the transcript keeps them", () => {
  test('toolCalls: [null] is dropped with a warning; the other calls run and the turn goes on', async () => {
    const model = replies(
      { text: '', toolCalls: [null, { id: 'ok_1', name: 'echo', input: { text: 'hi' } }, 42, 'echo'] },
      { text: 'Done.', toolCalls: [] },
    );
    const session = createSession(<Agent>{echo}</Agent>, { model });
    const turn = await session.send('go');
    expect(turn.text).toBe('Done.');
    const assistant = turn.messages[1];
    expect(assistant).toEqual({
      role: 'assistant',
      content: [],
      toolCalls: [{ id: 'ok_1', name: 'echo', input: { text: 'hi' } }],
    });
    expect(turn.messages[2]).toMatchObject({
      role: 'tool',
      toolCallId: 'ok_1',
      content: [{ type: 'text', text: 'echo: hi' }],
    });
    expect(session.warnings.map((w) => w.message)).toEqual([
      'The model sent a tool call that was dropped (toolCalls[0]: it is null, not a tool call).',
      'The model sent a tool call that was dropped (toolCalls[2]: it is a number, not a tool call).',
      'The model sent a tool call that was dropped (toolCalls[3]: it is a string, not a tool call).',
    ]);
    expect(JSON.stringify(model.requests[1].messages)).not.toContain('null');
  });

  test('a call without a name is dropped with a warning, never recorded as a call of "undefined"', async () => {
    const model = replies(
      {
        text: 'Let me check.',
        toolCalls: [
          { id: 'a', input: {} },
          { id: 'b', name: '', input: {} },
          { id: 'c', name: 7 },
        ],
      },
      { text: 'unused', toolCalls: [] },
    );
    const session = createSession(<Agent>{echo}</Agent>, { model });
    const turn = await session.send('go');
    expect(turn.text).toBe('Let me check.');
    expect(turn.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }] },
    ]);
    expect(session.warnings.map((w) => w.message)).toEqual(
      [0, 1, 2].map((i) => `The model sent a tool call that was dropped (toolCalls[${i}]: it has no tool name).`),
    );
  });

  test('ids that are not safe tokens get a fresh safe id; each result carries its call id', async () => {
    const unsafe = ['call.1', 'a b', 'x'.repeat(65), '', 123, null, '../../etc', 'tööl', 'id\n2'];
    const model = replies(
      { text: '', toolCalls: unsafe.map((id, i) => ({ id, name: 'echo', input: { text: String(i) } })) },
      { text: 'Done.', toolCalls: [] },
    );
    const session = createSession(<Agent>{echo}</Agent>, { model });
    const turn = await session.send('go');
    const calls = turn.messages[1].role === 'assistant' ? turn.messages[1].toolCalls! : [];
    expect(calls).toHaveLength(unsafe.length);
    for (const call of calls) expect(call.id).toMatch(SAFE_ID);
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
    const results = turn.messages.slice(2, 2 + calls.length);
    expect(results.map((m) => (m.role === 'tool' ? m.toolCallId : null))).toEqual(calls.map((c) => c.id));
    const sent = model.requests[1].messages.flatMap((m) =>
      m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : m.role === 'tool' ? [m.toolCallId] : [],
    );
    expect(sent.every((id) => SAFE_ID.test(id))).toBe(true);
  });

  test('a safe id is kept; one used before in the transcript or the response gets a fresh one', async () => {
    const model = replies(
      { text: '', toolCalls: [{ id: 'toolu_01', name: 'echo', input: { text: 'a' } }] },
      {
        text: '',
        toolCalls: [
          { id: 'toolu_01', name: 'echo', input: { text: 'b' } },
          { id: 'toolu_02', name: 'echo', input: { text: 'c' } },
          { id: 'toolu_02', name: 'echo', input: { text: 'd' } },
        ],
      },
      { text: 'Done.', toolCalls: [] },
    );
    const session = createSession(<Agent>{echo}</Agent>, { model });
    const turn = await session.send('go');
    const ids = turn.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    expect(ids[0]).toBe('toolu_01');
    expect(ids[2]).toBe('toolu_02');
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => SAFE_ID.test(id))).toBe(true);
  });

  test('streamed tool calls are repaired the same way', async () => {
    const model = streams(
      [
        { type: 'tool-call', id: 'bad id!', name: 'echo', input: { text: 'x' } },
        { type: 'tool-call', id: 'n', name: undefined, input: {} },
        { type: 'finish' },
      ],
      [{ type: 'text-delta', text: 'Done.' }],
    );
    const session = createSession(<Agent>{echo}</Agent>, { model });
    const turn = await session.send('go');
    const calls = turn.messages[1].role === 'assistant' ? turn.messages[1].toolCalls! : [];
    expect(calls).toEqual([{ id: expect.stringMatching(SAFE_ID), name: 'echo', input: { text: 'x' } }]);
    expect(calls[0].id).not.toBe('bad id!');
    expect(session.warnings).toHaveLength(1);
  });

  test('stream parts that are not parts, or text-deltas without text, are skipped, never read as "undefined"', async () => {
    const model = streams([
      null,
      'text',
      { type: 'text-delta' },
      { type: 'text-delta', text: 'Hi.' },
      { type: 'finish' },
    ]);
    const session = createSession(<Agent>{null}</Agent>, { model });
    expect((await session.send('hello')).text).toBe('Hi.');
  });

  test('addAssistantMessage applies the same rule, and refuses an entry that is not a call', () => {
    const session = createSession(<Agent>{echo}</Agent>);
    const message = session.addAssistantMessage({ content: '', toolCalls: [{ id: 'a.b', name: 'echo', input: {} }] });
    expect(message.toolCalls?.[0].id).toMatch(SAFE_ID);
    expect(() => session.addAssistantMessage({ content: '', toolCalls: [null as never] })).toThrow(
      'addAssistantMessage: toolCalls[0] cannot be recorded: it is null, not a tool call.',
    );
  });

  test('isSafeToolCallId is the one rule: 1 to 64 letters, digits, _ or -', () => {
    expect(['call_1', 'toolu_01A-b', 'x'.repeat(64)].every(isSafeToolCallId)).toBe(true);
    expect(['', 'x'.repeat(65), 'a.b', 'a b', 'é', 7, null, undefined].some(isSafeToolCallId)).toBe(false);
  });
});
