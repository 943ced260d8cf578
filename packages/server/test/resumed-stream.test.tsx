/**
 * Resumed streams tell the whole truth (issue 32): a page reloaded while an approved call runs gets,
 * from `GET /chat/:id/stream`, the call's outcome and the rest of the answer under the answer's own
 * message id, so the AI SDK's chat engine (what useChat runs) ends with one assistant message whose
 * call is finished, never pending under an empty bubble. Polling leaks no abort listener.
 */

import { getEventListeners } from 'node:events';
import { Agent, createSessions, type Model, memoryStore, type Sessions, Tool, textOf } from '@skilltree/core';
import { INTERRUPTED_RESULT } from '@skilltree/core/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHandler, type SkilltreeUIMessage } from '../src/index.js';
import { resumeStream } from '../src/resume.js';
import { NodeChat, resumeWhileRunning, settled, toolPart } from './chat-engine.js';
import { apiPath } from './helpers.js';
import { type Closers, heldRun, serveSessions as serveWith } from './served.js';
import { stoppable } from './stoppable.js';

/** A refund tool that needs approval and runs until the test releases it. */
function refundAgent(needsApproval = true) {
  const held = heldRun();
  const agent = (
    <Agent>
      <Tool
        name="refund"
        description="Refund an order"
        input={z.object({ cents: z.number() })}
        needsApproval={needsApproval}
        run={held.run}
      />
    </Agent>
  );
  return { agent, inTool: held.started, release: held.release };
}

const model: Model = {
  name: 'refund-model',
  async generate(req) {
    const last = req.messages.at(-1);
    if (last?.role === 'tool') return { text: `Done: ${textOf(last)}`, toolCalls: [] };
    return { text: 'Refunding.', toolCalls: [{ id: '', name: 'refund', input: { cents: 100 } }] };
  },
};

const closers: Closers = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Serves `sessions` on 127.0.0.1 (a worker): its URL. */
const serveSessions = (sessions: Sessions) => serveWith(sessions, closers);

async function serve(agent: ReturnType<typeof refundAgent>['agent']): Promise<{ url: string }> {
  return { url: await serveSessions(createSessions(agent, { store: memoryStore(), model })) };
}

const historyOf = async (url: string) =>
  (await (
    await fetch(`${url}${apiPath('chat-id', 'c1')}`, { headers: { 'x-user': 'alice' } })
  ).json()) as SkilltreeUIMessage[];

describe('a resumed stream', () => {
  it('carries an approved call’s outcome under the answer’s own message id: the reloaded page ends with one finished answer', async () => {
    const { agent, inTool, release } = refundAgent();
    const { url } = await serve(agent);
    const page = new NodeChat(url, 'c1', 'alice');
    await page.sendMessage({ text: 'refund it' });
    await settled(page);
    // The live stream names its answer as the history will: `m<index of its first message>`.
    expect(page.all.map((m) => m.id).at(-1)).toBe('m1');
    const asked = toolPart(page.all.at(-1));
    expect(asked.state).toBe('approval-requested');
    await page.addToolApprovalResponse({ id: asked.approval?.id ?? '', approved: true });
    await inTool;
    // The page reloads while the refund runs: the history, then the resumed stream.
    const history = await historyOf(url);
    // The running answer is the resumed stream's to show, whole: the history ends at its user message.
    expect(history.map((m) => m.role)).toEqual(['user']);
    // The refund ends once the reloaded page follows the turn.
    const reloaded = await resumeWhileRunning(url, 'c1', 'alice', history, () => release('refunded 100'));
    await settled(reloaded);
    await settled(page);
    expect(reloaded.all.map((m) => [m.role, m.id])).toEqual([
      ['user', history[0].id],
      ['assistant', 'm1'],
    ]);
    const answer = reloaded.all[1];
    expect(toolPart(answer)).toMatchObject({ state: 'output-available', output: 'refunded 100' });
    expect(answer.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)).toEqual([
      'Refunding.',
      'Done: refunded 100',
    ]);
    // What a later reload shows is the same message.
    const after = await historyOf(url);
    expect(after.map((m) => m.id)).toEqual(reloaded.all.map((m) => m.id));
    expect(toolPart(after.at(-1))).toMatchObject({ state: 'output-available', output: 'refunded 100' });
  });

  it('carries the Interrupted result of an approved call whose process died: the reloaded page ends with it, never pending', async () => {
    const { agent, inTool, release } = refundAgent();
    const store = memoryStore();
    const dying = stoppable(store);
    const leaseTtl = 100;
    const crashedUrl = await serveSessions(createSessions(agent, { store: dying, model, leaseTtl }));
    const otherUrl = await serveSessions(createSessions(agent, { store, model, leaseTtl }));
    const page = new NodeChat(crashedUrl, 'c1', 'alice');
    await page.sendMessage({ text: 'refund it' });
    await settled(page);
    await page.addToolApprovalResponse({ id: toolPart(page.all.at(-1)).approval?.id ?? '', approved: true });
    await inTool;
    dying.stop();
    // The page reloads on another worker while the dead process's lease has not run out yet.
    const history = await historyOf(otherUrl);
    expect(history.map((m) => m.role)).toEqual(['user']);
    const reloaded = new NodeChat(otherUrl, 'c1', 'alice');
    reloaded.messages = history;
    await reloaded.resumeStream();
    await settled(reloaded);
    expect(reloaded.all.map((m) => [m.role, m.id])).toEqual([
      ['user', 'm0'],
      ['assistant', 'm1'],
    ]);
    expect(toolPart(reloaded.all[1])).toMatchObject({ state: 'output-error', errorText: INTERRUPTED_RESULT });
    expect(toolPart((await historyOf(otherUrl)).at(-1))).toMatchObject({
      state: 'output-error',
      errorText: INTERRUPTED_RESULT,
    });
    release('too late');
  });

  it('is bounded per user: past limits.maxResumersPerUser a resume is refused 429 too_many_resumers, and a closed one gives its place back', async () => {
    const { agent, inTool, release } = refundAgent(false);
    const sessions = createSessions(agent, { store: memoryStore(), model });
    closers.push(() => sessions.close());
    const handler = createHandler({
      sessions,
      authorize: (r) => r.headers.get('x-user'),
      log: false,
      limits: { maxResumersPerUser: 2 },
    });
    const resume = (user: string) =>
      handler(new Request(`http://localhost${apiPath('chat-stream', 'c1')}`, { headers: { 'x-user': user } }));
    const turn = sessions.send('c1', 'refund it', { owner: 'alice' });
    await inTool;
    const first = await resume('alice');
    const second = await resume('alice');
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await resume('alice');
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({
      error: { code: 'too_many_resumers', message: expect.stringContaining('limits.maxResumersPerUser') },
    });
    // Another user's streams count for that user only (bob has no chat c1: nothing to resume).
    expect((await resume('bob')).status).toBe(204);
    // A page that goes away gives its place back.
    await first.body?.cancel();
    const again = await resume('alice');
    expect(again.status).toBe(200);
    release('refunded 100');
    await turn;
    // Streams that end are read to their end.
    expect(await second.text()).toContain('"type":"finish"');
    expect(await again.text()).toContain('"type":"finish"');
  });

  it('leaks no abort listener however many times it polls', async () => {
    let polls = 0;
    const sessions = {
      async get() {
        polls++;
        return { running: polls < 60 ? { from: 0 } : null, waiting: [] };
      },
      async messages() {
        return [];
      },
    } as unknown as Sessions;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const abort = new AbortController();
    const counts: number[] = [];
    const stream = resumeStream({
      sessions,
      id: 'c1',
      owner: 'alice',
      from: 0,
      toolErrorText: (e) => e.message,
      sendReasoning: true,
      signal: abort.signal,
      pollMs: 0,
    });
    const reader = stream.getReader();
    for (;;) {
      counts.push(getEventListeners(abort.signal, 'abort').length);
      const { done } = await reader.read();
      if (done) break;
    }
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(polls).toBe(60);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
    expect(Math.max(...counts)).toBeLessThanOrEqual(1);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
