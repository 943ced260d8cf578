/**
 * Files in a conversation (issue 26): a user sends images and documents beside the text, a tool
 * returns them, and every hostile file is refused with the chat left as it was.
 */
import { describe, expect, test } from 'vitest';
import {
  Agent,
  createSession,
  createSessions,
  FileRejectedError,
  restoreSession,
  scriptedModel,
  textOf,
} from '../src/index.js';
import { estimateFileTokens } from '../src/provider.js';
import { png, ScreenshotAgent } from './images.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const html = new TextEncoder().encode('<!DOCTYPE html><script>alert(1)</script>');
const svg = new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script/></svg>');

const echo = () => scriptedModel([{ text: 'seen' }, { text: 'seen' }, { text: 'seen' }]);

async function refused(send: () => Promise<unknown>, code: string) {
  const error = await send().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileRejectedError);
  expect((error as FileRejectedError).code).toBe(code);
  return error as FileRejectedError;
}

describe('files a user sends', () => {
  test('a user can send an image beside the text: the message holds a text part, then a file part', async () => {
    const model = echo();
    const session = createSession(<Agent />, { model });
    await session.send('my parcel', { files: [{ data: png(), mediaType: 'image/png', filename: 'parcel.png' }] });
    expect(session.transcript[0].content).toEqual([
      { type: 'text', text: 'my parcel' },
      { type: 'file', mediaType: 'image/png', data: b64(png()), filename: 'parcel.png' },
    ]);
    expect(model.requests[0].messages[0].content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
  });

  test('a message may be files only; the bytes decide the type when none is declared; a data URL works', async () => {
    const session = createSession(<Agent />, { model: echo() });
    await session.send('', { files: [{ data: `data:image/png;base64,${b64(png())}` }] });
    await session.send('', { files: [{ data: png() }] });
    expect(session.transcript[0].content).toEqual([{ type: 'file', mediaType: 'image/png', data: b64(png()) }]);
    expect(session.transcript[2].content).toEqual([{ type: 'file', mediaType: 'image/png', data: b64(png()) }]);
  });

  test('a .png that is HTML is refused, and the chat is untouched', async () => {
    const session = createSession(<Agent />, { model: echo() });
    const error = await refused(
      () => session.send('look', { files: [{ data: html, mediaType: 'image/png', filename: 'cat.png' }] }),
      'type-mismatch',
    );
    expect(error.message).toMatch(/File "cat.png" is HTML declared as image\/png/);
    expect(session.transcript).toEqual([]);
  });

  test('SVG is never accepted as an image, whatever it is declared as', async () => {
    const session = createSession(<Agent />, { model: echo() });
    await refused(() => session.send('x', { files: [{ data: svg, mediaType: 'image/svg+xml' }] }), 'type-mismatch');
    await refused(() => session.send('x', { files: [{ data: svg, mediaType: 'image/png' }] }), 'type-mismatch');
    await refused(() => session.send('x', { files: [{ data: svg }] }), 'type-mismatch');
    expect(session.transcript).toEqual([]);
  });

  test('a declared type must agree with the bytes', async () => {
    const session = createSession(<Agent />, { model: echo() });
    const error = await refused(
      () => session.send('x', { files: [{ data: png(), mediaType: 'application/pdf' }] }),
      'type-mismatch',
    );
    expect(error.message).toBe('File 1 is declared application/pdf, but its bytes are image/png.');
  });

  test('an empty file, malformed base64 and a malformed data URL are refused', async () => {
    const session = createSession(<Agent />, { model: echo() });
    await refused(() => session.send('x', { files: [{ data: new Uint8Array(0), mediaType: 'image/png' }] }), 'empty');
    await refused(() => session.send('x', { files: [{ data: 'not base64!!', mediaType: 'image/png' }] }), 'malformed');
    await refused(() => session.send('x', { files: [{ data: 'data:image/png;base64' }] }), 'malformed');
    await refused(() => session.send('x', { files: [{ data: 'data:image/png;base64,@@@@' }] }), 'malformed');
    await refused(() => session.send('x', { files: [null as never] }), 'malformed');
    expect(session.transcript).toEqual([]);
  });

  test('a file over files.maxFileBytes is refused before its base64 is decoded', async () => {
    const session = createSession(<Agent />, { model: echo(), files: { maxFileBytes: 1_000 } });
    const huge = 'A'.repeat(50_000_000);
    const error = await refused(
      () => session.send('x', { files: [{ data: huge, mediaType: 'image/png' }] }),
      'too-large',
    );
    expect(error.message).toContain('files.maxFileBytes');
  });

  test('more files than files.maxFilesPerMessage, or more bytes than files.maxMessageBytes, are refused', async () => {
    const session = createSession(<Agent />, { model: echo(), files: { maxFilesPerMessage: 2, maxMessageBytes: 100 } });
    await refused(() => session.send('x', { files: [{ data: png() }, { data: png() }, { data: png() }] }), 'too-many');
    await refused(
      () => session.send('x', { files: [{ data: png({ extra: 60 }) }, { data: png({ extra: 60 }) }] }),
      'message-too-large',
    );
  });

  test('a chat never holds more than files.maxChatBytes of files', async () => {
    const session = createSession(<Agent />, { model: echo(), files: { maxChatBytes: 120 } });
    await session.send('one', { files: [{ data: png({ extra: 60 }) }] });
    await refused(() => session.send('two', { files: [{ data: png({ extra: 60 }) }] }), 'chat-too-large');
    expect(session.transcript.map((m) => textOf(m))).toEqual(['one[file: image/png]', 'seen']);
  });

  test('a remote URL is refused unless its host is allowed, and skilltree never fetches it', async () => {
    const session = createSession(<Agent />, { model: echo(), files: { allowUrlHosts: ['cdn.example.com'] } });
    await refused(
      () => session.send('x', { files: [{ url: 'http://169.254.169.254/latest', mediaType: 'image/png' }] }),
      'url-not-allowed',
    );
    await refused(
      () => session.send('x', { files: [{ url: 'https://evil.example.net/a.png', mediaType: 'image/png' }] }),
      'url-not-allowed',
    );
    await session.send('x', { files: [{ url: 'https://cdn.example.com/a.png', mediaType: 'image/png' }] });
    expect(session.transcript[0].content[1]).toEqual({
      type: 'file',
      mediaType: 'image/png',
      url: 'https://cdn.example.com/a.png',
    });
  });

  test('file limits that are not positive numbers are refused when the session is made', () => {
    expect(() => createSession(<Agent />, { files: { maxFileBytes: -1 } })).toThrow(
      'files.maxFileBytes must be a positive number',
    );
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 0, '10' as unknown as number]) {
      expect(() => createSession(<Agent />, { files: { maxChatBytes: bad } })).toThrow(
        'files.maxChatBytes must be a positive number',
      );
    }
  });

  test('createSessions checks files before the chat is touched, and keeps the files with the chat', async () => {
    const sessions = createSessions(<Agent />, { model: () => echo() });
    await refused(() => sessions.send('c', 'x', { files: [{ data: html, mediaType: 'image/png' }] }), 'type-mismatch');
    expect(await sessions.get('c')).toBeNull();
    await sessions.send('c', 'photo', { files: [{ data: png(), filename: 'p.png' }] });
    const [first] = await sessions.messages('c');
    expect(first.content[1]).toEqual({ type: 'file', mediaType: 'image/png', data: b64(png()), filename: 'p.png' });
  });
});

describe('files a tool returns', () => {
  const Shot = ({ bytes }: { bytes: Uint8Array }) => <ScreenshotAgent bytes={bytes} />;

  test('a tool can return an image with toolResult: the result holds its text, then the file', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'screenshot', input: {} }] }, { text: 'I see it.' }]);
    const session = createSession(<Shot bytes={png()} />, { model });
    await session.send('show me');
    const result = session.transcript[2];
    expect(result.content).toEqual([
      { type: 'text', text: 'The page:' },
      { type: 'file', mediaType: 'image/png', data: b64(png()) },
    ]);
    expect(model.requests[1].messages.at(-1)?.content[1]).toMatchObject({ type: 'file' });
  });

  test('a file a tool returns is checked like a user’s: a refused one makes the call an error result', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'screenshot', input: {} }] }, { text: 'ok' }]);
    const session = createSession(<Shot bytes={html} />, { model });
    await session.send('show me');
    expect(session.transcript[2]).toMatchObject({ isError: true, errorKind: 'threw' });
    expect(textOf(session.transcript[2])).toMatch(
      /^Tool "screenshot" returned a file that was refused: File 1 is HTML/,
    );
  });
});

describe('files are kept and counted', () => {
  test('files survive a snapshot and restore byte-exact', async () => {
    const session = createSession(<Agent />, { model: echo() });
    await session.send('a', { files: [{ data: png(), filename: 'a.png' }] });
    const restored = restoreSession(<Agent />, JSON.stringify(session.snapshot()), { model: echo() });
    expect(restored.transcript[0]).toEqual(session.transcript[0]);
  });

  test('images count in token estimates by their size, as providers bill them', () => {
    expect(
      estimateFileTokens({ type: 'file', mediaType: 'image/png', data: b64(png({ width: 750, height: 750 })) }),
    ).toBe(750);
    expect(
      estimateFileTokens({ type: 'file', mediaType: 'image/png', data: b64(png({ width: 4000, height: 4000 })) }),
    ).toBe(1600);
  });
});
