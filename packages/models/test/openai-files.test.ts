/**
 * Files to OpenAI (issue 26): OpenAI's documented limits are checked before a request is sent (an
 * error naming the file, its size, the limit and the fix; the server is never called), a type the
 * API or the model does not take is described in text instead of being sent to get a 400, audio
 * goes as `input_audio` on Chat Completions to a model that hears, and a model without vision gets
 * descriptions. The test server enforces the same rules, with OpenAI's error shape.
 */
import { Agent, createSession, type Message, type ModelRequest } from '@skilltree/core';
import type { FilePart } from '@skilltree/core/provider';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { OPENAI_FILE_LIMITS, openai } from '../src/openai.js';
import { filesProblem, openaiScript, unsupportedImage } from './helpers/openai-rules.js';
import { outputItems, responseObject } from './helpers/openai-wire.js';
import { simpleRequest, text } from './helpers/request.js';
import { json, serverPerTest } from './helpers/server.js';
import { openaiCompletion } from './helpers/wire.js';

const server = serverPerTest();

const MB = 1024 * 1024;
/** Base64 of `bytes` zero bytes (its length is all the checks read). */
const zeros = (bytes: number) => 'A'.repeat(Math.ceil(bytes / 3) * 4);
const PNG = 'iVBORw0KGgo=';
/** A PDF with `pages` page objects. */
const pdf = (pages: number) =>
  Buffer.from(
    `%PDF-1.4\n${Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj << /Type /Page >> endobj`).join('\n')}\n%%EOF`,
  ).toString('base64');
const image = (data: string, filename?: string, mediaType = 'image/png'): FilePart => ({
  type: 'file',
  mediaType,
  data,
  ...(filename ? { filename } : {}),
});

function withFiles(...files: FilePart[]): ModelRequest {
  const req = simpleRequest();
  req.messages = [{ role: 'user', content: [...text('look'), ...files] }];
  req.context = '';
  req.contextPlacement = 'system';
  return req;
}

const model = (extra: Partial<Parameters<typeof openai>[0]> = {}) =>
  openai({ model: 'gpt-4.1', apiKey: 'k', baseURL: `${server.url}/v1`, initialRetryDelayMs: 1, ...extra });

/** Both APIs, each with the adapter set to it. */
const APIS = [
  ['Responses', {}],
  ['Chat Completions', { api: 'chat' as const }],
] as const;

/** Posts `body` to the rules server at `path`, returning its status and JSON. */
async function post(path: string, body: unknown) {
  const script = openaiScript([{ text: 'ok' }]);
  server.queue(script.handler);
  const response = await fetch(`${server.url}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { error?: Record<string, unknown> } };
}

describe("OpenAI's file limits are checked before sending: the server is never called", () => {
  it.each(APIS)('%s: an image over 20 MB fails, naming the file, its size, the limit and the fix', async (_, api) => {
    const big = zeros(21 * MB);
    await expect(model(api).generate(withFiles(image(big, 'huge.png')), {})).rejects.toThrow(
      /^openai: image "huge\.png" is 22020096 bytes; OpenAI takes at most 20971520 bytes \(20 MB\) per image\. Send a smaller image \(resize it\), or lower the session's files\.maxFileBytes/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each(APIS)('%s: images over 50 MB in one request fail, naming the image that went over', async (_, api) => {
    const files = [1, 2, 3].map((n) => image(zeros(18 * MB), `p${n}.png`));
    await expect(model(api).generate(withFiles(...files), {})).rejects.toThrow(
      /with image "p3\.png" \(18874368 bytes\) the request's images come to 56623104 bytes; OpenAI takes at most 52428800 bytes \(50 MB\) of images per request/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each(APIS)('%s: more than 500 images in one request fail', async (_, api) => {
    const files = Array.from({ length: 501 }, () => image(PNG));
    await expect(model(api).generate(withFiles(...files), {})).rejects.toThrow(
      /is image 501 of the request; OpenAI takes at most 500 images per request/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each(APIS)('%s: PDF content over 32 MB in one request fails', async (_, api) => {
    const file = { type: 'file', mediaType: 'application/pdf', data: zeros(33 * MB), filename: 'big.pdf' } as const;
    await expect(model(api).generate(withFiles(file), {})).rejects.toThrow(
      /^openai: file "big\.pdf" is 34603008 bytes; OpenAI takes at most 33554432 bytes \(32 MB\) of file content per request\. Send a smaller file \(split the PDF\)/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each(APIS)('%s: PDFs over 100 pages in one request fail', async (_, api) => {
    const a = { type: 'file', mediaType: 'application/pdf', data: pdf(60), filename: 'a.pdf' } as const;
    const b = { type: 'file', mediaType: 'application/pdf', data: pdf(41), filename: 'b.pdf' } as const;
    await expect(model(api).generate(withFiles(a, b), {})).rejects.toThrow(
      /with PDF "b\.pdf" \(41 pages\) the request's PDFs come to 101 pages; OpenAI takes at most 100 PDF pages per request/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a file in a tool result counts too (Responses sends it)', async () => {
    const req = withFiles();
    req.messages.push(
      { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'shot', input: {} }] },
      { role: 'tool', toolCallId: 'c1', name: 'shot', content: [image(zeros(21 * MB), 'shot.png')] },
    );
    await expect(model().generate(req, {})).rejects.toThrow(/image "shot\.png" is 22020096 bytes/);
    expect(server.requests).toHaveLength(0);
  });

  it('within the limits the request is sent, and the rules server takes it', async () => {
    const script = openaiScript([{ text: 'ok' }, { text: 'ok' }]);
    server.queue(script.handler, script.handler);
    const files = [image(PNG, 'a.png'), { type: 'file', mediaType: 'application/pdf', data: pdf(3) } as const];
    await model().generate(withFiles(...files), {});
    await model({ api: 'chat' }).generate(withFiles(...files), {});
    expect(script.refusals).toEqual([]);
    expect(OPENAI_FILE_LIMITS).toEqual({
      imageBytes: 20 * MB,
      requestImageBytes: 50 * MB,
      requestImages: 500,
      requestFileBytes: 32 * MB,
      requestPdfPages: 100,
    });
  });
});

describe('the OpenAI test server enforces the file rules, with the API error shape', () => {
  const input = (...content: unknown[]) => ({ model: 'gpt-4.1', store: false, input: [{ role: 'user', content }] });
  const chat = (model: string, ...content: unknown[]) => ({ model, messages: [{ role: 'user', content }] });

  it('an image over 20 MB, an image type OpenAI does not read, and audio on the Responses API are refused', async () => {
    const big = await post(
      '/responses',
      input({ type: 'input_image', image_url: `data:image/png;base64,${zeros(21 * MB)}` }),
    );
    expect(big.status).toBe(400);
    expect(big.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('20 MB') });
    const tiff = await post('/responses', input({ type: 'input_image', image_url: `data:image/tiff;base64,${PNG}` }));
    expect(tiff.body.error).toMatchObject({ message: unsupportedImage });
    const audio = await post('/responses', input({ type: 'input_audio', input_audio: { data: PNG, format: 'wav' } }));
    expect(audio.status).toBe(400);
  });

  it('totals per request: 50 MB of images, 500 images, 32 MB of file content, 100 PDF pages', () => {
    const img = (bytes: number) => ({ type: 'input_image', image_url: `data:image/png;base64,${zeros(bytes)}` });
    const file = (data: string) => ({
      type: 'input_file',
      filename: 'a.pdf',
      file_data: `data:application/pdf;base64,${data}`,
    });
    expect(filesProblem(input(img(18 * MB), img(18 * MB), img(18 * MB)), 'responses')).toMatch(/50 MB/);
    expect(filesProblem(input(...Array.from({ length: 501 }, () => img(8))), 'responses')).toMatch(/Max is 500/);
    expect(filesProblem(input(file(zeros(17 * MB)), file(zeros(17 * MB))), 'responses')).toMatch(/32 MB/);
    expect(filesProblem(input(file(pdf(60)), file(pdf(41))), 'responses')).toMatch(/100 pages/);
    expect(filesProblem(input(file(pdf(60)), img(8)), 'responses')).toBeNull();
  });

  it('Chat Completions: a file part must be a PDF by its bytes; audio only for a model that takes it', async () => {
    const txt = await post(
      '/chat/completions',
      chat('gpt-4.1', { type: 'file', file: { file_data: `data:text/plain;base64,${PNG}`, filename: 'a.txt' } }),
    );
    expect(txt.status).toBe(400);
    expect(txt.body.error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });
    const deaf = await post(
      '/chat/completions',
      chat('gpt-4.1', { type: 'input_audio', input_audio: { data: PNG, format: 'wav' } }),
    );
    expect(deaf.status).toBe(400);
    const hears = await post(
      '/chat/completions',
      chat('gpt-audio', { type: 'input_audio', input_audio: { data: PNG, format: 'wav' } }),
    );
    expect(hears.status).toBe(200);
  });
});

describe('a type OpenAI or the model does not take is described, never sent to get a 400', () => {
  it.each(APIS)('%s: a TIFF and an animated GIF are described; the server refuses nothing', async (label, api) => {
    const script = openaiScript([{ text: 'ok' }]);
    server.queue(script.handler);
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(7), Buffer.from('!\xff\x0bNETSCAPE2.0', 'latin1')]);
    await model(api).generate(
      withFiles(image(PNG, 'scan.tiff', 'image/tiff'), image(gif.toString('base64'), 'spin.gif', 'image/gif')),
      {},
    );
    const sent = JSON.stringify(server.requests[0].body);
    expect(sent).toContain(
      '[image scan.tiff, image/tiff, 8 B: OpenAI takes PNG, JPEG, WebP and non-animated GIF images only]',
    );
    expect(sent).toContain('[image spin.gif, image/gif, 27 B: OpenAI takes no animated GIFs]');
    expect(script.refusals).toEqual([]);
    expect(label).toBeTruthy();
  });

  it('Chat Completions takes PDFs only, and no file by URL: a text file and a PDF by URL are described', async () => {
    server.queue(json(200, openaiCompletion({ text: 'ok' })));
    const notes = { type: 'file', mediaType: 'text/plain', data: 'aGk=', filename: 'notes.txt' } as const;
    const linked = { type: 'file', mediaType: 'application/pdf', url: 'https://cdn.example/a.pdf' } as const;
    await model({ api: 'chat' }).generate(withFiles(notes, linked), {});
    expect(server.requests[0].body.messages[1].content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'text', text: '[file notes.txt, text/plain, 2 B: Chat Completions takes PDF files only]' },
      { type: 'text', text: '[PDF, application/pdf: Chat Completions takes no file by URL]' },
    ]);
  });

  it('audio goes as input_audio (WAV, MP3) on Chat Completions to a model that hears; else it is described', async () => {
    const script = openaiScript([{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }]);
    server.queue(script.handler, script.handler, script.handler);
    const wav = { type: 'file', mediaType: 'audio/wav', data: 'UklGRg==', filename: 'note.wav' } as const;
    const mp3 = { type: 'file', mediaType: 'audio/mpeg', data: 'SUQz' } as const;
    const hearing = model({ model: 'gpt-audio', api: 'chat', accepts: { audio: true } });
    expect(hearing.accepts).toEqual({ images: true, pdf: true, audio: true });
    await hearing.generate(withFiles(wav, mp3), {});
    expect(server.requests[0].body.messages[1].content.slice(1)).toEqual([
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
      { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
    ]);
    // The Responses API takes no audio, whatever the model: described, and accepts says so.
    const responses = model({ accepts: { audio: true } });
    expect(responses.accepts?.audio).toBe(false);
    await responses.generate(withFiles(wav), {});
    expect(server.requests[1].body.input[0].content[1]).toEqual({
      type: 'input_text',
      text: '[audio note.wav, audio/wav, 4 B: the Responses API takes no audio]',
    });
    await model({ api: 'chat' }).generate(withFiles(wav), {});
    expect(server.requests[2].body.messages[1].content[1]).toEqual({
      type: 'text',
      text: '[audio note.wav, audio/wav, 4 B: this model cannot hear audio]',
    });
    expect(script.refusals).toEqual([]);
  });
});

describe('a model without vision is sent descriptions of its images and PDFs', () => {
  it('o3-mini reads neither (the model table), and says so in accepts', async () => {
    server.queue(json(200, responseObject(outputItems({ text: 'ok' }))));
    const o3mini = model({ model: 'o3-mini' });
    expect(o3mini.accepts).toEqual({ images: false, pdf: false, audio: false });
    expect(model().accepts).toEqual({ images: true, pdf: true, audio: false });
    await o3mini.generate(withFiles(image(PNG, 'a.png')), {});
    expect(server.requests[0].body.input[0].content[1]).toEqual({
      type: 'input_text',
      text: '[image a.png, image/png, 8 B: this model cannot read images]',
    });
  });

  it('a session over openai() with accepts: { images: false } sends the description, and the server takes it', async () => {
    const script = openaiScript([{ text: 'I cannot see it.' }]);
    server.queue(script.handler);
    const local = model({ model: 'qwen3:8b', api: 'chat', accepts: { images: false } });
    const session = createSession(createElement(Agent), { model: local });
    await session.send('my parcel', { files: [{ data: Buffer.from(PNG, 'base64'), filename: 'parcel.png' }] });
    const user = server.requests[0].body.messages.find((m: Message) => m.role === 'user');
    expect(user.content).toMatch(/^my parcel\n\[image parcel\.png, image\/png, 8 B: this model cannot read images\]\n/);
    expect(session.transcript[0].content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
    expect(session.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /^openai:qwen3:8b does not take images or audio: each such file is sent to it as a line of text/,
      ),
    ]);
    expect(script.refusals).toEqual([]);
  });
});
