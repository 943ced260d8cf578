/**
 * Files count once, whole: `files.maxChatBytes` counts every file that entered the chat (a user's, a
 * tool's), over the whole transcript (not the window in memory), kept in the chat's record so every
 * process counts the same; and HTML or SVG hidden in a text file is refused as HTML and SVG are.
 */
import { describe, expect, test } from 'vitest';
import {
  Agent,
  createSession,
  createSessions,
  FileRejectedError,
  memoryStore,
  restoreSession,
  scriptedModel,
  textOf,
} from '../src/index.js';
import { png, ScreenshotAgent } from './images.js';

/** 80 bytes each: a limit of 200 holds two, not three. */
const FILE = png({ extra: 47, width: 0, height: 0 });
const LIMIT = 200;

async function rejection(send: () => Promise<unknown>): Promise<FileRejectedError> {
  const error = await send().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileRejectedError);
  return error as FileRejectedError;
}

/** An agent whose `shot` tool returns the 80-byte image. */
const Shooter = () => <ScreenshotAgent bytes={FILE} name="shot" description="A screenshot" />;

const shotThenText = (n: number) =>
  Array.from({ length: n }, () => [{ toolCalls: [{ name: 'shot', input: {} }] }, { text: 'seen' }]).flat();

describe('files.maxChatBytes counts every file that entered the chat', () => {
  test("a tool's files count toward files.maxChatBytes: one past it makes the call an error result that names the limit", async () => {
    const session = createSession(<Shooter />, {
      model: scriptedModel(shotThenText(3)),
      files: { maxChatBytes: LIMIT },
    });
    await session.send('one');
    await session.send('two');
    await session.send('three');
    const results = session.transcript.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.isError === true)).toEqual([false, false, true]);
    expect(textOf(results[2])).toMatch(
      /^Tool "shot" returned a file that was refused: The chat would hold 240 bytes of files; at most 200 \(files\.maxChatBytes\)\./,
    );
    expect(results[2].content.some((p) => p.type === 'file')).toBe(false);
  });

  test("a user's file is refused once the tools' files filled the chat", async () => {
    const session = createSession(<Shooter />, {
      model: scriptedModel(shotThenText(2)),
      files: { maxChatBytes: LIMIT },
    });
    await session.send('one');
    await session.send('two');
    const before = session.transcript.length;
    const error = await rejection(() => session.send('mine', { files: [{ data: FILE }] }));
    expect(error.code).toBe('chat-too-large');
    expect(error.message).toBe('The chat would hold 240 bytes of files; at most 200 (files.maxChatBytes).');
    expect(session.transcript).toHaveLength(before);
  });

  test('files that left the window (and memory) still count: createSessions keeps the total in the chat’s record', async () => {
    const store = memoryStore();
    const options = {
      store,
      model: () => scriptedModel(Array.from({ length: 10 }, () => ({ text: 'seen' }))),
      files: { maxChatBytes: LIMIT },
      maxTranscriptMessages: 2,
    };
    const one = createSessions(<Agent />, options);
    await one.send('c', 'first', { files: [{ data: FILE }] });
    for (const text of ['a', 'b', 'c']) await one.send('c', text);
    await one.send('c', 'second', { files: [{ data: FILE }] });
    expect((await store.record('c'))?.state.fileBytes).toBe(160);
    // Another process, which loads only the window, counts the same total.
    const two = createSessions(<Agent />, options);
    for (const text of ['d', 'e', 'f']) await two.send('c', text);
    const error = await rejection(() => two.send('c', 'third', { files: [{ data: FILE }] }));
    expect(error.code).toBe('chat-too-large');
    await rejection(() => one.send('c', 'third', { files: [{ data: FILE }] }));
    expect((await store.record('c'))?.state.fileBytes).toBe(160);
    await one.close();
    await two.close();
  });

  test("a tool's files are kept in the record's total too, and a file refused adds nothing", async () => {
    const store = memoryStore();
    const sessions = createSessions(<Shooter />, {
      store,
      model: () => scriptedModel(shotThenText(3)),
      files: { maxChatBytes: LIMIT },
    });
    await sessions.send('c', 'one');
    expect((await store.record('c'))?.state.fileBytes).toBe(80);
    await sessions.send('c', 'two', { files: [{ data: FILE }] });
    expect((await store.record('c'))?.state.fileBytes).toBe(240 - 80);
    await sessions.close();
  });

  test("a snapshot keeps the chat's total; a missing or lowered total counts the files its transcript holds", async () => {
    const session = createSession(<Agent />, { model: scriptedModel([{ text: 'a' }, { text: 'b' }]) });
    await session.send('one', { files: [{ data: FILE }] });
    const snapshot = session.snapshot();
    expect(snapshot.fileBytes).toBe(80);
    const kept = { ...snapshot, transcript: snapshot.transcript.slice(1), transcriptStart: 1, fileBytes: 160 };
    const restored = restoreSession(<Agent />, kept, { model: scriptedModel([]), files: { maxChatBytes: LIMIT } });
    expect((await rejection(() => restored.send('x', { files: [{ data: FILE }] }))).code).toBe('chat-too-large');
    for (const lowered of [0, -5, Number.NaN, '9' as unknown as number]) {
      const tampered = restoreSession(
        <Agent />,
        { ...snapshot, fileBytes: lowered },
        {
          model: scriptedModel([]),
          files: { maxChatBytes: 120 },
        },
      );
      expect((await rejection(() => tampered.send('x', { files: [{ data: FILE }] }))).code).toBe('chat-too-large');
    }
  });
});

describe('HTML and SVG inside text files are refused', () => {
  const hostile: [string, string, string][] = [
    [
      'HTML after a leading comment',
      'text/plain',
      '<!-- notes -->\n<html><body><script>alert(1)</script></body></html>',
    ],
    ['a script after a comment', 'text/plain', '<!-- x --><script>alert(1)</script>'],
    [
      'XHTML',
      'text/plain',
      '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
    ],
    ['XHTML by its namespace alone', 'text/plain', '<?xml version="1.0"?><page xmlns="http://www.w3.org/1999/xhtml"/>'],
    ['a meta refresh', 'text/plain', '<meta http-equiv="refresh" content="0;url=https://evil.example">'],
    [
      'a meta refresh after text',
      'text/plain',
      'Hello!\n<meta http-equiv="refresh" content="0;url=https://evil.example">',
    ],
    ['Markdown with <img onerror>', 'text/markdown', '# Notes\n\nSee ![x](y).\n\n<img src=x onerror=alert(1)>\n'],
    ['Markdown with a javascript: link', 'text/markdown', '# Hi\n<a href="javascript:alert(1)">click</a>'],
    ['Markdown with an iframe', 'text/markdown', 'Intro\n\n<iframe src="https://evil.example"></iframe>'],
    [
      'SVG after a comment',
      'text/plain',
      '<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>',
    ],
    ['SVG inside Markdown', 'text/markdown', '# Chart\n<svg onload=alert(1)></svg>'],
    ['a CSV cell with a script', 'text/csv', 'name,note\nann,"<script>alert(1)</script>"'],
    ['HTML past the first 64 KB', 'text/plain', `${'plain line\n'.repeat(7000)}<script>alert(1)</script>`],
  ];
  for (const [what, mediaType, text] of hostile) {
    test(`${what} is refused as HTML or SVG, and nothing is recorded`, async () => {
      const session = createSession(<Agent />, { model: scriptedModel([{ text: 'seen' }]) });
      const data = new TextEncoder().encode(text);
      const error = await rejection(() =>
        session.send('read this', { files: [{ data, mediaType, filename: 'n.txt' }] }),
      );
      expect(error.code).toBe('type-mismatch');
      expect(error.message).toMatch(
        /^File "n\.txt" is (HTML|SVG)( declared as [a-z/]+)?; it can carry script and is not accepted\.$/,
      );
      expect(session.transcript).toEqual([]);
    });
  }

  test('text that only talks about markup, or Markdown with inline HTML that runs nothing, is accepted', async () => {
    const session = createSession(<Agent />, { model: scriptedModel([{ text: 'seen' }]) });
    const benign = [
      '<p align="center">My project</p>\n\n# Readme\n\nUse `a < b` and x<y>z; one-liner: 1 <2.',
      'Turn it on, then off. The online = true setting, and <https://example.com/?a=b> autolinks.',
    ];
    await session.send('docs', {
      files: benign.map((text, i) => ({
        data: new TextEncoder().encode(text),
        mediaType: 'text/markdown',
        filename: `${i}.md`,
      })),
    });
    expect(session.transcript[0].content.filter((p) => p.type === 'file')).toHaveLength(2);
  });
});
