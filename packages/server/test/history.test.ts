/**
 * historyCut: where GET /chat/:id starts when the transcript is longer than maxHistoryMessages.
 */
import type { Sessions } from '@skilltree/core';

/** Messages as stores wrote them before messages had parts (historyCut reads only roles and calls). */
type Message = Record<string, unknown> & { role: string };

import { describe, expect, it } from 'vitest';
import { historyCut } from '../src/history.js';

/** Sessions that only read `transcript` (from index `gone` on; earlier messages are no longer stored). */
function reading(transcript: Message[], gone = 0): Sessions {
  return {
    messages: async (_id: string, page: { from?: number; limit?: number } = {}) => {
      const from = Math.max(page.from ?? 0, gone);
      return transcript.slice(from, Math.max(from, (page.from ?? 0) + (page.limit ?? 50)));
    },
  } as unknown as Sessions;
}

const user = (content: string): Message => ({ role: 'user', content });
const calls = (...ids: string[]): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, name: 'fetch', input: { id } })),
});
const result = (id: string): Message => ({ role: 'tool', toolCallId: id, name: 'fetch', content: `got ${id}` });

describe('historyCut', () => {
  /** One turn of 1 + 1 + 250 + 1 messages: a step with 250 calls. */
  const many = Array.from({ length: 250 }, (_, i) => `c${i}`);
  const transcript: Message[] = [
    user('fetch all'),
    calls(...many),
    ...many.map(result),
    { role: 'assistant', content: 'Done.' },
  ];

  it('a window of tool results only brings in their call, with just the calls they answer (one message more)', async () => {
    const cut = await historyCut(reading(transcript), 'c', 'alice', transcript.length, 3);
    expect(cut.start).toBe(transcript.length - 4);
    expect(cut.callsFrom).toBe(1);
    expect(cut.messages).toEqual([calls('c248', 'c249'), result('c248'), result('c249'), transcript.at(-1)]);
  });

  it('finds the call more than a page of results back', async () => {
    const cut = await historyCut(reading(transcript), 'c', 'alice', transcript.length - 1, 1);
    expect(cut.messages).toEqual([calls('c249'), result('c249')]);
    expect(cut.callsFrom).toBe(1);
  });

  it('results whose call is no longer stored are left out; shown alone only when nothing else is left', async () => {
    const cut = await historyCut(reading(transcript, 2), 'c', 'alice', transcript.length, 3);
    expect(cut.messages).toEqual([transcript.at(-1)]);
    const alone = await historyCut(reading(transcript, 2), 'c', 'alice', transcript.length - 1, 2);
    expect(alone.messages).toEqual([result('c248'), result('c249')]);
  });

  it('whole turns when the window holds a user message; everything when the transcript fits', async () => {
    const two = [...transcript, user('again'), { role: 'assistant', content: 'Hi.' } as Message];
    const cut = await historyCut(reading(two), 'c', 'alice', two.length, 5);
    expect(cut.messages).toEqual(two.slice(-2));
    expect(cut.start).toBe(two.length - 2);
    const all = await historyCut(reading(two), 'c', 'alice', two.length, 1_000);
    expect(all).toEqual({ messages: two, start: 0 });
  });
});
