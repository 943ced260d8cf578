/**
 * A message's files are read once: `createSessions` checks each file before the chat is touched,
 * and the turn then adds only the chat's total, without decoding or sniffing the bytes again.
 */
import { describe, expect, test, vi } from 'vitest';
import * as bytes from '../src/files/bytes.js';
import { Agent, createSession, createSessions, FileRejectedError, scriptedModel } from '../src/index.js';
import { png } from './images.js';

// The sniffer, as it is, counted: every check of a file's type reads its bytes through it.
vi.mock('../src/files/bytes.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/files/bytes.js')>();
  return { ...actual, sniffMediaType: vi.fn(actual.sniffMediaType) };
});

/** A PNG header and `extra` bytes: enough for the sniffer. */
const pngOf = (extra = 40) => png({ extra, width: 0, height: 0 });

/** Times the sniffer read a whole file of `length` bytes (the token estimate reads only a header). */
function sniffsOf(length: number): number {
  return vi.mocked(bytes.sniffMediaType).mock.calls.filter(([read]) => read.length === length).length;
}

const echo = () => scriptedModel([{ text: 'seen' }, { text: 'seen' }]);

describe('files are checked once per message', () => {
  test("createSessions sniffs a file's bytes once per message: before the chat is touched, not again in the turn", async () => {
    const sessions = createSessions(<Agent />, { model: () => echo() });
    const file = pngOf();
    vi.mocked(bytes.sniffMediaType).mockClear();
    await sessions.send('c', 'photo', { files: [{ data: file, mediaType: 'image/png' }] });
    expect(sniffsOf(file.length)).toBe(1);
    const [first] = await sessions.messages('c');
    expect(first.content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
    await sessions.close();
  });

  test('the chat total is still checked in the turn: a message over files.maxChatBytes is refused and not recorded', async () => {
    const sessions = createSessions(<Agent />, { model: () => echo(), files: { maxChatBytes: 120 } });
    await sessions.send('c', 'one', { files: [{ data: pngOf(60) }] });
    const error = await sessions.send('c', 'two', { files: [{ data: pngOf(60) }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FileRejectedError);
    expect((error as FileRejectedError).code).toBe('chat-too-large');
    expect((await sessions.messages('c')).map((m) => m.role)).toEqual(['user', 'assistant']);
    await sessions.close();
  });

  test('a file list createSessions did not check is checked whole: HTML dressed as a PNG part is refused, never trusted as checked', async () => {
    const session = createSession(<Agent />, { model: echo() });
    const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
    const forged = [{ type: 'file' as const, mediaType: 'image/png', data: html }];
    const error = await session.send('look', { files: forged }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FileRejectedError);
    expect(session.transcript).toEqual([]);
  });
});
