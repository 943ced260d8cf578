/**
 * A `<Subagent>` call is model output, so it is hostile: input that is not an object (null, a
 * string, an array, 10,000 levels deep, 5 MB), a name that is no subagent or a prototype key, a run
 * whose model emits tool calls with no name or arguments, and `finish` called twice or with a result
 * its schema refuses. Each is an error result the model reads (naming the subagent or the field),
 * never a crash; the parent goes on, and its transcript and snapshot stay whole.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSession,
  Instructions,
  jsonSchema,
  type Model,
  type ModelRequest,
  ownTextOf,
  restoreSession,
  type Session,
  Subagent,
  scriptedModel,
  textOf,
} from '../src/index.js';
import { nestsWithin, TOO_DEEP_INPUT } from '../src/parts/tool-input-depth.js';
import type { ModelResponse } from '../src/provider.js';
import { Researcher } from './researcher.js';

/** `levels` objects nested in one another, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** The parent calls `name` with `input`, then says `went on`; a run answers `researched`. */
function oneCall(name: string, input: unknown) {
  return scriptedModel([{ toolCalls: [{ name, input }] }, { text: 'went on' }], {
    subagents: { researcher: [{ text: 'researched' }] },
  });
}

/** The parent's transcript is whole: the call, one result for it, and the parent's reply; it snapshots and restores. */
async function expectWhole(session: Session) {
  expect(session.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(ownTextOf(session.transcript[3])).toBe('went on');
  const snapshot = JSON.parse(JSON.stringify(session.snapshot()));
  const back = await restoreSession(<Researcher />, snapshot);
  expect(back.transcript).toHaveLength(4);
}

describe('a <Subagent> call with input that is not an object is an error result, never a crash', () => {
  it.each([
    ['null', null],
    ['a string that is not JSON', 'research order A-1'],
    ['a JSON string', '"research order A-1"'],
    ['an array', ['research', 'A-1']],
    ['a number', 42],
    ['10,000 levels deep', { task: nested(10_000) }],
    ['10,000 levels deep, as JSON', `{"task":${'{"a":'.repeat(10_000)}"bottom"${'}'.repeat(10_000)}}`],
    ['5 MB of text that is not JSON', 'x'.repeat(5 * 1024 * 1024)],
  ])('input that is %s: the model reads why, the parent goes on', async (_, input) => {
    const model = oneCall('researcher', input);
    const session = createSession(<Researcher />, { model });
    const turn = await session.send('go');
    expect(turn.text).toBe('went on');
    const result = session.transcript[2];
    expect(result).toMatchObject({ role: 'tool', name: 'researcher', isError: true });
    expect(textOf(result)).toMatch(/^Invalid input for tool "researcher"/);
    // What goes back to the model is bounded, whatever came in.
    expect(textOf(result).length).toBeLessThan(2_000);
    // No run was started for input its schema refused.
    expect(session.subagentRuns).toEqual([]);
    expect(model.requests.filter((r) => r.subagent)).toHaveLength(0);
    await expectWhole(session);
  });

  it('a task of 5 MB is a valid task: the run gets it whole as its first message', async () => {
    const task = 'y'.repeat(5 * 1024 * 1024);
    const model = oneCall('researcher', { task });
    const session = createSession(<Researcher />, { model });
    expect((await session.send('go')).text).toBe('went on');
    const first = model.requests.find((r) => r.subagent)!;
    expect(ownTextOf(first.messages[0])).toHaveLength(task.length);
    expect(session.subagentRuns[0]).toMatchObject({ status: 'done', result: 'researched' });
    await expectWhole(session);
  });

  it('with an input schema that takes anything, null input reaches the run as {}', async () => {
    const model = oneCall('researcher', null);
    const session = createSession(<Researcher input={jsonSchema({})} />, { model });
    expect((await session.send('go')).text).toBe('went on');
    const first = model.requests.find((r) => r.subagent)!;
    expect(ownTextOf(first.messages[0])).toBe('{}');
  });

  it.each([
    ['a JSON string', '"plain words"', 'string'],
    ['a JSON array', '[1,2]', 'array'],
    ['a number', 7, 'number'],
  ])(
    'with an input schema that takes anything, %s is still refused: tool input is an object',
    async (_, input, kind) => {
      const model = oneCall('researcher', input);
      const session = createSession(<Researcher input={jsonSchema({})} />, { model });
      expect((await session.send('go')).text).toBe('went on');
      expect(textOf(session.transcript[2])).toBe(
        `Invalid input for tool "researcher": (input): expected object, received ${kind}`,
      );
      expect(session.subagentRuns).toEqual([]);
    },
  );

  it.each([
    ['an object', { task: nested(10_000) }],
    ['JSON text', `{"task":${'{"a":'.repeat(10_000)}"bottom"${'}'.repeat(10_000)}}`],
  ])(
    'with an input schema that takes anything, 10,000 levels deep as %s is an error result naming the tool and the fix',
    async (_, input) => {
      const model = oneCall('researcher', input);
      const session = createSession(<Researcher input={jsonSchema({})} />, { model });
      expect((await session.send('go')).text).toBe('went on');
      expect(session.transcript[2]).toMatchObject({ role: 'tool', isError: true });
      expect(textOf(session.transcript[2])).toMatch(
        /^Invalid input for tool "researcher": .*Send (flatter JSON|a JSON object)/,
      );
      expect(session.subagentRuns).toEqual([]);
      await expectWhole(session);
    },
  );
});

describe('a call of a name that is no subagent, or a prototype key, is Unknown tool', () => {
  it('a call with an empty name is dropped with a warning; the turn ends with the transcript whole', async () => {
    const model = oneCall('', { task: 't' });
    const warnings: string[] = [];
    const session = createSession(<Researcher />, { model });
    session.on('warning', (w) => warnings.push(w.message));
    await session.send('go');
    expect(warnings.join('\n')).toContain(
      'The model sent a tool call that was dropped (toolCalls[0]: it has no tool name)',
    );
    expect(session.transcript.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(session.subagentRuns).toEqual([]);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'researcher ', 'Researcher'])(
    'a call of %j is an error result, and no run starts',
    async (name) => {
      const model = oneCall(name, { task: 't' });
      const session = createSession(<Researcher />, { model });
      expect((await session.send('go')).text).toBe('went on');
      expect(session.transcript[2]).toMatchObject({ role: 'tool', isError: true });
      expect(session.subagentRuns).toEqual([]);
      await expectWhole(session);
    },
  );

  it('subagents named like prototype keys run as any other, and their scripts are their own', async () => {
    const subagents: Record<string, { text: string }[]> = { constructor: [{ text: 'from constructor' }] };
    // A literal `__proto__:` would set the prototype: the key is defined as an own property.
    Object.defineProperty(subagents, '__proto__', { value: [{ text: 'from proto' }], enumerable: true });
    const model = scriptedModel(
      [
        {
          toolCalls: [
            { name: 'constructor', input: { task: 'a' } },
            { name: '__proto__', input: { task: 'b' } },
          ],
        },
        { text: 'both' },
      ],
      { subagents },
    );
    const session = createSession(
      <Agent>
        <Subagent name="constructor" description="One">
          <Instructions>One.</Instructions>
        </Subagent>
        <Subagent name="__proto__" description="Two">
          <Instructions>Two.</Instructions>
        </Subagent>
      </Agent>,
      { model },
    );
    expect((await session.send('go')).text).toBe('both');
    expect(session.subagentRuns.map((r) => [r.name, r.status, r.result])).toEqual([
      ['constructor', 'done', 'from constructor'],
      ['__proto__', 'done', 'from proto'],
    ]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

/** A model that answers the parent from `parent` and every run from `run`, by step. */
function twoFaced(parent: ModelResponse[], run: ModelResponse[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let p = 0;
  let r = 0;
  return {
    name: 'two-faced',
    appendOnly: true,
    requests,
    async generate(req) {
      requests.push(req);
      if (req.subagent) return run[Math.min(r++, run.length - 1)];
      return parent[Math.min(p++, parent.length - 1)];
    },
  };
}

describe("a run's model that emits broken tool calls, or calls finish twice or wrongly", () => {
  const parentSteps = (): ModelResponse[] => [
    { text: '', toolCalls: [{ id: 'p1', name: 'researcher', input: { task: 't' } }] },
    { text: 'went on', toolCalls: [] },
  ];

  it('a fork whose model emits tool calls with null or undefined names or arguments: error results, the run goes on', async () => {
    const broken = [
      { id: 'b1', name: null, input: undefined },
      { id: 'b2', name: undefined, input: null },
      { id: null, name: 'finish', input: undefined },
      { name: 'read_skill', input: null },
      null,
    ] as unknown as ModelResponse['toolCalls'];
    const model = twoFaced(parentSteps(), [
      { text: '', toolCalls: broken },
      { text: 'found it', toolCalls: [] },
    ]);
    const session = createSession(<Researcher context="fork" />, { model });
    const turn = await session.send('go');
    expect(turn.text).toBe('went on');
    const [run] = session.subagentRuns;
    // Either the run read each broken call as an error and went on, or it failed naming itself.
    if (run.status === 'done') {
      expect(run.result).toBe('found it');
      const results = run.transcript.filter((m) => m.role === 'tool');
      for (const result of results) expect(result).toMatchObject({ isError: true });
    } else {
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/^Subagent "researcher"/);
    }
    expect(session.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    JSON.stringify(session.snapshot());
  });

  it('finish called twice in one step: the first valid result ends the run, the second does not run', async () => {
    const model = twoFaced(parentSteps(), [
      {
        text: '',
        toolCalls: [
          { id: 'f1', name: 'finish', input: { answer: 'first' } },
          { id: 'f2', name: 'finish', input: { answer: 'second' } },
        ],
      },
    ]);
    const session = createSession(<Researcher context="fork" result={z.object({ answer: z.string() })} />, { model });
    expect((await session.send('go')).text).toBe('went on');
    const [run] = session.subagentRuns;
    expect(run.result).toEqual({ answer: 'first' });
    expect(JSON.parse(textOf(session.transcript[2]))).toEqual({ answer: 'first' });
    expect(textOf(run.transcript.at(-1)!)).toMatch(/^Not run: the run ended with finish/);
  });

  it('finish with a result its schema refuses, every time: the run fails naming the subagent; the parent goes on', async () => {
    const model = twoFaced(parentSteps(), [
      { text: '', toolCalls: [{ id: 'f1', name: 'finish', input: { answer: 42 } }] },
      { text: '', toolCalls: [{ id: 'f2', name: 'finish', input: '{"answer": null' }] },
      { text: 'I give up', toolCalls: [] },
    ]);
    const session = createSession(<Researcher context="fork" result={z.object({ answer: z.string() })} />, { model });
    expect((await session.send('go')).text).toBe('went on');
    const [run] = session.subagentRuns;
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^Subagent "researcher" ended without calling finish/);
    const errors = run.transcript.filter((m) => m.role === 'tool');
    expect(errors.map((m) => m.role === 'tool' && m.errorKind)).toEqual(['invalid-input', 'invalid-input']);
    expect(session.transcript[2]).toMatchObject({ role: 'tool', isError: true });
  });
});

describe('tool input depth is checked without recursion', () => {
  it('nests at most 100 levels; a cycle never passes; a shared value is walked once per depth', () => {
    expect(nestsWithin(nested(100))).toBe(true);
    expect(nestsWithin(nested(101))).toBe(false);
    expect(nestsWithin(nested(1_000_000))).toBe(false);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(nestsWithin(cycle)).toBe(false);
    // 30 levels of two references to one object: 2^30 paths, walked in 60 visits.
    let shared: unknown = 'leaf';
    for (let i = 0; i < 30; i++) shared = { left: shared, right: shared };
    expect(nestsWithin(shared)).toBe(true);
    expect(nestsWithin('x'.repeat(1000))).toBe(true);
  });

  it('a call whose input nests too deep is kept with a placeholder its error result explains', async () => {
    const model = oneCall('researcher', { task: nested(10_000) });
    const session = createSession(<Researcher />, { model });
    await session.send('go');
    const call = session.transcript[1];
    expect(call.role === 'assistant' && call.toolCalls?.[0].input).toBe(TOO_DEEP_INPUT);
    expect(JSON.stringify(session.snapshot()).length).toBeLessThan(10_000);
  });
});
