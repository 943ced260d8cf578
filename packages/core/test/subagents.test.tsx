/**
 * SPEC §19, the subagent itself: its tool, its own agent, what each call mounts, its input, its
 * result, and the errors that name it. Every rule is a test named after it.
 */
import { useEffect, useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createAgentStore,
  createSession,
  Instructions,
  type ModelRequest,
  ownTextOf,
  type SessionEvent,
  Skill,
  Subagent,
  scriptedModel,
  Text,
  Tool,
  textOf,
  useAgentStore,
} from '../src/index.js';

const notes = createAgentStore('notes', () => ({ lines: [] as string[] }));
const mounts: string[] = [];

function Researcher() {
  const [reads, setReads] = useState(0);
  const ref = useRef(0);
  useEffect(() => {
    mounts.push('researcher mounted');
    return () => void mounts.push('researcher unmounted');
  }, []);
  return (
    <>
      <Instructions>You research orders. Answer in three lines.</Instructions>
      <Text>
        Reads: {reads} ref: {ref.current}
      </Text>
      <Tool
        name="read_record"
        description="Read one record"
        input={z.object({ id: z.string() })}
        run={({ id }, ctx) => {
          setReads((n) => n + 1);
          ref.current++;
          notes.of(ctx).setState((s) => ({ lines: [...s.lines, id] }));
          return `record ${id}: shipped`;
        }}
      />
      <Skill name="archive" description="Old orders">
        <Tool name="read_archive" description="Read the archive" run={() => 'archived'} />
      </Skill>
    </>
  );
}

function App({ inSkill = false }: { inSkill?: boolean }) {
  const lines = useAgentStore(notes, (s) => s.lines);
  const sub = (
    <Subagent name="researcher" description="Research an order's history">
      <Researcher />
    </Subagent>
  );
  return (
    <Agent>
      <Instructions>You are a support agent.</Instructions>
      <Text>Notes: {lines.join(', ') || 'none'}</Text>
      {inSkill ? (
        <Skill name="orders" description="Orders">
          {sub}
        </Skill>
      ) : (
        sub
      )}
      <Skill name="billing" description="Invoices">
        <Tool name="invoice" description="Send an invoice" run={() => 'sent'} />
      </Skill>
    </Agent>
  );
}

const call = (task: string, id?: string) => ({ ...(id ? { id } : {}), name: 'researcher', input: { task } });

describe('the tool a <Subagent> renders', () => {
  it('renders a tool named `name` whose input defaults to { task: string }', () => {
    const session = createSession(<App />);
    const tool = session.request().tools.find((t) => t.name === 'researcher');
    expect(tool?.description).toBe("Research an order's history");
    expect(tool?.inputSchema).toMatchObject({
      type: 'object',
      properties: { task: { type: 'string' } },
      required: ['task'],
    });
  });

  it('inside a <Skill> it is offered only while that skill is loaded; a call of it otherwise is Unknown tool', async () => {
    const model = scriptedModel([{ toolCalls: [call('history of A-1')] }, { text: 'ok' }]);
    const session = createSession(<App inSkill />, { model });
    expect(session.request().tools.map((t) => t.name)).not.toContain('researcher');
    const turn = await session.send('look up A-1');
    const result = turn.messages.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ isError: true, errorKind: 'unknown-tool' });
    expect(textOf(result!)).toMatch(/^Unknown tool: researcher/);
    await session.readSkill('orders');
    expect(session.request().tools.map((t) => t.name)).toContain('researcher');
  });
});

describe('a run is an agent of its own', () => {
  it("calling it runs children with their own skills, catalog, loaded set and transcript; the parent's are untouched", async () => {
    const model = scriptedModel([{ toolCalls: [call('history of A-1')] }, { text: 'A-1 shipped.' }], {
      subagents: {
        researcher: [
          { toolCalls: [{ name: 'read_skill', input: { name: 'archive' } }] },
          { toolCalls: [{ name: 'read_record', input: { id: 'A-1' } }] },
          { text: 'A-1: shipped on time.' },
        ],
      },
    });
    const session = createSession(<App />, { model });
    const turn = await session.send('look up A-1');
    expect(turn.text).toBe('A-1 shipped.');
    const runRequests = model.requests.filter((r) => r.subagent?.name === 'researcher');
    expect(runRequests).toHaveLength(3);
    // Its own system prompt (instructions and catalog), never the parent's.
    expect(runRequests[0].system).toContain('You research orders.');
    expect(runRequests[0].system).toContain('archive');
    expect(runRequests[0].system).not.toContain('support agent');
    expect(runRequests[0].system).not.toContain('billing');
    expect(runRequests[2].tools.map((t) => t.name)).toEqual(['read_skill', 'read_record', 'read_archive']);
    // The parent's loaded set and transcript hold none of the run's.
    expect(session.loadedSkills).toEqual([]);
    expect(session.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const result = session.transcript[2];
    expect(ownTextOf(result)).toBe('A-1: shipped on time.');
    const [run] = session.subagentRuns;
    expect(run).toMatchObject({ id: 'run_call_1', name: 'researcher', toolCallId: 'call_1', depth: 1, status: 'done' });
    expect(run.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });

  it("each call mounts children afresh: useState and refs start over and are dropped when the run ends; stores are the chat's", async () => {
    mounts.length = 0;
    const reads = [{ toolCalls: [{ name: 'read_record', input: { id: 'A-1' } }] }, { text: 'done' }];
    const contexts: string[] = [];
    const model = scriptedModel(
      [{ toolCalls: [call('first')] }, { toolCalls: [call('second')] }, { text: 'both done' }],
      {
        subagents: {
          researcher: [
            (req: ModelRequest) => {
              contexts.push(req.context);
              return reads[0];
            },
            reads[1],
            (req: ModelRequest) => {
              contexts.push(req.context);
              return reads[0];
            },
            reads[1],
          ],
        },
      },
    );
    const session = createSession(<App />, { model });
    await session.send('two lookups');
    // The second run starts from initial state: its first request shows Reads 0 again.
    expect(contexts).toHaveLength(2);
    expect(contexts[0]).toContain('Reads: 0 ref: 0');
    expect(contexts[1]).toContain('Reads: 0 ref: 0');
    expect(mounts).toEqual([
      'researcher mounted',
      'researcher unmounted',
      'researcher mounted',
      'researcher unmounted',
    ]);
    // The store is the chat's: both runs wrote into it, and the parent reads it.
    expect(session.store(notes).getState().lines).toEqual(['A-1', 'A-1']);
    expect(session.request().context).toContain('Notes: A-1, A-1');
  });

  it("an isolated run's conversation starts with one user message carrying the task; it sees nothing of the parent's", async () => {
    const model = scriptedModel([{ toolCalls: [call('history of A-1')] }, { text: 'ok' }], {
      subagents: { researcher: [{ text: 'shipped' }] },
    });
    const session = createSession(<App />, { model });
    await session.send('a secret the run never sees');
    const first = model.requests.find((r) => r.subagent)!;
    expect(first.messages).toHaveLength(1);
    expect(first.messages[0].role).toBe('user');
    expect(textOf(first.messages[0])).toBe('history of A-1');
    expect(JSON.stringify(first)).not.toContain('a secret the run never sees');
    expect(first.subagent).toEqual({ name: 'researcher', runId: 'run_call_1', depth: 1 });
  });

  it('an input other than { task } reaches the run as JSON', async () => {
    const model = scriptedModel(
      [{ toolCalls: [{ name: 'lookup', input: { order: 'A-1', deep: true } }] }, { text: 'ok' }],
      {
        subagents: { lookup: [{ text: 'found' }] },
      },
    );
    const session = createSession(
      <Agent>
        <Subagent name="lookup" description="Look up" input={z.object({ order: z.string(), deep: z.boolean() })}>
          <Instructions>Look it up.</Instructions>
        </Subagent>
      </Agent>,
      { model },
    );
    await session.send('go');
    const first = model.requests.find((r) => r.subagent)!;
    expect(textOf(first.messages[0])).toBe('{"order":"A-1","deep":true}');
  });
});

describe('what a run returns', () => {
  const Typed = () => (
    <Agent>
      <Subagent
        name="grader"
        description="Grade an answer"
        result={z.object({ score: z.number().min(0).max(10), why: z.string() })}
      >
        <Instructions>Grade it.</Instructions>
      </Subagent>
    </Agent>
  );

  it("with `result`, the run offers finish; its validated input ends the run and is the parent's tool result", async () => {
    const model = scriptedModel(
      [{ toolCalls: [{ name: 'grader', input: { task: 'grade 42' } }] }, { text: 'graded' }],
      {
        subagents: {
          grader: [
            { toolCalls: [{ name: 'finish', input: { score: 11, why: 'too high' } }] },
            {
              toolCalls: [
                { name: 'finish', input: { score: 7, why: 'fine' } },
                { name: 'finish', input: { score: 1, why: 'x' } },
              ],
            },
          ],
        },
      },
    );
    const session = createSession(<Typed />, { model });
    await session.send('grade');
    const runRequests = model.requests.filter((r) => r.subagent);
    expect(runRequests[0].tools.map((t) => t.name)).toContain('finish');
    // An input that fails `result` is an error result the run reads; it tries again.
    expect(runRequests[1].messages.at(-1)).toMatchObject({ role: 'tool', isError: true, errorKind: 'invalid-input' });
    expect(JSON.parse(textOf(session.transcript[2]))).toEqual({ score: 7, why: 'fine' });
    const [run] = session.subagentRuns;
    expect(run.result).toEqual({ score: 7, why: 'fine' });
    // Nothing after the finishing call runs.
    expect(textOf(run.transcript.at(-1)!)).toMatch(/^Not run: the run ended with finish/);
    expect(runRequests).toHaveLength(2);
  });

  it('without `result`, the run’s last text reply is the result', async () => {
    const model = scriptedModel([{ toolCalls: [call('t')] }, { text: 'ok' }], {
      subagents: { researcher: [{ text: 'three lines' }] },
    });
    const session = createSession(<App />, { model });
    await session.send('go');
    expect(textOf(session.transcript[2])).toBe('three lines');
    expect(session.subagentRuns[0].result).toBe('three lines');
  });

  it('a run that reaches maxSteps is an error result naming the subagent, and the parent goes on', async () => {
    const loop = { toolCalls: [{ name: 'read_record', input: { id: 'A-1' } }] };
    const model = scriptedModel([{ toolCalls: [call('t')] }, { text: 'the parent goes on' }], {
      subagents: { researcher: [loop, loop] },
    });
    const session = createSession(
      <Agent>
        <Subagent name="researcher" description="Research" maxSteps={2}>
          <Researcher />
        </Subagent>
      </Agent>,
      { model },
    );
    const turn = await session.send('go');
    expect(turn.text).toBe('the parent goes on');
    expect(session.transcript[2]).toMatchObject({ role: 'tool', isError: true });
    expect(textOf(session.transcript[2])).toMatch(/Subagent "researcher" reached its maxSteps \(2\)/);
    expect(session.subagentRuns[0]).toMatchObject({ status: 'failed' });
    expect(session.subagentRuns[0].error).toMatch(/Subagent "researcher"/);
  });

  it('a run whose model fails is an error result naming the subagent and the cause, and the parent goes on', async () => {
    const model = scriptedModel([{ toolCalls: [call('t')] }, { text: 'sorry' }], {
      subagents: {
        researcher: [
          () => {
            throw new Error('rate limited');
          },
        ],
      },
    });
    const session = createSession(<App />, { model });
    const turn = await session.send('go');
    expect(turn.text).toBe('sorry');
    expect(textOf(session.transcript[2])).toMatch(/Subagent "researcher" failed: rate limited/);
  });

  it('a run may render subagents of its own, up to maxSubagentDepth; deeper is an error naming the subagent', async () => {
    function Nested({ level }: { level: number }) {
      return (
        <Subagent name={`level${level}`} description={`Level ${level}`}>
          <Instructions>Level {level}.</Instructions>
          <Nested level={level + 1} />
        </Subagent>
      );
    }
    const model = scriptedModel([{ toolCalls: [{ name: 'level1', input: { task: 'go' } }] }, { text: 'top' }], {
      subagents: {
        level1: [{ toolCalls: [{ name: 'level2', input: { task: 'go' } }] }, { text: 'one' }],
        level2: [{ toolCalls: [{ name: 'level3', input: { task: 'go' } }] }, { text: 'two' }],
      },
    });
    const session = createSession(
      <Agent>
        <Nested level={1} />
      </Agent>,
      { model, maxSubagentDepth: 2 },
    );
    await session.send('go');
    const runs = session.subagentRuns;
    expect(runs.map((r) => [r.name, r.depth, r.status])).toEqual([
      ['level1', 1, 'done'],
      ['level2', 2, 'done'],
      ['level3', 3, 'failed'],
    ]);
    expect(runs[1].parentRunId).toBe(runs[0].id);
    expect(runs[2].error).toMatch(/Subagent "level3" cannot run: it would be 3 runs deep, and maxSubagentDepth is 2/);
    expect(new Set(runs.map((r) => r.id)).size).toBe(3);
  });
});

describe('events', () => {
  it('a run reports subagent-start, its own events as subagent-event, and subagent-finish', async () => {
    const model = scriptedModel([{ toolCalls: [call('t')] }, { text: 'ok' }], {
      subagents: { researcher: [{ toolCalls: [{ name: 'read_record', input: { id: 'A-1' } }] }, { text: 'done' }] },
    });
    const session = createSession(<App />, { model });
    const events: SessionEvent[] = [];
    for await (const event of session.stream('go')) events.push(event);
    const types = events.filter((e) => e.type.startsWith('subagent')).map((e) => e.type);
    expect(types[0]).toBe('subagent-start');
    expect(types.at(-1)).toBe('subagent-finish');
    const inner = events.flatMap((e) => (e.type === 'subagent-event' ? [e.event.type] : []));
    expect(inner).toEqual(expect.arrayContaining(['request', 'tool-call', 'tool-result', 'step-finish', 'finish']));
    const finish = events.find((e) => e.type === 'subagent-finish');
    expect(finish).toMatchObject({ run: { status: 'done', result: 'done' } });
  });
});
