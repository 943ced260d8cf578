/**
 * One mapping from records to UI parts: the live stream, the resumed stream and the history show a
 * tool result (and the context changes recorded with it) the same way, and they read a change's
 * kind, never its text.
 */
import type { ContextChange, Message, SessionEvent, Sessions, ToolMessage } from '@skilltree/core';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { changeParts, type SkilltreeUIMessage, toUIMessages, turnStream } from '../src/index.js';
import { defaultToolErrorText } from '../src/tool-errors.js';
import { plain } from './helpers.js';
import { resumeFromStart } from './served.js';

/** A skill whose name reads like the end of a lifecycle line, and a line that reads like one. */
const LOADED: ContextChange[] = [
  { kind: 'loaded', skill: 'notes' },
  { kind: 'line', skill: 'notes', text: 'Notes: milk' },
  { kind: 'unloaded', skill: 'a loaded' },
  { kind: 'line', skill: 'agent', text: 'contextChanged notes unloaded' },
];

const result = (id: string, name: string, text: string, extra: Partial<ToolMessage> = {}): ToolMessage => ({
  role: 'tool',
  toolCallId: id,
  name,
  content: [{ type: 'text', text }],
  ...extra,
});

/** One turn: a call whose result records context changes, a call that fails, and the answer. */
const TURN: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'go' }] },
  { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'notes' } }] },
  {
    ...result('c1', 'read_skill', 'Loaded skill "notes".'),
    content: [
      { type: 'text', text: 'Loaded skill "notes".' },
      { type: 'context-changed', changes: LOADED },
    ],
  },
  {
    role: 'assistant',
    content: [{ type: 'text', text: 'Trying.' }],
    toolCalls: [{ id: 'c2', name: 'zap', input: {} }],
  },
  result('c2', 'zap', 'Unknown tool: zap. Tools offered now: read_skill.', {
    isError: true,
    errorKind: 'unknown-tool',
  }),
  { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
];

/** The session events a live turn emits for {@link TURN}, in the order a session emits them. */
async function* events(): AsyncGenerator<SessionEvent> {
  let step = 0;
  for (const message of TURN.slice(1)) {
    if (message.role === 'assistant') {
      yield { type: 'request', step: ++step } as SessionEvent;
      for (const part of message.content) if (part.type === 'text') yield { type: 'text-delta', text: part.text };
      for (const call of message.toolCalls ?? []) yield { type: 'tool-call', toolCall: call };
    } else if (message.role === 'tool') {
      const changes = message.content.flatMap((part) => (part.type === 'context-changed' ? part.changes : []));
      if (changes.length > 0) yield { type: 'context-changed', changes };
      yield { type: 'message', message };
      yield { type: 'tool-result', message };
    }
  }
  yield { type: 'finish', turn: {} } as SessionEvent;
}

async function read(stream: ReadableStream<unknown>): Promise<SkilltreeUIMessage> {
  let last: SkilltreeUIMessage | undefined;
  for await (const message of readUIMessageStream<SkilltreeUIMessage>({
    stream: stream as ReadableStream<UIMessageChunk>,
  })) {
    last = message;
  }
  return last as SkilltreeUIMessage;
}

/** Sessions that hold {@link TURN}, finished: what a resumed stream reads from the store. */
const finished = {
  get: async () => ({ running: null, waiting: [] }),
  messages: async (_id: string, { from = 0, limit = 1_000 }: { from?: number; limit?: number }) =>
    TURN.slice(from, from + limit),
} as unknown as Sessions;

describe('one tool-result mapping for every stream', () => {
  it('live, resumed and history streams show a tool result the same way', async () => {
    const history = toUIMessages(TURN, { idle: true });
    expect(history).toHaveLength(2);
    const shown = history[1].parts;
    const live = await read(
      turnStream({ events: events(), onError: String, toolErrorText: defaultToolErrorText }) as ReadableStream<unknown>,
    );
    const resumed = await read(resumeFromStart(finished) as ReadableStream<unknown>);
    const tools = (parts: SkilltreeUIMessage['parts']) => parts.filter((p) => p.type === 'dynamic-tool');
    const data = (parts: SkilltreeUIMessage['parts']) => parts.filter((p) => p.type.startsWith('data-'));
    for (const streamed of [live, resumed]) {
      expect(plain(tools(streamed.parts))).toEqual(plain(tools(shown)));
      expect(plain(data(streamed.parts))).toEqual(plain(data(shown)));
    }
    expect(plain(tools(shown))).toEqual([
      {
        type: 'dynamic-tool',
        toolName: 'read_skill',
        toolCallId: 'c1',
        state: 'output-available',
        input: { name: 'notes' },
        output: 'Loaded skill "notes".',
      },
      {
        type: 'dynamic-tool',
        toolName: 'zap',
        toolCallId: 'c2',
        state: 'output-error',
        input: {},
        errorText: 'Unknown tool: zap. Tools offered now: read_skill.',
      },
    ]);
  });

  it("the server reads a change's kind, never its text", () => {
    // Read back from the lines, `contextChanged a loaded unloaded` would be a line the context
    // gained; read from its kind it is the unload it is, and a context line that reads like a
    // lifecycle line stays a line.
    expect(changeParts(LOADED)).toEqual([
      { type: 'data-skill-loaded', data: { name: 'notes' } },
      { type: 'data-context-changed', data: { lines: ['contextChanged notes added: Notes: milk'] } },
      { type: 'data-skill-unloaded', data: { name: 'a loaded' } },
      {
        type: 'data-context-changed',
        data: { lines: ['contextChanged agent added: contextChanged notes unloaded'] },
      },
    ]);
  });
});
