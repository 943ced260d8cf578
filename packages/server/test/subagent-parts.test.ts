/**
 * Subagent runs on the page, from the event and record shapes alone: one `data-subagent` part per run
 * (id = the run's id) that the live stream updates in place, the same part in `GET /chat/:id` and in
 * a resumed stream, nested runs naming their parent, and errors as users may read them.
 */
import type { Message, SessionEvent, Sessions, SubagentRun, ToolMessage } from '@skilltree/core';
import { subagentRun } from '@skilltree/test-kit';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { parseChatBody, type SkilltreeUIMessage, toUIMessages, turnStream } from '../src/index.js';
import { defaultToolErrorText } from '../src/tool-errors.js';
import { plain } from './helpers.js';
import { resumeFromStart } from './served.js';

const SECRET = 'postgres://admin:hunter2@db.internal:5432/orders';

const text = (t: string) => [{ type: 'text' as const, text: t }];
const result = (id: string, name: string, t: string, extra: Partial<ToolMessage> = {}): ToolMessage => ({
  role: 'tool',
  toolCallId: id,
  name,
  content: text(t),
  ...extra,
});

/** The run's conversation: its task, a lookup, a call that fails with a secret, its answer. */
const RUN_TRANSCRIPT: Message[] = [
  { role: 'user', content: text('Research order A-1.') },
  { role: 'assistant', content: text('Looking.'), toolCalls: [{ id: 'r1', name: 'lookup', input: { order: 'A-1' } }] },
  result('r1', 'lookup', 'A-1: shipped'),
  { role: 'assistant', content: [], toolCalls: [{ id: 'r2', name: 'connect_db', input: {} }] },
  result('r2', 'connect_db', `Tool "connect_db" failed: connect ECONNREFUSED ${SECRET}`, {
    isError: true,
    errorKind: 'threw',
  }),
  { role: 'assistant', content: text('A-1 shipped on 2025-10-12.') },
];

const run = (over: Partial<SubagentRun> = {}): SubagentRun =>
  subagentRun({
    status: 'done',
    transcript: RUN_TRANSCRIPT,
    usage: { inputTokens: 120, outputTokens: 30 },
    result: 'A-1 shipped on 2025-10-12.',
    ...over,
  });

/** The parent's turn: it calls the researcher, gets its result, answers. */
const TURN: Message[] = [
  { role: 'user', content: text('When did A-1 ship?') },
  {
    role: 'assistant',
    content: [],
    toolCalls: [{ id: 'c1', name: 'researcher', input: { task: 'Research order A-1.' } }],
  },
  result('c1', 'researcher', 'A-1 shipped on 2025-10-12.'),
  { role: 'assistant', content: text('It shipped on 2025-10-12.') },
];

/** The events of the run's own turn, as its session emits them. */
function* runEvents(transcript: readonly Message[]): Generator<SessionEvent> {
  let step = 0;
  for (const message of transcript.slice(1)) {
    if (message.role === 'assistant') {
      yield { type: 'request', step: ++step } as SessionEvent;
      for (const part of message.content) if (part.type === 'text') yield { type: 'text-delta', text: part.text };
      yield { type: 'step-finish', step, usage: { inputTokens: 40, outputTokens: 10 } };
      yield { type: 'message', message };
      for (const call of message.toolCalls ?? []) yield { type: 'tool-call', toolCall: call };
    } else if (message.role === 'tool') {
      yield { type: 'message', message };
      yield { type: 'tool-result', message };
    }
  }
}

/** The parent's events, with the run's wrapped in `subagent-event` between its call and its result. */
async function* events(): AsyncGenerator<SessionEvent> {
  yield { type: 'request', step: 1 } as SessionEvent;
  const call = (TURN[1] as Extract<Message, { role: 'assistant' }>).toolCalls?.[0];
  if (call) yield { type: 'tool-call', toolCall: call };
  yield { type: 'subagent-start', run: run({ status: 'running', transcript: RUN_TRANSCRIPT.slice(0, 1), usage: {} }) };
  for (const event of runEvents(RUN_TRANSCRIPT)) {
    yield { type: 'subagent-event', runId: 'run_c1', name: 'researcher', event };
  }
  yield { type: 'subagent-finish', run: run() };
  yield { type: 'tool-result', message: TURN[2] as ToolMessage };
  yield { type: 'request', step: 2 } as SessionEvent;
  yield { type: 'text-delta', text: 'It shipped on 2025-10-12.' };
  yield { type: 'finish', turn: {} } as SessionEvent;
}

async function read(
  stream: ReadableStream<unknown>,
): Promise<{ message: SkilltreeUIMessage; chunks: UIMessageChunk[] }> {
  const chunks: UIMessageChunk[] = [];
  const tapped = (stream as ReadableStream<UIMessageChunk>).pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        // A copy: the reader puts a new data part's chunk on the message and updates it in place.
        chunks.push(structuredClone(chunk));
        controller.enqueue(chunk);
      },
    }),
  );
  let last: SkilltreeUIMessage | undefined;
  for await (const message of readUIMessageStream<SkilltreeUIMessage>({ stream: tapped })) last = message;
  return { message: last as SkilltreeUIMessage, chunks };
}

const live = () => read(turnStream({ events: events(), onError: String, toolErrorText: defaultToolErrorText }));
const runParts = (message: SkilltreeUIMessage) => message.parts.filter((p) => p.type === 'data-subagent');

describe('subagent runs on the page', () => {
  it("a run streams as one data-subagent part whose id is the run's, updated in place: its text, its tool calls, its status", async () => {
    const { message, chunks } = await live();
    const updates = chunks.filter((c) => c.type === 'data-subagent');
    // Several updates on the wire, one part on the page.
    expect(updates.length).toBeGreaterThan(3);
    expect(new Set(updates.map((c) => (c as { id?: string }).id))).toEqual(new Set(['run_c1']));
    expect((updates[0] as { data: { status: string } }).data.status).toBe('running');
    const parts = runParts(message);
    expect(parts).toHaveLength(1);
    expect(plain(parts[0])).toEqual({
      type: 'data-subagent',
      id: 'run_c1',
      data: {
        name: 'researcher',
        toolCallId: 'c1',
        depth: 1,
        context: 'isolated',
        status: 'done',
        items: [
          { type: 'text', text: 'Looking.' },
          {
            type: 'tool',
            toolCallId: 'r1',
            toolName: 'lookup',
            input: { order: 'A-1' },
            state: 'output-available',
            output: 'A-1: shipped',
          },
          {
            type: 'tool',
            toolCallId: 'r2',
            toolName: 'connect_db',
            input: {},
            state: 'output-error',
            errorText: 'Tool "connect_db" failed; the details stay on the server.',
          },
          { type: 'text', text: 'A-1 shipped on 2025-10-12.' },
        ],
        usage: { inputTokens: 120, outputTokens: 30 },
      },
    });
    // The run follows its call's tool part; its result is the tool's output.
    const tool = message.parts.findIndex((p) => p.type === 'dynamic-tool');
    expect(message.parts.indexOf(parts[0])).toBeGreaterThan(tool);
    expect(message.parts[tool]).toMatchObject({
      toolCallId: 'c1',
      state: 'output-available',
      output: 'A-1 shipped on 2025-10-12.',
    });
    expect(JSON.stringify(chunks)).not.toContain('hunter2');
  });

  it('while it runs, the part shows what the run did so far: its calls before their results, its text as it streams', async () => {
    const { chunks } = await live();
    const states = chunks
      .filter((c) => c.type === 'data-subagent')
      .map((c) => (c as unknown as { data: { items: { type: string; state?: string }[] } }).data.items);
    expect(states.some((items) => items.some((i) => i.type === 'tool' && i.state === 'input-available'))).toBe(true);
    expect(states.some((items) => items.length === 1 && items[0].type === 'text')).toBe(true);
  });

  it('GET /chat/:id and a resumed stream show a run as the live stream left it', async () => {
    const { message } = await live();
    const history = toUIMessages(TURN, { idle: true, subagentRuns: [run()] });
    expect(plain(runParts(history[1]))).toEqual(plain(runParts(message)));
    const sessions = {
      get: async () => ({ running: null, waiting: [] }),
      messages: async (_id: string, { from = 0, limit = 1_000 }: { from?: number; limit?: number }) =>
        TURN.slice(from, from + limit),
      subagentRuns: async () => [run()],
    } as unknown as Sessions;
    const resumed = await read(resumeFromStart(sessions));
    expect(plain(runParts(resumed.message))).toEqual(plain(runParts(message)));
  });

  it('a run spawned inside a run is a part of its own that names its parent run, after it', () => {
    const nested = run({ id: 'run_r9', toolCallId: 'r9', parentRunId: 'run_c1', depth: 2, name: 'fact_checker' });
    const other = run({ id: 'run_x', toolCallId: 'x', name: 'not_this_turn' });
    const history = toUIMessages(TURN, { idle: true, subagentRuns: [nested, run(), other] });
    const parts = runParts(history[1]) as { id: string; data: { parentRunId?: string; depth: number } }[];
    expect(parts.map((p) => [p.id, p.data.parentRunId, p.data.depth])).toEqual([
      ['run_c1', undefined, 1],
      ['run_r9', 'run_c1', 2],
    ]);
  });

  it("a failed run's error reaches the page as users may read it: the subagent named, never the cause's details", () => {
    const failed = run({ status: 'failed', error: `Subagent "researcher" failed: ${SECRET}` });
    const [part] = runParts(toUIMessages(TURN, { idle: true, subagentRuns: [failed] })[1]) as {
      data: { status: string; error?: string };
    }[];
    expect(part.data.status).toBe('failed');
    expect(part.data.error).toBe('Tool "researcher" failed; the details stay on the server.');
    expect(JSON.stringify(part)).not.toContain('hunter2');
  });

  it('a run inside a run streams too: its events wrapped in its parent run’s reach the page as its own part', async () => {
    const inner = run({ id: 'run_r9', toolCallId: 'r9', parentRunId: 'run_c1', depth: 2, name: 'fact_checker' });
    async function* nested(): AsyncGenerator<SessionEvent> {
      yield { type: 'subagent-start', run: run({ status: 'running', transcript: [], usage: {} }) };
      const wrap = (event: SessionEvent): SessionEvent => ({
        type: 'subagent-event',
        runId: 'run_c1',
        name: 'researcher',
        event,
      });
      yield wrap({ type: 'subagent-start', run: { ...inner, status: 'running', transcript: [] } });
      yield wrap({
        type: 'subagent-event',
        runId: 'run_r9',
        name: 'fact_checker',
        event: { type: 'tool-call', toolCall: { id: 'f1', name: 'lookup', input: {} } },
      });
      yield wrap({ type: 'subagent-finish', run: inner });
      yield { type: 'subagent-finish', run: run() };
      yield { type: 'finish', turn: {} } as SessionEvent;
    }
    const { message, chunks } = await read(turnStream({ events: nested(), onError: String }));
    const calls = chunks
      .filter((c) => c.type === 'data-subagent' && (c as { id?: string }).id === 'run_r9')
      .map((c) => (c as unknown as { data: { items: unknown[] } }).data.items.length);
    expect(calls).toContain(1);
    expect(runParts(message).map((p) => (p as { id: string }).id)).toEqual(['run_c1', 'run_r9']);
  });
});

describe('a call that waits inside a run', () => {
  const refund = { id: 'r1', name: 'refund', input: { order: 'A-1' } };
  const waitingCall = {
    toolCallId: 'r1',
    name: 'refund',
    input: { order: 'A-1' },
    for: 'approval' as const,
    skill: null,
    status: 'waiting' as const,
    incarnation: 'inc',
    path: ['researcher', 'refund'],
  };
  const waitingRun = run({
    status: 'waiting',
    result: undefined,
    transcript: [RUN_TRANSCRIPT[0], { role: 'assistant', content: [], toolCalls: [refund] }],
  });

  it("asks on the tool part of the parent's call, with the approval of the call inside; the run's part shows which call waits", async () => {
    async function* waiting(): AsyncGenerator<SessionEvent> {
      yield { type: 'request', step: 1 } as SessionEvent;
      yield { type: 'tool-call', toolCall: { id: 'c1', name: 'researcher', input: { task: 'Refund A-1.' } } };
      yield {
        type: 'subagent-start',
        run: run({ status: 'running', transcript: RUN_TRANSCRIPT.slice(0, 1), usage: {} }),
      };
      yield {
        type: 'subagent-event',
        runId: 'run_c1',
        name: 'researcher',
        event: { type: 'tool-call', toolCall: refund },
      };
      yield {
        type: 'subagent-event',
        runId: 'run_c1',
        name: 'researcher',
        event: { type: 'waiting', calls: [waitingCall] },
      };
      yield { type: 'waiting', calls: [waitingCall] };
      yield { type: 'finish', turn: { text: '', steps: 1, messages: [], waiting: [waitingCall] } };
    }
    const { message, chunks } = await read(turnStream({ events: waiting(), onError: String }));
    expect(chunks.filter((c) => c.type === 'tool-approval-request')).toEqual([
      { type: 'tool-approval-request', approvalId: 'inc.r1', toolCallId: 'c1' },
    ]);
    expect(message.parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({
      toolCallId: 'c1',
      state: 'approval-requested',
      approval: { id: 'inc.r1' },
    });
    const [part] = runParts(message) as {
      data: { status: string; items: { toolCallId?: string; state?: string }[] };
    }[];
    expect(part.data.status).toBe('waiting');
    expect(part.data.items).toMatchObject([{ toolCallId: 'r1', state: 'approval-requested' }]);
  });

  it('GET /chat/:id shows it so too: the parent’s call asks for the approval, never shows as interrupted', () => {
    const history = toUIMessages(TURN.slice(0, 2), { idle: true, waiting: [waitingCall], subagentRuns: [waitingRun] });
    expect(history[1].parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({
      toolCallId: 'c1',
      state: 'approval-requested',
      approval: { id: 'inc.r1' },
    });
    // Without the run's call waiting, the same call with no result and no turn running was cut off.
    const cut = toUIMessages(TURN.slice(0, 2), { idle: true, subagentRuns: [waitingRun] });
    expect(cut[1].parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({ state: 'output-error' });
  });

  it("useChat's answer on the parent's part names the call inside: the body carries it beside the part's own call", () => {
    const body = JSON.stringify({
      id: 'c',
      messages: [
        {
          id: 'm1',
          role: 'assistant',
          parts: [
            {
              type: 'dynamic-tool',
              toolName: 'researcher',
              toolCallId: 'c1',
              state: 'approval-responded',
              input: { task: 'Refund A-1.' },
              approval: { id: 'inc.r1', approved: true },
            },
          ],
        },
      ],
    });
    expect(parseChatBody(body, 10_000).answers).toEqual([
      {
        toolCallId: 'c1',
        type: 'approve',
        input: { task: 'Refund A-1.' },
        inside: { incarnation: 'inc', toolCallId: 'r1' },
      },
    ]);
  });
});
