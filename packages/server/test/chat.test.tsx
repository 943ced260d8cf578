/**
 * POST /chat and GET /chat/:id with the `ai` package's own client (DefaultChatTransport +
 * readUIMessageStream): what a turn streams, what a reload restores, tool errors, disconnects.
 */

import type { Model } from '@skilltree/core';
import { textOf } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler, type SkilltreeUIMessage } from '../src/index.js';
import {
  apiPath,
  client,
  DB_SECRET,
  OTHER_CUSTOMER,
  plain,
  postChat,
  ruleModel,
  startServer,
  type TestServer,
  THOUGHTS,
  transcriptIsValid,
  waiting,
} from './helpers.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

/**
 * Sends `wait` to chat `c1` and resolves once the turn runs the `wait` tool (which holds until the
 * turn is aborted): `controller` drops the client, `pending` settles when the send does.
 */
async function waitingTurn(sender: ReturnType<typeof client>) {
  const controller = new AbortController();
  const before = waiting.count;
  const pending = sender.send('c1', 'wait', controller.signal).catch((error: unknown) => error);
  while (waiting.count === before) await new Promise((r) => setTimeout(r, 10));
  return { controller, pending };
}

/**
 * How the notes agent's last two steps for `note <text>` show in the UI: the `add_note` call with
 * its result and the context change it made, then the answer.
 */
const noteStepParts = (text: string) => [
  { type: 'step-start' },
  {
    type: 'dynamic-tool',
    toolName: 'add_note',
    toolCallId: 'a',
    state: 'output-available',
    input: { text },
    output: `added ${text}`,
  },
  { type: 'data-context-changed', data: { lines: [`contextChanged notes added: Notes: ${text}`] } },
  { type: 'step-start' },
  { type: 'text', text: `Noted: ${text}.`, state: 'done' },
];

describe('POST /api/chat', () => {
  it('answers with the AI SDK UI message stream: SSE with the x-vercel-ai-ui-message-stream: v1 header', async () => {
    server = await startServer();
    const response = await postChat(server.url, 'alice', {
      id: 'c1',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
      trigger: 'submit-message',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const body = await response.text();
    // The stream opens with an SSE comment (then one per keepAliveMs of silence); clients skip them.
    expect(body.startsWith(': stream-open\n\n')).toBe(true);
    const events = body
      .split('\n\n')
      .filter((e) => e !== '' && !e.startsWith(':'))
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
      ...noteStepParts('milk'),
    ]);
  });

  it('shows a tool that throws as a tool error (output-error), and the turn goes on', async () => {
    server = await startServer();
    const { message } = await client(server.url).send('c1', 'explode');
    const tool = message.parts.find((p) => p.type === 'dynamic-tool' && p.toolName === 'explode');
    expect(tool).toMatchObject({
      state: 'output-error',
      errorText: 'Tool "explode" failed; the details stay on the server.',
    });
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

  it('a client that goes away does not stop the turn; POST /chat/:id/stop does; the transcript stays valid and the chat goes on', async () => {
    server = await startServer();
    const alice = client(server.url);
    const { controller, pending } = await waitingTurn(alice);
    controller.abort();
    await pending;
    // The turn is still running after the client left: the stop route finds it (202), and stops it.
    expect((await client(server.url, 'bob').stop('c1')).status).toBe(204);
    expect((await alice.stop('c1')).status).toBe(202);
    // Waits for the commit itself, however long a busy machine takes (the test's timeout bounds it).
    let messages = await server.sessions.messages('c1', { limit: 100, owner: 'alice' });
    while (messages.at(-1)?.role !== 'tool') {
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
    const { controller, pending } = await waitingTurn(alice);
    const response = await postChat(server.url, 'alice', {
      id: 'c1',
      message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: 'busy' } });
    controller.abort();
    await pending;
    await alice.stop('c1');
  });

  it('accepts { id, message } from a transport that sends only the new message', async () => {
    server = await startServer();
    const response = await postChat(server.url, 'alice', {
      id: 'c1',
      message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
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

  it('restores a conversation whose turn was stopped, with the unanswered tool call as an error', async () => {
    server = await startServer();
    const alice = client(server.url);
    const { controller, pending } = await waitingTurn(alice);
    controller.abort();
    await pending;
    await alice.stop('c1');
    let restored: { role: string; parts: { type: string; state?: string }[] }[] = [];
    // Until the aborted turn's commit is there (the test's timeout bounds the wait, not a count).
    for (;;) {
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

  it('is never empty: when the newest turn alone is longer than maxHistoryMessages, it starts mid-turn at a step', async () => {
    server = await startServer({ limits: { maxHistoryMessages: 2 } });
    const alice = client(server.url);
    await alice.send('c1', 'note a'); // 0 user, 1 assistant (read), 2 tool, 3 assistant (add_note), 4 tool, 5 assistant
    const restored = (await (await alice.history('c1')).json()) as SkilltreeUIMessage[];
    // The newest 2 are the add_note result and the answer: the call they answer comes with them.
    expect(restored).toEqual([
      {
        id: 'm3',
        role: 'assistant',
        parts: noteStepParts('a'),
      },
    ]);
  });

  it('a cut among the results of one step shows their call and only theirs; every limit gives a clean, non-empty history', async () => {
    server = await startServer();
    const alice = client(server.url);
    await alice.send('c1', 'note a'); // 0-5
    await alice.send('c1', 'two notes'); // 6 user, 7 assistant, 8 tool, 9 assistant (one, two), 10 tool, 11 tool, 12 assistant
    const ids = (await server.sessions.messages('c1', { limit: 100, owner: 'alice' })).flatMap((m) =>
      m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [],
    );
    const [, , read, one, two] = ids; // the second turn's calls: read_skill, then add_note twice
    const expected: Record<number, { first: string; calls: string[] }> = {
      1: { first: 'm12', calls: [] },
      2: { first: 'm9', calls: [two] },
      3: { first: 'm9', calls: [one, two] },
      4: { first: 'm9', calls: [one, two] },
      5: { first: 'm7', calls: [read, one, two] },
      6: { first: 'm7', calls: [read, one, two] },
    };
    for (let max = 1; max <= 14; max++) {
      const handler = createHandler({
        sessions: server.sessions,
        authorize: () => 'alice',
        limits: { maxHistoryMessages: max },
        log: false,
      });
      const response = await handler(new Request(`http://localhost${apiPath('chat-id', 'c1')}`));
      const restored = (await response.json()) as SkilltreeUIMessage[];
      expect(restored.length, `max ${max}`).toBeGreaterThan(0);
      expect(restored.at(-1)?.parts.at(-1), `max ${max}`).toMatchObject({ type: 'text', text: 'Both added.' });
      const tools = restored.flatMap((m) => m.parts).filter((p) => p.type === 'dynamic-tool');
      for (const part of tools) {
        // No result without its call: each tool part has its input and its outcome.
        expect(part.input, `max ${max}`).toBeDefined();
        expect(part.state, `max ${max}`).toBe('output-available');
      }
      const want = expected[max] ?? { first: max < 13 ? 'm6' : 'm0', calls: undefined };
      expect(restored[0].id, `max ${max}`).toBe(want.first);
      if (want.calls)
        expect(
          tools.map((p) => p.toolCallId),
          `max ${max}`,
        ).toEqual(want.calls);
      if (max >= 7) expect(restored[0].role).toBe('user');
    }
  });

  it('GET /chat/:id/stream answers 204 when no turn runs (a chat never used, or another user’s, alike)', async () => {
    server = await startServer();
    const response = await fetch(`${server.url}${apiPath('chat-stream', 'c1')}`, { headers: { 'x-user': 'alice' } });
    expect(response.status).toBe(204);
  });

  it('DELETE /chat/:id deletes the conversation', async () => {
    server = await startServer();
    const alice = client(server.url);
    await alice.send('c1', 'hi');
    const response = await fetch(`${server.url}${apiPath('chat-id', 'c1')}`, {
      method: 'DELETE',
      headers: { 'x-user': 'alice' },
    });
    expect(response.status).toBe(204);
    expect((await alice.history('c1')).status).toBe(404);
  });
});

describe('GET /api/sessions/:id', () => {
  it('returns the session view: loaded skills, stores, usage, transcript length', async () => {
    server = await startServer();
    await client(server.url).send('c1', 'note milk');
    const response = await fetch(`${server.url}${apiPath('session', 'c1')}`, { headers: { 'x-user': 'alice' } });
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

describe('tool errors: the browser reads only what is meant for end users', () => {
  /** Every piece of the connection string the failing tool throws. */
  const pieces = [
    'hunter2',
    'shop_admin',
    'db.internal.example',
    '5432',
    '/etc/ssl/shop.pem',
    'ECONNREFUSED',
    'postgres://',
  ];
  const toolPart = (message: { parts: unknown[] }, name: string) =>
    message.parts.find((p) => (p as { toolName?: string }).toolName === name) as { errorText?: string; state: string };

  /** The rule model, recording the messages of each request (what the model sees). */
  function recordingModel(seen: string[]): Model {
    const base = ruleModel();
    return {
      ...base,
      stream: (request, options) => {
        seen.push(JSON.stringify(request.messages));
        return base.stream!(request, options);
      },
    };
  }

  it("a tool's thrown error (a connection string) reaches neither the stream nor GET /chat/:id; the model and the log get it", async () => {
    const seen: string[] = [];
    server = await startServer({ sessionsOptions: { model: recordingModel(seen) } });
    const alice = client(server.url);
    const { message, chunks } = await alice.send('c1', 'db');
    expect(toolPart(message, 'connect_db')).toMatchObject({
      state: 'output-error',
      errorText: 'Tool "connect_db" failed; the details stay on the server.',
    });
    const history = await (await alice.history('c1')).text();
    for (const piece of pieces) {
      expect(JSON.stringify(chunks), piece).not.toContain(piece);
      expect(history, piece).not.toContain(piece);
    }
    expect(history).toContain('Tool \\"connect_db\\" failed; the details stay on the server.');
    // The transcript, and so the model's next request, keeps the whole error.
    const tool = (await server.sessions.messages('c1', { limit: 100, owner: 'alice' })).find(
      (m) => m.role === 'tool' && m.name === 'connect_db',
    );
    expect(tool).toMatchObject({ isError: true, errorKind: 'threw' });
    expect(textOf(tool!)).toBe(`Tool "connect_db" failed: connect ECONNREFUSED ${DB_SECRET}`);
    expect(seen.at(-1)).toContain('hunter2@db.internal.example');
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'The database is down.' });
    // The server's log has it, once (a GET does not log it again).
    expect(server.logs.filter((line) => line.includes(DB_SECRET))).toEqual([
      `@skilltree/server: tool "connect_db" failed in chat c1: Tool "connect_db" failed: connect ECONNREFUSED ${DB_SECRET}`,
    ]);
  });

  it('onToolError decides what the stream and GET /chat/:id show: (e) => e.message shows the error as the model got it', async () => {
    const calls: unknown[] = [];
    server = await startServer({
      onToolError: (error, chat) => {
        calls.push({ tool: error.toolName, forUsers: error.forUsers, chat });
        return error.message;
      },
    });
    const alice = client(server.url);
    const { message } = await alice.send('c1', 'db');
    const shown = `Tool "connect_db" failed: connect ECONNREFUSED ${DB_SECRET}`;
    expect(toolPart(message, 'connect_db')).toMatchObject({ state: 'output-error', errorText: shown });
    const restored = (await (await alice.history('c1')).json()) as { parts: unknown[] }[];
    expect(toolPart(restored[1], 'connect_db')).toMatchObject({ state: 'output-error', errorText: shown });
    expect(calls).toEqual([
      { tool: 'connect_db', forUsers: false, chat: { id: 'c1', user: 'alice' } },
      { tool: 'connect_db', forUsers: false, chat: { id: 'c1', user: 'alice' } },
    ]);
  });

  it("skilltree's own refusals of the model's call are shown as they are, an invalid input as a sentence, live and after a reload", async () => {
    server = await startServer();
    const alice = client(server.url);
    const { message } = await alice.send('c1', 'mistakes');
    const transcript = await server.sessions.messages('c1', { limit: 100, owner: 'alice' });
    const said = (id: string) => textOf(transcript.find((m) => m.role === 'tool' && m.toolCallId === id)!);
    expect(said('u')).toMatch(/^Unknown tool: buy_insurance/);
    expect(said('i')).toMatch(/^Invalid input for tool "add_note": text: /);
    const invalid = 'Invalid input for tool "add_note"; the model was told what to fix.';
    expect(toolPart(message, 'buy_insurance')).toMatchObject({ state: 'output-error', errorText: said('u') });
    expect(toolPart(message, 'add_note')).toMatchObject({ state: 'output-error', errorText: invalid });
    const restored = (await (await alice.history('c1')).json()) as { parts: unknown[] }[];
    expect(toolPart(restored[1], 'buy_insurance').errorText).toBe(said('u'));
    expect(toolPart(restored[1], 'add_note').errorText).toBe(invalid);
  });

  it("a schema refinement's message (app text, here another customer's address) reaches no end user; the model keeps it", async () => {
    const seen: string[] = [];
    server = await startServer({ sessionsOptions: { model: recordingModel(seen) } });
    const alice = client(server.url);
    const { message, chunks } = await alice.send('c1', 'refund 7');
    const shown = 'Invalid input for tool "refund_order"; the model was told what to fix.';
    expect(toolPart(message, 'refund_order')).toMatchObject({ state: 'output-error', errorText: shown });
    const history = await (await alice.history('c1')).text();
    for (const text of [JSON.stringify(chunks), history]) {
      expect(text).not.toContain('bob@example.com');
      expect(text).not.toContain('Rue de la Paix');
    }
    const tool = (await server.sessions.messages('c1', { limit: 100, owner: 'alice' })).find(
      (m) => m.role === 'tool' && m.name === 'refund_order',
    );
    expect(tool).toMatchObject({ isError: true, errorKind: 'invalid-input' });
    expect(textOf(tool!)).toBe(`Invalid input for tool "refund_order": order: Order 7 belongs to ${OTHER_CUSTOMER}`);
    expect(seen.at(-1)).toContain('bob@example.com');
    expect(server.logs.filter((line) => line.includes('bob@example.com'))).toHaveLength(1);
  });

  it('an onToolError that throws or returns no string shows the redacted sentence, and the turn goes on', async () => {
    for (const onToolError of [
      () => {
        throw new Error('bug in the app');
      },
      () => undefined as unknown as string,
    ]) {
      server = await startServer({ onToolError });
      const { message } = await client(server.url).send('c1', 'db');
      expect(toolPart(message, 'connect_db').errorText).toBe(
        'Tool "connect_db" failed; the details stay on the server.',
      );
      expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'The database is down.' });
      expect(server.logs.join('\n')).toContain('onToolError failed');
      await server.close();
    }
  });
});

describe('reasoning', () => {
  /** What only the provider may read: it never reaches a browser. */
  const SECRETS = ['SIGNATURE-OF-THE-FIRST-BLOCK', 'REDACTED-SECOND-BLOCK', 'ENCRYPTED-THIRD-BLOCK', 'rs_3'];

  it('streams reasoning as reasoning parts, in order with the text and tool parts of its step; GET /chat/:id returns the same parts', async () => {
    server = await startServer();
    const alice = client(server.url);
    const { message, chunks, errors } = await alice.send('c1', 'think');
    expect(errors).toEqual([]);
    const types = chunks.map((chunk) => chunk.type);
    expect(types.slice(0, 8)).toEqual([
      'start',
      'start-step',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-delta',
    ]);
    // A reasoning part's id routes the stream's deltas to it; a stored message has none to route.
    const streamed = plain(message.parts).map((part) =>
      part.type === 'reasoning' ? { ...part, id: undefined } : part,
    );
    expect(streamed.map((part) => part.type)).toEqual([
      'step-start',
      'reasoning',
      'text',
      'dynamic-tool',
      'data-skill-loaded',
      'data-context-changed',
      'step-start',
      // The hidden block has no text: nothing to show.
      'dynamic-tool',
      'data-context-changed',
      'step-start',
      'reasoning',
      'text',
    ]);
    expect(streamed[1]).toMatchObject({ type: 'reasoning', text: THOUGHTS.first.text, state: 'done' });
    expect(streamed[10]).toMatchObject({ type: 'reasoning', text: THOUGHTS.last.text, state: 'done' });
    for (const secret of SECRETS) expect(JSON.stringify(chunks)).not.toContain(secret);

    const response = await alice.history('c1');
    const history = (await response.json()) as SkilltreeUIMessage[];
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    // A reloaded page shows what the live one did, reasoning included.
    expect(plain(history[1].parts)).toEqual(plain(streamed));
    for (const secret of SECRETS) expect(JSON.stringify(history)).not.toContain(secret);
    // The transcript keeps every block byte for byte, for the provider that produced it.
    const transcript = await server.sessions.messages('c1', { limit: 100, owner: 'alice' });
    const kept = transcript.flatMap((m) =>
      m.role === 'assistant' ? m.content.filter((p) => p.type === 'reasoning') : [],
    );
    expect(kept).toEqual([THOUGHTS.first, THOUGHTS.hidden, THOUGHTS.last]);
  });

  it('a model without streaming: its reasoning blocks are sent whole, before its text', async () => {
    const model = ruleModel();
    server = await startServer({ sessionsOptions: { model: { name: model.name, generate: model.generate } } });
    const { message, chunks } = await client(server.url).send('c1', 'think');
    const reasoning = chunks.filter((chunk) => chunk.type === 'reasoning-delta');
    expect(reasoning.map((chunk) => chunk.delta)).toEqual([THOUGHTS.first.text, THOUGHTS.last.text]);
    expect(plain(message.parts).filter((p) => p.type === 'reasoning' || p.type === 'text')).toEqual([
      { type: 'reasoning', id: 'reasoning-1', text: THOUGHTS.first.text, state: 'done' },
      { type: 'text', text: 'Let me open my notes.', state: 'done' },
      { type: 'reasoning', id: 'reasoning-2', text: THOUGHTS.last.text, state: 'done' },
      { type: 'text', text: 'Noted: x.', state: 'done' },
    ]);
  });

  it('sendReasoning: false leaves reasoning out of the stream and of GET /chat/:id; the transcript keeps it', async () => {
    server = await startServer({ sendReasoning: false });
    const alice = client(server.url);
    const { message, chunks } = await alice.send('c1', 'think');
    expect(chunks.some((chunk) => chunk.type.startsWith('reasoning'))).toBe(false);
    expect(message.parts.some((part) => part.type === 'reasoning')).toBe(false);
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Noted: x.' });
    const history = (await (await alice.history('c1')).json()) as SkilltreeUIMessage[];
    expect(JSON.stringify(history)).not.toContain(THOUGHTS.first.text);
    const transcript = await server.sessions.messages('c1', { limit: 100, owner: 'alice' });
    expect(JSON.stringify(transcript)).toContain(THOUGHTS.first.providerData.signature);
  });
});
