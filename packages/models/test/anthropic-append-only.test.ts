/**
 * The append-only body: built from `request.appendOnly` (system, tools, items), notes as
 * mid-conversation system messages with tool additions by value and removals, placed where the API
 * takes them, every body the previous one plus appended messages, and breakpoints that only move
 * forward.
 */
import type { AppendOnlyItem, ModelRequest, SystemNote, ToolSpec } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { anthropicAppendOnlyBody, INLINE_TOOLS_BETA, TOOL_CHANGES_BETA } from '../src/anthropic.js';
import { anthropicProblem } from './helpers/anthropic-rules.js';
import { text } from './helpers/request.js';

const MODEL = 'claude-opus-5-5';
const CACHE = { type: 'ephemeral' };
const tool = (name: string): ToolSpec => ({ name, description: `The ${name} tool`, inputSchema: { type: 'object' } });
const READ = tool('read_skill');
const REFUND = tool('refund_order');

function request(items: AppendOnlyItem[], system = 'You run operations.', tools = [READ]): ModelRequest {
  return {
    // The classic fields say something else: the append-only body never reads them.
    system: 'classic system',
    context: '<current_context>classic</current_context>',
    contextPlacement: 'end',
    tools: [tool('classic_tool')],
    messages: [],
    appendOnly: { system, tools, items },
  };
}
const body = (items: AppendOnlyItem[], options: { cache?: boolean } = {}) =>
  anthropicAppendOnlyBody(request(items), { model: MODEL, cache: options.cache ?? false })!;
const note = (over: Partial<SystemNote>): SystemNote => ({
  role: 'system',
  text: '',
  addedTools: [],
  removedTools: [],
  ...over,
});
const betas = (items: AppendOnlyItem[]) => body(items).betas;
const unmarked = (value: unknown) => JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v));

// A conversation: a read loads `refunds` (its note adds refund_order), a refund, an unload.
const user = (t: string): AppendOnlyItem => ({ role: 'user', content: text(t) });
const call = (id: string, name: string): AppendOnlyItem => ({
  role: 'assistant',
  content: [
    {
      type: 'reasoning',
      provider: 'anthropic',
      model: MODEL,
      text: `why ${id}`,
      providerData: { signature: `sig-${id}` },
    },
  ],
  toolCalls: [{ id, name, input: {} }],
});
const result = (id: string, name: string, t = 'ok'): AppendOnlyItem => ({
  role: 'tool',
  toolCallId: id,
  name,
  content: text(t),
});
const reply = (t: string): AppendOnlyItem => ({ role: 'assistant', content: text(t) });
const loaded = note({ text: 'Skill "refunds" loaded: Refunds within 30 days.', addedTools: [REFUND] });
const unloaded = note({ removedTools: ['refund_order'] });
const CONVERSATION: AppendOnlyItem[] = [
  user('refund 7'),
  call('t1', 'read_skill'),
  result('t1', 'read_skill', 'Loaded skill "refunds".'),
  loaded,
  call('t2', 'refund_order'),
  result('t2', 'refund_order', 'refunded 7'),
  reply('Refunded.'),
  user('thanks, that is all'),
  unloaded,
  reply('Bye.'),
  user('one more thing'),
];

describe('the append-only body', () => {
  it('system and tools come from appendOnly; the classic fields are not read', () => {
    const b = body([user('hi')]);
    expect(b.system).toEqual([{ type: 'text', text: 'You run operations.' }]);
    expect(b.tools).toEqual([
      { name: 'read_skill', description: 'The read_skill tool', input_schema: { type: 'object' } },
    ]);
    expect(b.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(b.thinking).toEqual({ type: 'adaptive' });
    expect(JSON.stringify(b)).not.toContain('classic');
  });

  it('a note is a system message: its text, a removal by reference, an addition by value (tools never change)', () => {
    const items = [
      user('go'),
      call('t1', 'read_skill'),
      result('t1', 'read_skill'),
      note({ text: 'Skill "b" loaded.', removedTools: ['refund_order'], addedTools: [tool('send_invoice')] }),
    ];
    expect(body(items).messages[3]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'Skill "b" loaded.' },
        { type: 'tool_removal', tool: { type: 'tool_reference', name: 'refund_order' } },
        {
          type: 'tool_addition',
          tool: {
            type: 'tool_definition',
            definition: {
              name: 'send_invoice',
              description: 'The send_invoice tool',
              input_schema: { type: 'object' },
            },
          },
        },
      ],
    });
    expect(betas(items)).toEqual([INLINE_TOOLS_BETA, TOOL_CHANGES_BETA]);
    expect(body(items).tools).toEqual(body([user('go')]).tools);
  });

  it('a tool added again with another definition while on offer is removed first: no name is offered twice', () => {
    const renamed = { ...REFUND, description: 'Refund (new rules)' };
    const messages = body([
      user('go'),
      note({ addedTools: [REFUND] }),
      reply('ok'),
      user('again'),
      note({ addedTools: [renamed] }),
    ]).messages;
    expect(messages[4].content).toEqual([
      { type: 'tool_removal', tool: { type: 'tool_reference', name: 'refund_order' } },
      {
        type: 'tool_addition',
        tool: { type: 'tool_definition', definition: expect.objectContaining({ description: 'Refund (new rules)' }) },
      },
    ]);
    // A tool of the first request's `tools` too.
    const again = body([user('go'), note({ addedTools: [{ ...READ, description: 'Read a skill (v2)' }] })]).messages[1];
    expect((again.content as { type: string }[]).map((b) => b.type)).toEqual(['tool_removal', 'tool_addition']);
  });

  it('a note with text only needs no beta; an empty note is not sent', () => {
    expect(betas([user('go'), note({ text: 'The date is 2026-12-01.' })])).toBeUndefined();
    expect(body([user('go'), note({})]).messages).toHaveLength(1);
  });

  it('a note waits for the end of the run of user-role messages it follows or sits in', () => {
    const messages = body([
      note({ text: 'first' }), // before any user message: after it
      user('go'),
      call('t1', 'read_skill'),
      note({ text: 'between a call and its result' }),
      result('t1', 'read_skill'),
      reply('Done.'),
      note({ text: 'after an assistant message' }),
      user('next'),
    ]).messages;
    expect(
      messages.map((m) => `${m.role}${m.role === 'system' ? ` ${(m.content as { text: string }[])[0].text}` : ''}`),
    ).toEqual([
      'user',
      'system first',
      'assistant',
      'user',
      'system between a call and its result',
      'assistant',
      'user',
      'system after an assistant message',
    ]);
  });

  it('tool results and the user message after them are one user turn, results first', () => {
    const messages = body([user('go'), call('t1', 'read_skill'), result('t1', 'read_skill'), user('and?')]).messages;
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'ok' },
        { type: 'text', text: 'and?' },
      ],
    });
  });

  it('every body is the previous one plus appended messages (cache marks aside)', () => {
    let previous: unknown[] | undefined;
    for (let n = 1; n <= CONVERSATION.length; n++) {
      const b = body(CONVERSATION.slice(0, n), { cache: true });
      const messages = b.messages as unknown[];
      if (previous) {
        // The last turn of the previous body may only gain blocks at its end (a user turn before any assistant message).
        const prefix = previous.slice(0, -1);
        expect(unmarked(messages.slice(0, prefix.length))).toBe(unmarked(prefix));
        const last = JSON.parse(unmarked(previous[previous.length - 1]));
        const now = JSON.parse(unmarked(messages[prefix.length]));
        expect(now.role).toBe(last.role);
        expect(now.content.slice(0, last.content.length)).toEqual(last.content);
      }
      expect(unmarked(b.system)).toBe(unmarked(body([user('x')]).system));
      expect(unmarked(b.tools)).toBe(unmarked(body([user('x')]).tools));
      previous = messages;
    }
  });

  it('the API’s rules take the whole conversation (tool changes placed and announced)', () => {
    const b = body(CONVERSATION);
    expect(anthropicProblem(b, (b.betas ?? []).join(','))).toBeNull();
  });

  it('breakpoints: the system prompt, the end of the previous request, the end of this one; never a thinking block', () => {
    const b = body(CONVERSATION.slice(0, 6), { cache: true });
    const marks: string[] = [];
    if ((b.system as { cache_control?: unknown }[])[0].cache_control) marks.push('system');
    for (const [i, m] of (
      b.messages as { role: string; content: { type: string; cache_control?: unknown }[] }[]
    ).entries()) {
      for (const [j, block] of m.content.entries()) if (block.cache_control) marks.push(`${i}.${j} ${block.type}`);
    }
    // Messages: user, assistant, user(result), system(load), assistant(refund), user(result).
    expect(marks).toEqual(['system', '3.1 tool_addition', '5.0 tool_result']);
    expect(b.tools?.some((t) => 'cache_control' in t)).toBe(false);
    // Without a system prompt, the last tool carries the first mark.
    const bare = anthropicAppendOnlyBody(request([user('x')], ''), { model: MODEL })!;
    expect(bare.system).toBeUndefined();
    expect(bare.tools?.[0]).toMatchObject({ name: 'read_skill', cache_control: CACHE });
  });

  it('is null for a request without appendOnly', () => {
    const req = request([]);
    delete req.appendOnly;
    expect(anthropicAppendOnlyBody(req, { model: MODEL })).toBeNull();
  });
});
