/**
 * POST /chat and GET /chat/:id with the `ai` package's own client (DefaultChatTransport +
 * readUIMessageStream): what a turn streams, what a reload restores, tool errors, disconnects.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { client, plain, startServer, type TestServer, transcriptIsValid, waiting } from './helpers.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

describe('POST /api/chat', () => {
  it('answers with the AI SDK UI message stream: SSE with the x-vercel-ai-ui-message-stream: v1 header', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice' },
      body: JSON.stringify({
        id: 'c1',
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
        trigger: 'submit-message',
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const body = await response.text();
    const events = body
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const types = events.slice(0, -1).map((e) => (JSON.parse(e) as { type: string }).type);
    expect(types).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
  });

  it('streams text, tool calls and results as tool parts, skill loads and contextChanged lines as data parts, and finish', async () => {
    server = await startServer();
    const { message, chunks, errors } = await client(server.url).send('c1', 'note milk');
    expect(errors).toEqual([]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(message.role).toBe('assistant');
    expect(plain(message.parts)).toEqual([
      { type: 'step-start' },
      {
        type: 'dynamic-tool',
        toolName: 'read_skill',
        toolCallId: 'r',
        state: 'output-available',
        input: { name: 'notes' },
        output: 'Loaded skill "notes"; it is now active.',
      },
      { type: 'data-skill-loaded', data: { name: 'notes' } },
      {
        type: 'data-context-changed',
        data: {
          lines: ["contextChanged notes added: Keep the user's notes.", 'contextChanged notes added: Notes: none'],
        },
      },
      { type: 'step-start' },
      {
        type: 'dynamic-tool',
        toolName: 'add_note',
        toolCallId: 'a',
        state: 'output-available',
        input: { text: 'milk' },
        output: 'added milk',
      },
      { type: 'data-context-changed', data: { lines: ['contextChanged notes added: Notes: milk'] } },
      { type: 'step-start' },
      { type: 'text', text: 'Noted: milk.', state: 'done' },
    ]);
  });

  it('shows a tool that throws as a tool error (output-error), and the turn goes on', async () => {
    server = await startServer();
    const { message } = await client(server.url).send('c1', 'explode');
    const tool = message.parts.find((p) => p.type === 'dynamic-tool' && p.toolName === 'explode');
    expect(tool).toMatchObject({ state: 'output-error', errorText: expect.stringContaining('the fuse was lit') });
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'That failed.' });
  });

  it('a model error ends the stream with an error chunk (no server details) and leaves the transcript valid', async () => {
    server = await startServer();
    const alice = client(server.url);
    const { chunks, errors } = await alice.send('c1', 'fail');
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The agent could not finish this turn. Try again.' });
    expect(errors).toHaveLength(1);
    expect(server.logs.join('\n')).toContain('the model is down');
    expect(transcriptIsValid(await server.sessions.messages('c1', { limit: 100, owner: 'alice' }))).toBe(true);
    const next = await alice.send('c1', 'hello again');
    expect(next.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'echo: hello again' });
  });

  it('onError decides what the client reads when a turn fails', async () => {
    server = await startServer({ onError: (error) => `failed: ${(error as Error).message}` });
    const { chunks } = await client(server.url).send('c1', 'fail');
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'failed: the model is down' });
  });

  it('a client that disconnects aborts the turn; the transcript stays valid and the chat goes on', async () => {
    server = await startServer();
    const alice = client(server.url);
    const controller = new AbortController();
    const before = waiting.count;
    const pending = alice.send('c1', 'wait', controller.signal).catch((error: unknown) => error);
    while (waiting.count === before) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await pending;
    // The turn stops and commits: the lease is released, so the next turn runs at once.
    let messages = await server.sessions.messages('c1', { limit: 100, owner: 'alice' });
    for (let i = 0; i < 100 && messages.at(-1)?.role !== 'tool'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      messages = await server.sessions.messages('c1', { limit: 100, owner: 'alice' });
    }
    expect(transcriptIsValid(messages)).toBe(true);
    expect(messages.at(-1)).toMatchObject({ role: 'tool', name: 'wait', isError: true });
    const next = await alice.send('c1', 'still there?');
    expect(next.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'echo: still there?' });
  });

  it('a second message while a turn runs on the same chat answers 409 with onBusy: reject', async () => {
    server = await startServer({ sessionsOptions: { onBusy: 'reject' } });
    const alice = client(server.url);
    const controller = new AbortController();
    const before = waiting.count;
    const pending = alice.send('c1', 'wait', controller.signal).catch(() => {});
    while (waiting.count === before) await new Promise((r) => setTimeout(r, 10));
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice' },
      body: JSON.stringify({ id: 'c1', message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] } }),
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: 'busy' } });
    controller.abort();
    await pending;
  });

  it('accepts { id, message } from a transport that sends only the new message', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': 'alice' },
      body: JSON.stringify({ id: 'c1', message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] } }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"delta":"hi"');
  });
});

describe('GET /api/chat/:id', () => {
  it('restores exactly what the turns streamed, as UIMessage[] (a page reload shows the same chat)', async () => {
    server = await startServer();
    const alice = client(server.url);
    const streamed = [];
    for (const text of ['note milk', 'two notes', 'explode', 'hello']) {
      const { message } = await alice.send('c1', text);
      streamed.push({ role: 'user', parts: [{ type: 'text', text }] }, { role: message.role, parts: message.parts });
    }
    const response = await alice.history('c1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const restored = (await response.json()) as { id: string; role: string; parts: unknown[] }[];
    expect(new Set(restored.map((m) => m.id)).size).toBe(restored.length);
    expect(restored.map(({ role, parts }) => ({ role, parts }))).toEqual(plain(streamed));
  });

  it('restores a conversation whose turn failed, with the unanswered tool call as an error', async () => {
    server = await startServer();
    const alice = client(server.url);
    const controller = new AbortController();
    const before = waiting.count;
    const pending = alice.send('c1', 'wait', controller.signal).catch(() => {});
    while (waiting.count === before) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await pending;
    let restored: { role: string; parts: { type: string; state?: string }[] }[] = [];
    for (let i = 0; i < 100; i++) {
      restored = await (await alice.history('c1')).json();
      if (restored.at(-1)?.parts.some((p) => p.type === 'dynamic-tool' && p.state === 'output-error')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(restored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(restored[1].parts.filter((p) => p.type === 'dynamic-tool').map((p) => p.state)).toEqual([
      'output-available',
      'output-error',
    ]);
  });

  it('returns the newest maxHistoryMessages messages, starting at a user message', async () => {
    server = await startServer({ limits: { maxHistoryMessages: 5 } });
    const alice = client(server.url);
    await alice.send('c1', 'note a'); // messages 0-5: user, 2 × (assistant + tool), assistant
    await alice.send('c1', 'hi'); // messages 6-7
    const restored = (await (await alice.history('c1')).json()) as { id: string; role: string }[];
    // The last 5 messages start inside the first turn; the history starts at the next user message.
    expect(restored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(restored[0].id).toBe('m6');
  });

  it('GET /chat/:id/stream answers 204: there is no stream to resume', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}/api/chat/c1/stream`, { headers: { 'x-user': 'alice' } });
    expect(response.status).toBe(204);
  });

  it('DELETE /chat/:id deletes the conversation', async () => {
    server = await startServer();
    const alice = client(server.url);
    await alice.send('c1', 'hi');
    const response = await fetch(`${server.url}/api/chat/c1`, { method: 'DELETE', headers: { 'x-user': 'alice' } });
    expect(response.status).toBe(204);
    expect((await alice.history('c1')).status).toBe(404);
  });
});

describe('GET /api/sessions/:id', () => {
  it('returns the session view: loaded skills, stores, usage, transcript length', async () => {
    server = await startServer();
    await client(server.url).send('c1', 'note milk');
    const response = await fetch(`${server.url}/api/sessions/c1`, { headers: { 'x-user': 'alice' } });
    expect(response.status).toBe(200);
    const view = await response.json();
    expect(view).toMatchObject({
      id: 'c1',
      owner: 'alice',
      loadedSkills: ['notes'],
      stores: { notes: { items: ['milk'] } },
      usage: { inputTokens: 30, outputTokens: 15 },
      transcriptLength: 6,
    });
  });
});
