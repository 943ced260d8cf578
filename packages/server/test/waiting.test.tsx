/**
 * Turns that wait, files and reasoning over HTTP, driven by the AI SDK's own chat engine
 * (`AbstractChat`, what useChat runs): a tool that needs approval waits, the browser approves or
 * denies with `addToolApprovalResponse`, the answer streams; forged and replayed approvals run
 * nothing; a photo reaches the session as a file part; reasoning streams as reasoning parts.
 */

import type { Server } from 'node:http';
import {
  Agent,
  createSessions,
  type Model,
  type ModelRequest,
  memoryStore,
  type Sessions,
  textOf,
} from '@skilltree/core';
import type { FilePart } from '@skilltree/core/provider';
import { ApprovedRefundTool } from '@skilltree/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkilltreeUIMessage } from '../src/index.js';
import { NodeChat, settled, toolPart } from './chat-engine.js';
import { apiPath, postChat } from './helpers.js';
import { getAs, serveUsers, usersHandler } from './served.js';
import { reloadWhileSlow, slowToolAgent, slowToolModel } from './slow-tool.js';

const refunds: string[] = [];

function RefundAgent() {
  return (
    <Agent>
      <ApprovedRefundTool
        run={(order) => {
          refunds.push(order);
          return `refunded ${order}`;
        }}
      />
    </Agent>
  );
}

/** Calls refund once per user message that asks, then answers with what the tool result said. */
function refundModel(): Model {
  return {
    name: 'refund-model',
    async generate(req: ModelRequest) {
      const last = req.messages.at(-1);
      if (last?.role === 'tool') return { text: `Done: ${textOf(last)}`, toolCalls: [] };
      const text = last ? textOf(last) : '';
      const files = last?.role === 'user' ? last.content.filter((p): p is FilePart => p.type === 'file') : [];
      if (files.length > 0) return { text: `I see ${files.map((f) => f.mediaType).join(', ')}.`, toolCalls: [] };
      if (text.startsWith('refund')) {
        return {
          text: '',
          toolCalls: [{ id: '', name: 'refund', input: { order: text.split(' ')[1] ?? 'A-1' } }],
          content: [
            {
              type: 'reasoning',
              provider: 'test',
              model: 'test',
              text: 'The user wants a refund.',
              providerData: { signature: 'secret-sig' },
            },
          ],
        };
      }
      return { text: `echo: ${text}`, toolCalls: [] };
    },
  };
}

interface Served {
  url: string;
  server: Server;
  sessions: Sessions;
  close(): Promise<void>;
}
let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function serve(): Promise<Served> {
  const sessions = createSessions(<RefundAgent />, { store: memoryStore(), model: refundModel() });
  return { ...(await serveUsers(sessions)), sessions };
}

/**
 * Serves the refund agent, no refund run yet, and sends `text` to chat `c1` from alice's page:
 * the server and the page, settled.
 */
async function askedOnPage(text: string): Promise<{ chat: NodeChat; served: Served }> {
  refunds.length = 0;
  served = await serve();
  const chat = new NodeChat(served.url, 'c1', 'alice');
  await chat.sendMessage({ text });
  await settled(chat);
  return { chat, served };
}

describe('approvals through the AI SDK chat engine', () => {
  it('a tool that needs approval waits; the browser approves; the tool runs once and the answer streams', async () => {
    const { chat, served } = await askedOnPage('refund A-7');
    const waiting = toolPart(chat.all.at(-1));
    // The approval id names the chat's incarnation and the call: the answer lands only on the call shown.
    const { incarnation } = (await served.sessions.get('c1', { owner: 'alice' })) ?? {};
    expect(waiting).toMatchObject({
      state: 'approval-requested',
      approval: { id: `${incarnation}.${waiting.toolCallId}` },
    });
    expect(refunds).toEqual([]);
    await chat.addToolApprovalResponse({ id: waiting.approval!.id, approved: true });
    await settled(chat);
    expect(refunds).toEqual(['A-7']);
    expect(chat.all.at(-1)?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: refunded A-7' });
    // A replay of the same approval runs nothing.
    const replay = await postChat(served.url, 'alice', {
      id: 'c1',
      messages: chat.all.slice(0, 2).map((m, i) => (i === 1 ? approved(m) : m)),
    });
    expect(replay.status).toBe(409);
    expect(refunds).toEqual(['A-7']);
  });

  it('a denial reaches the model as the tool result; the tool never runs', async () => {
    const { chat } = await askedOnPage('refund B-1');
    await chat.addToolApprovalResponse({ id: toolPart(chat.all.at(-1)).approval!.id, approved: false, reason: 'no' });
    await settled(chat);
    expect(refunds).toEqual([]);
    expect(chat.all.at(-1)?.parts.at(-1)).toMatchObject({
      type: 'text',
      text: 'Done: Denied: no. The tool did not run.',
    });
    // The answer goes on the message it answers (no second assistant message), and the denial shows live.
    expect(chat.all.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(toolPart(chat.all.at(-1))).toMatchObject({ state: 'output-error' });
  });

  it('a reloaded page sees the waiting call as approval-requested; another user cannot answer it (404), a forged id, input or approval id runs nothing (409)', async () => {
    const { served } = await askedOnPage('refund C-2');
    const history = (await (
      await fetch(`${served.url}${apiPath('chat-id', 'c1')}`, { headers: { 'x-user': 'alice' } })
    ).json()) as SkilltreeUIMessage[];
    const shown = toolPart(history.at(-1)) as ReturnType<typeof toolPart> & { input: unknown };
    expect(shown).toMatchObject({ state: 'approval-requested', input: { order: 'C-2' } });
    const answer = (user: string, id: string, over: { input?: unknown; approvalId?: string } = {}) =>
      postChat(served!.url, user, {
        id: 'c1',
        messages: [
          {
            id: 'x',
            role: 'assistant',
            parts: [
              {
                type: 'dynamic-tool',
                toolName: 'refund',
                toolCallId: id,
                state: 'approval-responded',
                input: 'input' in over ? over.input : shown.input,
                approval: { id: over.approvalId ?? shown.approval?.id, approved: true },
              },
            ],
          },
        ],
      });
    expect((await answer('bob', shown.toolCallId)).status).toBe(404);
    expect((await answer('alice', 'call_999')).status).toBe(409);
    // An answer that carries another input than the one shown is refused, naming the mismatch.
    const forged = await answer('alice', shown.toolCallId, { input: { order: 'FORGED' } });
    expect(forged.status).toBe(409);
    expect(await forged.json()).toMatchObject({ error: { code: 'input_differs' } });
    // So is one without the input, and one whose approval id is not the one this server gave.
    expect(await (await answer('alice', shown.toolCallId, { input: undefined })).json()).toMatchObject({
      error: { code: 'input_differs' },
    });
    expect(await (await answer('alice', shown.toolCallId, { approvalId: shown.toolCallId })).json()).toMatchObject({
      error: { code: 'wrong_incarnation' },
    });
    expect(refunds).toEqual([]);
    // The answer to the call as shown runs the tool, with the model's input.
    const ok = await answer('alice', shown.toolCallId);
    expect(ok.status).toBe(200);
    await ok.text();
    expect(refunds).toEqual(['C-2']);
  });
});

function approved(message: SkilltreeUIMessage): SkilltreeUIMessage {
  return {
    ...message,
    parts: message.parts.map((p) =>
      p.type === 'dynamic-tool'
        ? ({ ...p, state: 'approval-responded', approval: { id: p.toolCallId, approved: true } } as never)
        : p,
    ),
  };
}

describe('files and reasoning over HTTP', () => {
  it('a photo sent from the chat engine reaches the session as a file part; an HTML file posing as a PNG is refused (415) and stores nothing', async () => {
    served = await serve();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const chat = new NodeChat(served.url, 'c1', 'alice');
    await chat.sendMessage({
      files: [
        {
          type: 'file',
          mediaType: 'image/png',
          filename: 'parcel.png',
          url: `data:image/png;base64,${png.toString('base64')}`,
        },
      ],
    });
    await settled(chat);
    expect(chat.all.at(-1)?.parts.at(-1)).toMatchObject({ type: 'text', text: 'I see image/png.' });
    const history = (await (
      await fetch(`${served.url}${apiPath('chat-id', 'c1')}`, { headers: { 'x-user': 'alice' } })
    ).json()) as SkilltreeUIMessage[];
    // A reloaded page gets the photo from the handler, under the chat's owner check.
    expect(history[0].parts).toEqual([
      { type: 'file', mediaType: 'image/png', filename: 'parcel.png', url: apiPath('chat-file', 'c1', '0-0') },
    ]);
    const file = (user: string, ref = '0-0') =>
      fetch(`${served!.url}${apiPath('chat-file', 'c1', ref)}`, { headers: { 'x-user': user } });
    const mine = await file('alice');
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/png');
    expect(mine.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(png);
    // Another user, a part that is no file and a malformed reference get the same 404 as a chat never used.
    expect((await file('bob')).status).toBe(404);
    expect((await file('alice', '1-0')).status).toBe(404);
    expect((await file('alice', '..%2Fetc')).status).toBe(404);
    // Numbers that are not an index of a part: negative, fractional, exponents, past any transcript.
    for (const ref of ['-1-0', '0--1', '0-0.5', '0-1e0', '99999999999999999999-0', '0-NaN', '0-', '-0']) {
      expect((await file('alice', ref)).status, ref).toBe(404);
    }
    // The chat deleted, and its id used again by another user with a photo of their own: the old URL
    // reaches neither the deleted photo nor the new one.
    const remove = await fetch(`${served.url}${apiPath('chat-id', 'c1')}`, {
      method: 'DELETE',
      headers: { 'x-user': 'alice' },
    });
    expect(remove.status).toBeLessThan(300);
    const bobs = await postChat(served.url, 'bob', {
      id: 'c1',
      messages: [
        {
          id: 'u',
          role: 'user',
          parts: [{ type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${png.toString('base64')}` }],
        },
      ],
    });
    await bobs.text();
    expect(bobs.status).toBe(200);
    expect((await file('alice')).status).toBe(404);
    expect((await file('bob')).status).toBe(200);
    const html = Buffer.from('<!doctype html><script>alert(1)</script>').toString('base64');
    const refused = await postChat(served.url, 'alice', {
      id: 'c2',
      messages: [
        {
          id: 'u',
          role: 'user',
          parts: [{ type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${html}` }],
        },
      ],
    });
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ error: { code: 'file_type_mismatch' } });
    expect((await fetch(`${served.url}${apiPath('chat-id', 'c2')}`, { headers: { 'x-user': 'alice' } })).status).toBe(
      404,
    );
  });

  it('reasoning streams as reasoning parts with its text only: never its signature', async () => {
    served = await serve();
    const response = await postChat(served.url, 'alice', {
      id: 'c1',
      messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'refund D-4' }] }],
    });
    const body = await response.text();
    expect(body).toContain('"type":"reasoning-start"');
    expect(body).toContain('The user wants a refund.');
    expect(body).not.toContain('secret-sig');
    const history = await (
      await fetch(`${served.url}${apiPath('chat-id', 'c1')}`, { headers: { 'x-user': 'alice' } })
    ).text();
    expect(history).toContain('"type":"reasoning"');
    expect(history).not.toContain('secret-sig');
  });
});

describe('a reload mid-stream', () => {
  it('GET /chat/:id/stream on another worker (same store) resumes the running turn: the whole answer, once; 204 when none runs', async () => {
    const { agent, inTool, release } = slowToolAgent();
    const model = slowToolModel;
    const store = memoryStore();
    const workers = [0, 1].map(() => createSessions(agent, { store, model }));
    const handlers = workers.map(usersHandler);
    const post = handlers[0](
      new Request(`http://localhost${apiPath('chat')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': 'alice' },
        body: JSON.stringify({
          id: 'c1',
          messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] }],
        }),
      }),
    );
    const first = await post;
    // The page reloads: the first response is dropped, and the turn goes on.
    await first.body?.cancel();
    await inTool;
    const text = await reloadWhileSlow(handlers[1], release);
    expect(text).toContain('slow done');
    const get = (path: string) => getAs(handlers[1], path);
    expect((await get(apiPath('chat-stream', 'c1'))).status).toBe(204);
    const after = (await (await get(apiPath('chat-id', 'c1'))).json()) as SkilltreeUIMessage[];
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect((await get(apiPath('chat-stream', 'c1'))).status).toBe(204);
    await Promise.all(workers.map((w) => w.close()));
  });
});
