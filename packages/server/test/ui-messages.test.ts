/**
 * toUIMessages: the transcript as UIMessage[] — the shape GET /chat/:id answers.
 */
import { type Message as CoreMessage, parseMessage } from '@skilltree/core/provider';

/** Messages as stores wrote them before messages had parts: read upgraded, as a store read is. */
type Message = Record<string, unknown>;
const up = (messages: readonly Message[]): CoreMessage[] => messages.map((m) => parseMessage(m));

import { describe, expect, it } from 'vitest';
import { changeParts, toUIMessages } from '../src/index.js';

describe('toUIMessages', () => {
  it('turns each user message into a user message and the rest of its turn into one assistant message', () => {
    const transcript: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'c1', name: 'find', input: { q: 'x' } }] },
      { role: 'tool', toolCallId: 'c1', name: 'find', content: 'found x' },
      { role: 'assistant', content: 'Here is x.' },
      { role: 'user', content: 'thanks' },
      { role: 'assistant', content: 'You are welcome.' },
    ];
    expect(toUIMessages(up(transcript))).toEqual([
      { id: 'm0', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      {
        id: 'm1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'Let me look.', state: 'done' },
          {
            type: 'dynamic-tool',
            toolName: 'find',
            toolCallId: 'c1',
            state: 'output-available',
            input: { q: 'x' },
            output: 'found x',
          },
          { type: 'step-start' },
          { type: 'text', text: 'Here is x.', state: 'done' },
        ],
      },
      { id: 'm4', role: 'user', parts: [{ type: 'text', text: 'thanks' }] },
      {
        id: 'm5',
        role: 'assistant',
        parts: [{ type: 'step-start' }, { type: 'text', text: 'You are welcome.', state: 'done' }],
      },
    ]);
  });

  it('shows an error result as output-error, and each call where its result came, with that result’s data parts', () => {
    const transcript: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'read_skill', input: { name: 'notes' } },
          { id: 'b', name: 'broken', input: {} },
        ],
      },
      {
        role: 'tool',
        toolCallId: 'a',
        name: 'read_skill',
        content:
          'Loaded.\ncontextChanged notes loaded\ncontextChanged other unloaded\ncontextChanged notes added: Notes: none',
      },
      { role: 'tool', toolCallId: 'b', name: 'broken', content: 'Tool "broken" failed: boom', isError: true },
    ];
    expect(toUIMessages(up(transcript), { start: 10 })[1]).toEqual({
      id: 'm11',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'dynamic-tool',
          toolName: 'read_skill',
          toolCallId: 'a',
          state: 'output-available',
          input: { name: 'notes' },
          output: 'Loaded.',
        },
        { type: 'data-skill-loaded', data: { name: 'notes' } },
        { type: 'data-skill-unloaded', data: { name: 'other' } },
        { type: 'data-context-changed', data: { lines: ['contextChanged notes added: Notes: none'] } },
        {
          type: 'dynamic-tool',
          toolName: 'broken',
          toolCallId: 'b',
          state: 'output-error',
          input: {},
          errorText: 'Tool "broken" failed; the details stay on the server.',
        },
      ],
    });
  });

  it('puts contextChanged lines recorded with a user message at the start of the answer (as the stream does)', () => {
    // Typed parts: a legacy user string is the user's text only (its lines never become changes).
    const said = (text: string, line: string): CoreMessage => ({
      role: 'user',
      content: [
        { type: 'text', text },
        { type: 'context-changed', changes: [{ kind: 'line', skill: 'agent', text: line }] },
      ],
    });
    const transcript: CoreMessage[] = [
      said('hi', 'Time: noon'),
      ...up([{ role: 'assistant', content: 'Hello.' }]),
      said('bye', 'Time: one'),
    ];
    const ui = toUIMessages(transcript);
    expect(ui[0].parts).toEqual([{ type: 'text', text: 'hi' }]);
    expect(ui[1].parts.slice(0, 2)).toEqual([
      { type: 'data-context-changed', data: { lines: ['contextChanged agent added: Time: noon'] } },
      { type: 'step-start' },
    ]);
    // A user message with nobody answering yet: its lines still show, in an assistant message of their own.
    expect(ui.slice(2)).toEqual([
      { id: 'm2', role: 'user', parts: [{ type: 'text', text: 'bye' }] },
      {
        id: 'm3',
        role: 'assistant',
        parts: [{ type: 'data-context-changed', data: { lines: ['contextChanged agent added: Time: one'] } }],
      },
    ]);
  });

  it('keeps a quoted look-alike in the text: only real contextChanged lines become data parts', () => {
    const ui = toUIMessages(up([{ role: 'user', content: 'see\n\\contextChanged notes loaded' }]));
    expect(ui).toEqual([
      { id: 'm0', role: 'user', parts: [{ type: 'text', text: 'see\n\\contextChanged notes loaded' }] },
    ]);
  });

  it('changeParts reads a line that merely ends in "loaded" as an added line', () => {
    expect(changeParts([{ kind: 'line', skill: 'notes', text: 'files loaded' }])).toEqual([
      { type: 'data-context-changed', data: { lines: ['contextChanged notes added: files loaded'] } },
    ]);
  });
});

describe('toUIMessages: an approved call', () => {
  const transcript = up([
    { role: 'user', content: 'refund it' },
    { role: 'assistant', content: 'Refunding.', toolCalls: [{ id: 'c1', name: 'refund', input: { cents: 100 } }] },
  ]);
  const approved = [
    {
      toolCallId: 'c1',
      name: 'refund',
      input: { cents: 100 },
      for: 'approval' as const,
      skill: null,
      status: 'running' as const,
      incarnation: 'i1',
    },
  ];
  const tool = (messages: ReturnType<typeof toUIMessages>) => messages[1].parts.find((p) => p.type === 'dynamic-tool');

  it('asks for approval no more once approved: running while a turn runs, interrupted once none does', () => {
    expect(tool(toUIMessages(transcript, { waiting: approved }))).toMatchObject({ state: 'input-available' });
    expect(tool(toUIMessages(transcript, { waiting: approved, idle: true }))).toMatchObject({
      state: 'output-error',
      errorText: expect.stringContaining('Interrupted'),
    });
    const waiting = [{ ...approved[0], status: 'waiting' as const }];
    expect(tool(toUIMessages(transcript, { waiting, idle: true }))).toMatchObject({
      state: 'approval-requested',
      approval: { id: 'i1.c1' },
    });
  });
});
