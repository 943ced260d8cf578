/**
 * A store record that cannot be read stands in its place as a placeholder that names the chat, the
 * index and what is wrong, so the transcript a restore gets stays whole: every call keeps a result,
 * positions never shift, and only this package's placeholders report as such.
 */
import { describe, expect, test } from 'vitest';
import { textOf } from '../src/index.js';
import { unreadableRecord } from '../src/provider.js';
import { readStoredMessages } from '../src/sessions/stored-messages.js';

const call = (id: string) => ({ role: 'assistant', content: [], toolCalls: [{ id, name: 'bump', input: {} }] });
const result = (id: string, text = 'bumped') => ({
  role: 'tool',
  toolCallId: id,
  name: 'bump',
  content: [{ type: 'text', text }],
});

describe('reading stored records', () => {
  test('a result that cannot be read keeps answering its call, as an unsaved error naming chat and index', () => {
    const { messages, problems } = readStoredMessages(
      [call('c1'), { role: 'tool', toolCallId: 'c1', name: 'bump', content: [{ type: 'bogus' }] }],
      10,
      'chat-1',
    );
    expect(messages[1]).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true, errorKind: 'unsaved' });
    expect(textOf(messages[1])).toContain('Message 11 of chat "chat-1" could not be read');
    expect(problems).toEqual([{ chat: 'chat-1', index: 11, reason: expect.stringContaining('"bogus"') }]);
    expect(unreadableRecord(messages[1])).toEqual(problems[0]);
  });

  test('a result whose call id was edited answers the first call still open', () => {
    const { messages } = readStoredMessages([call('c1'), { role: 'tool', toolCallId: 42, content: 'x' }], 0, 'c');
    expect(messages[1]).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true });
  });

  test('a call id used twice: the later message stands as a placeholder, and a result for it is an orphan', () => {
    const { messages, problems } = readStoredMessages([call('c1'), result('c1'), call('c1'), result('c1')], 0, 'c');
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant', 'user']);
    expect(problems.map((p) => p.index)).toEqual([2, 3]);
    expect(problems[0].reason).toBe('it reuses tool call id "c1"');
    expect(messages[2]).not.toHaveProperty('toolCalls');
  });

  test('a message that only reads like a placeholder is not one', () => {
    const { messages } = readStoredMessages(
      [{ role: 'user', content: [{ type: 'text', text: 'Message 0 of chat "c" could not be read from the store' }] }],
      0,
      'c',
    );
    expect(unreadableRecord(messages[0])).toBeNull();
  });
});
