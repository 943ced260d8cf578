import { Agent, createSessions, FileRejectedError, type Model, Tool, textOf, toolResult } from '@skilltree/core';
import { createElement as h } from 'react';
import { expect, test } from 'vitest';
import type { Suite } from './suite.js';

/** A PNG header and padding: 80 bytes. A limit of 200 holds two, not three. */
function png(): Uint8Array {
  const file = new Uint8Array(80);
  file.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return file;
}

/** Replies `ok`, or calls `shot` once when the user's text is `shoot`. */
const shooting = (): Model => ({
  name: 'shooting',
  async generate(req) {
    const last = req.messages.at(-1);
    if (last?.role === 'user' && textOf(last).startsWith('shoot')) {
      return { text: '', toolCalls: [{ id: '', name: 'shot', input: {} }] };
    }
    return { text: 'ok', toolCalls: [] };
  },
});

/** An agent whose `shot` tool returns the 80-byte image (as a tool, or an MCP server's result, does). */
const shooter = () =>
  h(
    Agent,
    null,
    h(Tool, { name: 'shot', description: 'A screenshot', run: () => toolResult('The page:', { data: png() }) }),
  );

/** Files: `files.maxChatBytes` counts every file that entered the chat, kept in its record for every process. */
export function fileTests(suite: Suite): void {
  const { newId } = suite;

  test("files count once, whole: the chat's file total (users' and tools' files, over the whole transcript) is kept in its record, and every process refuses past files.maxChatBytes", async () => {
    const { a, b, c } = suite;
    const id = newId('file-total');
    // Two messages per request: older files leave the window and memory, and still count.
    const options = { model: shooting(), files: { maxChatBytes: 200 }, maxTranscriptMessages: 2 };
    const one = createSessions(shooter(), { store: a, ...options });
    const two = createSessions(shooter(), { store: b, ...options });
    await one.send(id, 'photo', { files: [{ data: png() }] });
    for (const text of ['one', 'two', 'three']) await two.send(id, text);
    // A tool's file counts the same as a user's, in another process.
    await two.send(id, 'shoot');
    expect((await c.record(id))?.state.fileBytes).toBe(160);
    for (const s of [one, two]) {
      const error = await s.send(id, 'more', { files: [{ data: png() }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FileRejectedError);
      expect(error).toMatchObject({
        code: 'chat-too-large',
        message: 'The chat would hold 240 bytes of files; at most 200 (files.maxChatBytes).',
      });
    }
    // A tool's file past the limit makes its call an error result, and adds nothing.
    await one.send(id, 'shoot again');
    const messages = await c.messages(id, 0, 100);
    const result = messages.filter((m) => m.role === 'tool').at(-1);
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result as never)).toMatch(/refused: The chat would hold 240 bytes of files; at most 200/);
    expect((await a.record(id))?.state.fileBytes).toBe(160);
  });
}
