/**
 * The playground's protocol for files and waiting calls, against `startDevServer` in its own process
 * on the desk fixture (a model that answers by rules): files sent with a message reach the model
 * and the transcript, refused ones record nothing; calls that wait are in the state, answered
 * through `POST /api/answer`, and still there for a page that connects later.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevState, TurnReply } from '../src/commands/dev/protocol.js';
import { PIXEL_PNG } from './dev-fixtures/notes-agent/desk-agent.js';
import { fixtureCopy, type ServerProcess, startServerProcess } from './dev-helpers.js';

let fixture: ReturnType<typeof fixtureCopy>;
let server: ServerProcess;

async function post(path: string, body: unknown): Promise<{ status: number; json: TurnReply }> {
  const res = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const state = async (): Promise<DevState> => (await fetch(new URL('/api/state', server.url))).json();

beforeAll(async () => {
  fixture = fixtureCopy();
  server = await startServerProcess(join(fixture.dir, 'desk-agent.tsx'));
});

afterAll(async () => {
  await server?.stop();
  fixture?.cleanup();
});

describe('skilltree dev: files', () => {
  it('sends files with the message: the model request carries them as file parts, the transcript keeps them', async () => {
    const { status, json } = await post('/api/send', {
      text: 'My parcel arrived like this',
      files: [{ data: `data:image/png;base64,${PIXEL_PNG}`, mediaType: 'image/png', filename: 'parcel.png' }],
    });
    expect(status).toBe(200);
    expect(json).toEqual({ ok: true, text: 'I received parcel.png (image/png, bytes).', steps: 1, waiting: [] });
    const s = await state();
    expect(s.transcript[0].content).toEqual([
      { type: 'text', text: 'My parcel arrived like this' },
      { type: 'file', mediaType: 'image/png', data: PIXEL_PNG, filename: 'parcel.png' },
    ]);
  });

  it('sends a message of files only (empty text)', async () => {
    const { json } = await post('/api/send', { text: '', files: [{ data: PIXEL_PNG, filename: 'only.png' }] });
    expect(json).toMatchObject({ ok: true, text: 'I received only.png (image/png, bytes).' });
  });

  it('refuses a file whose bytes are HTML named .png with 400 and its reason, recording nothing', async () => {
    const before = await state();
    const html = Buffer.from('<!doctype html><html><script>alert(1)</script></html>').toString('base64');
    const { status, json } = await post('/api/send', {
      text: 'look',
      files: [{ data: `data:image/png;base64,${html}`, mediaType: 'image/png', filename: 'evil.png' }],
    });
    expect(status).toBe(400);
    expect(json).toEqual({
      ok: false,
      code: 'type-mismatch',
      error: 'File "evil.png" is HTML declared as image/png; it can carry script and is not accepted.',
    });
    const after = await state();
    expect(after.transcript).toEqual(before.transcript);
    expect(after.timeline).toHaveLength(before.timeline.length);
    // A refusal is not a failed turn: no model error, no note in the chat.
    expect(after.error).toBeNull();
    expect(after.notes).toEqual(before.notes);
  });

  it('refuses files that are not an array, and an empty message without files', async () => {
    expect((await post('/api/send', { text: 'x', files: 'photo.png' })).status).toBe(400);
    expect((await post('/api/send', { text: '  ' })).status).toBe(400);
  });
});

describe('skilltree dev: calls that wait', () => {
  it('a call that needs approval is in the state, waiting; approving runs the tool once and the turn goes on', async () => {
    const asked = await post('/api/send', { text: 'Refund order A-1' });
    expect(asked.json).toMatchObject({ ok: true, text: '', waiting: [{ name: 'refund', for: 'approval' }] });
    const s = await state();
    expect(s.busy).toBe(false);
    expect(s.waiting).toHaveLength(1);
    expect(s.waiting[0]).toMatchObject({
      toolCallId: expect.any(String),
      name: 'refund',
      input: { order: 'A-1' },
      for: 'approval',
      skill: null,
      status: 'waiting',
    });
    const id = s.waiting[0].toolCallId;
    const approved = await post('/api/answer', { answers: [{ toolCallId: id, type: 'approve' }] });
    expect(approved).toEqual({
      status: 200,
      json: { ok: true, text: 'refund said: Refunded A-1 (run 1).', steps: 1, waiting: [] },
    });
    expect((await state()).waiting).toEqual([]);
    // Answered already: refused with 409 and its code, and the tool does not run again.
    const again = await post('/api/answer', { answers: [{ toolCallId: id, type: 'approve' }] });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ ok: false, code: 'not-waiting' });
    const refunds = (await state()).transcript.filter((m) => m.role === 'tool' && m.name === 'refund');
    expect(refunds).toHaveLength(1);
  });

  it('denying a call makes the model read the denial, with the reason, and the tool does not run', async () => {
    await post('/api/send', { text: 'Refund it again' });
    const id = (await state()).waiting[0].toolCallId;
    const denied = await post('/api/answer', { answers: [{ toolCallId: id, type: 'deny', reason: 'too much' }] });
    expect(denied.json).toMatchObject({ ok: true, text: 'refund said: Denied: too much. The tool did not run.' });
    const s = await state();
    expect(s.transcript.at(-2)).toMatchObject({ role: 'tool', isError: true, errorKind: 'denied' });
  });

  it('a client tool (no run) waits for its result, which the page gives', async () => {
    const asked = await post('/api/send', { text: 'Pick a color' });
    expect(asked.json).toMatchObject({ waiting: [{ name: 'pick_color', for: 'client' }] });
    const id = (await state()).waiting[0].toolCallId;
    const wrong = await post('/api/answer', { answers: [{ toolCallId: id, type: 'approve' }] });
    expect(wrong.status).toBe(409);
    expect(wrong.json).toMatchObject({ code: 'wrong-answer' });
    const given = await post('/api/answer', { answers: [{ toolCallId: id, type: 'result', output: 'teal' }] });
    expect(given.json).toMatchObject({ ok: true, text: 'pick_color said: teal' });
  });

  it('refuses an answer without answers with 400', async () => {
    expect((await post('/api/answer', { answers: [] })).status).toBe(400);
  });

  it('shows file parts a tool returned in the transcript', async () => {
    await post('/api/send', { text: 'Take a screenshot' });
    const result = (await state()).transcript.at(-2);
    expect(result).toMatchObject({
      role: 'tool',
      name: 'screenshot',
      content: [
        { type: 'text', text: 'The order page:' },
        { type: 'file', mediaType: 'image/png', data: PIXEL_PNG, filename: 'order.png' },
      ],
    });
  });
});
