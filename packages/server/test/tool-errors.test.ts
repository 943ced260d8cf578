/**
 * Which tool error texts an end user may read: the one-line refusals skilltree writes about the
 * model's call, never what a tool or the agent threw.
 */
import { type Message as CoreMessage, parseMessage, type ToolErrorKind } from '@skilltree/core/provider';

/** Messages as stores wrote them before messages had parts: read upgraded, as a store read is. */
type Message = Record<string, unknown>;
const up = (messages: readonly Message[]): CoreMessage[] => messages.map((m) => parseMessage(m));

import { describe, expect, it } from 'vitest';
import {
  defaultToolErrorText,
  invalidInputForUsers,
  isToolErrorForUsers,
  redactedToolError,
  toolError,
  toUIMessages,
} from '../src/index.js';

describe('a tool error is meant for end users only when skilltree wrote it about the model’s call', () => {
  const error = (message: string, kind: ToolErrorKind | undefined) => toolError(message, 'orders', 'c', kind);

  it("shows skilltree's refusals and what became of a call, by the result's error kind (unknown tool or skill, not run, interrupted, not saved, denied)", () => {
    for (const kind of ['unknown-tool', 'unknown-skill', 'not-run', 'interrupted', 'unsaved', 'denied'] as const) {
      expect(isToolErrorForUsers(kind), kind).toBe(true);
      expect(defaultToolErrorText(error(`text of ${kind}`, kind))).toBe(`text of ${kind}`);
    }
  });

  it('hides what came out of running a tool or the agent, whatever its text imitates: the kind decides, never the words', () => {
    for (const kind of ['threw', 'timeout', 'skill', undefined] as const) {
      expect(isToolErrorForUsers(kind), String(kind)).toBe(false);
      expect(defaultToolErrorText(error('Unknown tool: this text came from the tool', kind))).toBe(
        redactedToolError('orders'),
      );
    }
    // More than one line (a skill's failure appended after the call) is never shown as it is.
    expect(
      defaultToolErrorText(
        error(
          'Unknown tool: x. Tools available now: read_skill.\nSkill "notes" threw: EACCES /home/deploy/.env',
          'unknown-tool',
        ),
      ),
    ).toBe(redactedToolError('orders'));
  });

  it("a refusal of the input shows users that the input was not valid, never the schema's messages (a refinement's are the app's)", () => {
    expect(
      defaultToolErrorText(
        toolError(
          'Invalid input for tool "refund": order: Order 7 belongs to bob@example.com',
          'refund',
          'c',
          'invalid-input',
        ),
      ),
    ).toBe('Invalid input for tool "refund"; the model was told what to fix.');
    expect(invalidInputForUsers('refund')).toBe('Invalid input for tool "refund"; the model was told what to fix.');
  });

  it('toUIMessages applies the same rule by default, and toolErrorText replaces it', () => {
    const transcript: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'orders', input: {} },
          { id: 'b', name: 'nope', input: {} },
        ],
      },
      { role: 'tool', toolCallId: 'a', name: 'orders', content: 'Tool "orders" failed: pw=hunter2', isError: true },
      {
        role: 'tool',
        toolCallId: 'b',
        name: 'nope',
        content: 'Unknown tool: nope. Tools available now: none.',
        isError: true,
      },
    ];
    const texts = (ui: ReturnType<typeof toUIMessages>) =>
      ui[1].parts.map((p) => (p as { errorText?: string }).errorText).filter(Boolean);
    expect(texts(toUIMessages(up(transcript)))).toEqual([
      redactedToolError('orders'),
      'Unknown tool: nope. Tools available now: none.',
    ]);
    expect(redactedToolError('orders')).toBe('Tool "orders" failed; the details stay on the server.');
    expect(texts(toUIMessages(up(transcript), { toolErrorText: (e) => `${e.toolCallId}: ${e.message}` }))).toEqual([
      'a: Tool "orders" failed: pw=hunter2',
      'b: Unknown tool: nope. Tools available now: none.',
    ]);
  });
});
