/**
 * Which tool error texts an end user may read: the one-line refusals skilltree writes about the
 * model's call, never what a tool or the agent threw.
 */
import type { Message } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import {
  defaultToolErrorText,
  invalidInputForUsers,
  isSchemaRefusal,
  isToolErrorForUsers,
  redactedToolError,
  toUIMessages,
} from '../src/index.js';

describe('a tool error is meant for end users only when skilltree wrote it about the model’s call', () => {
  it("shows skilltree's refusals (unknown tool or skill, arguments that are not JSON) and what became of a call (not run, interrupted, not saved)", () => {
    for (const text of [
      'Unknown tool: buy_insurance. Tools available now: read_skill, add_note.',
      'Unknown tool: refund (skill "refunds" is not loaded; read it first with read_skill). Tools available now: read_skill.',
      'Unknown skill: "billing". Skills: notes.',
      'Invalid input for tool "add_note": the arguments are not valid JSON ({"text": ). Send a JSON object.',
      'Invalid input for tool "ping": it takes no arguments; call it with {}.',
      'Not run: the turn was aborted.',
      'Interrupted: this call did not finish (the process running it stopped). It may or may not have taken effect; check before calling it again.',
      'Tool "bump" ran, but its result could not be saved. It may have taken effect; check before calling it again.',
    ]) {
      expect(isToolErrorForUsers(text), text).toBe(true);
    }
  });

  it('hides what came out of running a tool or the agent, even when it imitates a refusal', () => {
    for (const text of [
      'Tool "orders" failed: connect ECONNREFUSED postgres://admin:pw@db.internal:5432/shop',
      'Tool "orders" failed: Unknown tool: this text came from the tool',
      'Tool "orders" failed: Tool "orders" timed out after 30000 ms.',
      'Tool "orders" returned a value that is not a valid result: the result.conn is a function; return a string or JSON-serialisable data.',
      'Invalid input for tool "orders": the schema threw (lookup failed: ETIMEDOUT 10.0.0.7:5432).',
      'Invalid input for tool "add_note": text: expected string, received number',
      'Invalid input for tool "refund": order: Order 7 belongs to bob@example.com',
      'Invalid input for tool "ping": it takes no arguments; call it with {}. And then some app text',
      'Cannot load skill "billing"; it stays unloaded. Skill "billing" threw while rendering: ENOENT /srv/app/secrets.json',
      'Unknown tool: x. Tools available now: read_skill.\nSkill "notes" was unloaded: it threw: EACCES /home/deploy/.env',
      'Not run: the turn was aborted.\r\nThe agent threw while rendering after this call: password=hunter2',
      'Tool "x" cannot run: its input is not a schema.',
      'Tool "x" failed: Tool "y" ran, but its result could not be saved. (a tool that throws this text)',
      'Tool "x" ran, but its result could not be saved: connection to db.internal:5432 lost',
      '',
    ]) {
      expect(isToolErrorForUsers(text), text).toBe(false);
    }
  });

  it("a refusal by the input schema shows users that the input was not valid, never the schema's messages (a refinement's are the app's)", () => {
    const refusal = (message: string) => ({ message, toolName: 'refund', toolCallId: 'c', forUsers: false });
    for (const text of [
      'Invalid input for tool "refund": order: Order 7 belongs to bob@example.com',
      'Invalid input for tool "refund": order: expected string, received number; amount: too big',
    ]) {
      expect(isSchemaRefusal(text), text).toBe(true);
      expect(defaultToolErrorText(refusal(text))).toBe(
        'Invalid input for tool "refund"; the model was told what to fix.',
      );
    }
    expect(invalidInputForUsers('refund')).toBe('Invalid input for tool "refund"; the model was told what to fix.');
    for (const text of [
      'Invalid input for tool "refund": the schema threw (ETIMEDOUT 10.0.0.7).',
      'Invalid input for tool "refund": the arguments are not valid JSON ({). Send a JSON object.',
      'Invalid input for tool "refund": order: fine\nTool "x" failed: secret',
      'Tool "refund" failed: Invalid input for tool "refund": x',
    ]) {
      expect(isSchemaRefusal(text), text).toBe(false);
    }
    expect(defaultToolErrorText(refusal('Invalid input for tool "refund": the schema threw (pw=hunter2).'))).toBe(
      redactedToolError('refund'),
    );
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
    expect(texts(toUIMessages(transcript))).toEqual([
      redactedToolError('orders'),
      'Unknown tool: nope. Tools available now: none.',
    ]);
    expect(redactedToolError('orders')).toBe('Tool "orders" failed; the details stay on the server.');
    expect(texts(toUIMessages(transcript, { toolErrorText: (e) => `${e.toolCallId}: ${e.message}` }))).toEqual([
      'a: Tool "orders" failed: pw=hunter2',
      'b: Unknown tool: nope. Tools available now: none.',
    ]);
  });
});
