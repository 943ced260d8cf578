/**
 * Models without vision (issue 26): a file of a kind the model does not read (`Model.accepts`) is
 * sent as a line of text describing it, the same on every request, in user messages and tool
 * results; the developer is told once per session; the transcript and the store keep the file.
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSession, createSessions, type ModelRequest, scriptedModel } from '../src/index.js';
import { describeFile, sniffMediaType } from '../src/provider.js';
import { png, ScreenshotAgent } from './images.js';

/** A WAV header: RIFF, size, WAVE, and a few bytes. */
function wav(): Uint8Array {
  const bytes = new Uint8Array(44);
  bytes.set([0x52, 0x49, 0x46, 0x46, 36, 0, 0, 0, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20]);
  return bytes;
}
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const PHOTO = { data: png({ extra: 1200 }), mediaType: 'image/png', filename: 'parcel.png' };
const DESCRIBED = '[image parcel.png, image/png, 1 KB: this model cannot read images]';

const replies = (n: number) => Array.from({ length: n }, () => ({ text: 'ok' }));
const warningsOf = (session: { warnings: readonly { message: string }[] }) =>
  session.warnings.filter((w) => w.message.includes('does not take'));

describe('a model without vision is sent a description of each image', () => {
  test('a model with accepts: { images: false } gets a line describing the image, not the image', async () => {
    const model = scriptedModel(replies(1), { accepts: { images: false } });
    const session = createSession(<Agent />, { model });
    await session.send('my parcel arrived like this', { files: [PHOTO] });
    expect(model.requests[0].messages[0].content).toEqual([
      { type: 'text', text: 'my parcel arrived like this' },
      { type: 'text', text: `\n${DESCRIBED}` },
    ]);
  });

  test('the transcript and the store keep the file: only the request differs', async () => {
    const model = scriptedModel(replies(1), { accepts: { images: false } });
    const session = createSession(<Agent />, { model });
    await session.send('look', { files: [PHOTO] });
    expect(session.transcript[0].content[1]).toEqual({
      type: 'file',
      mediaType: 'image/png',
      data: b64(PHOTO.data),
      filename: 'parcel.png',
    });

    const sessions = createSessions(<Agent />, {
      model: () => scriptedModel(replies(1), { accepts: { images: false } }),
    });
    await sessions.send('c', 'look', { files: [PHOTO] });
    const [first] = await sessions.messages('c');
    expect(first.content[1]).toEqual({
      type: 'file',
      mediaType: 'image/png',
      data: b64(PHOTO.data),
      filename: 'parcel.png',
    });
  });

  test('the description is the same on every request, so the prefix is byte-identical', async () => {
    const model = scriptedModel(replies(3), { accepts: { images: false } });
    const session = createSession(<Agent />, { model });
    await session.send('one', { files: [PHOTO] });
    await session.send('two');
    await session.send('three');
    const first = JSON.stringify(model.requests[0].messages[0]);
    expect(JSON.stringify(model.requests[1].messages[0])).toBe(first);
    expect(JSON.stringify(model.requests[2].messages[0])).toBe(first);
  });

  test('append-only requests carry the description too, each the previous request plus what is new', async () => {
    const model = scriptedModel(replies(3), { accepts: { images: false }, appendOnly: true });
    const session = createSession(<Agent />, { model });
    await session.send('one', { files: [PHOTO] });
    await session.send('two', { files: [PHOTO] });
    const items = (r: ModelRequest) => (r.appendOnly?.items ?? []).map((item) => JSON.stringify(item));
    const [a, b] = model.requests.map(items);
    expect(b.slice(0, a.length)).toEqual(a);
    expect(a[0]).toContain(DESCRIBED);
    expect(JSON.stringify(model.requests)).not.toContain(b64(PHOTO.data));
  });

  test('a file in a tool result is described too', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'screenshot', input: {} }] }, { text: 'ok' }], {
      accepts: { images: false },
    });
    const Shot = () => <ScreenshotAgent bytes={png()} filename="page.png" />;
    const session = createSession(<Shot />, { model });
    await session.send('show me');
    expect(model.requests[1].messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'The page:' },
      { type: 'text', text: '\n[image page.png, image/png, 49 B: this model cannot read images]' },
    ]);
    expect(session.transcript[2].content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
  });

  test('the developer is told once per session, however many requests describe a file', async () => {
    const model = scriptedModel(replies(4), { accepts: { images: false, pdf: false } });
    const session = createSession(<Agent />, { model });
    const events: string[] = [];
    session.on('warning', (event) => events.push(event.message));
    await session.send('no files yet');
    expect(warningsOf(session)).toEqual([]);
    await session.send('one', { files: [PHOTO] });
    await session.send('two', { files: [PHOTO] });
    await session.send('three');
    expect(warningsOf(session)).toEqual([
      {
        message:
          "scripted does not take images, PDFs or audio: each such file is sent to it as a line of text describing it (the transcript keeps the file). Use a model that takes them, or set the model's accepts if it does.",
        source: 'skilltree',
      },
    ]);
    expect(events.filter((m) => m.includes('does not take'))).toHaveLength(1);
  });

  test('a model that says nothing reads images and PDFs, as before, and is sent no description', async () => {
    const model = scriptedModel(replies(1));
    const session = createSession(<Agent />, { model });
    await session.send('look', { files: [PHOTO] });
    expect(model.requests[0].messages[0].content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
    expect(warningsOf(session)).toEqual([]);
  });
});

describe('audio', () => {
  test('WAV and MP3 are told by their bytes, and accepted by default', async () => {
    expect(sniffMediaType(wav())).toBe('audio/wav');
    expect(sniffMediaType(new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]))).toBe('audio/mpeg');
    expect(sniffMediaType(new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0, 0]))).toBe('audio/mpeg');
    const session = createSession(<Agent />, { model: scriptedModel(replies(1)) });
    await session.send('listen', { files: [{ data: wav(), mediaType: 'audio/x-wav', filename: 'note.wav' }] });
    expect(session.transcript[0].content[1]).toMatchObject({ type: 'file', mediaType: 'audio/wav' });
  });

  test('audio is described to a model unless it says it hears audio (accepts.audio)', async () => {
    const deaf = scriptedModel(replies(1));
    const hearing = scriptedModel(replies(1), { accepts: { audio: true } });
    for (const model of [deaf, hearing]) {
      const session = createSession(<Agent />, { model });
      await session.send('', { files: [{ data: wav(), filename: 'note.wav' }] });
    }
    expect(deaf.requests[0].messages[0].content).toEqual([
      { type: 'text', text: '[audio note.wav, audio/wav, 44 B: this model cannot hear audio]' },
    ]);
    expect(hearing.requests[0].messages[0].content[0]).toMatchObject({ type: 'file', mediaType: 'audio/wav' });
  });

  test('describeFile names the kind, the file, its type and size, and why', () => {
    expect(describeFile({ type: 'file', mediaType: 'application/pdf', url: 'https://x.test/a.pdf' }, 'no PDFs')).toBe(
      '[PDF, application/pdf: no PDFs]',
    );
  });
});
