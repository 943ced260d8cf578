/**
 * Subagent runs through the AI SDK's own chat engine (what useChat runs): a run streams as one
 * `data-subagent` part beside the tool part of its call, whose output is the run's result; a page
 * reloaded after the turn (`GET /chat/:id`) or while it runs (`GET /chat/:id/stream`) shows the same
 * run; another user never sees it.
 */
import { Agent, createSessions, type Model, memoryStore, type Sessions, Subagent, Tool, textOf } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SkilltreeUIMessage, SkilltreeUIPart } from '../src/index.js';
import { NodeChat, resumeWhileRunning, settled } from './chat-engine.js';
import { apiPath, plain } from './helpers.js';
import { approvalInit, type Closers, heldRun, serveSessions, usersHandler } from './served.js';

/** What the `lookup` tool inside the run knows, by order; only the run reads it. */
const RECORDS: Record<string, string> = {
  'A-1': 'order A-1: shipped 2025-10-12 to Ann Example, 12 Rue de la Paix',
  'B-2': 'order B-2: in the warehouse',
};
const SECRET_RECORD = RECORDS['A-1'];

/** An agent whose `researcher` subagent looks orders up; `hold` (in the run) waits for the test. */
function researchAgent() {
  const held = heldRun();
  const agent = (
    <Agent>
      <Subagent name="researcher" description="Researches an order in a context of its own">
        <Tool
          name="lookup"
          description="Looks the order up"
          input={z.object({ order: z.string() })}
          run={({ order }) => RECORDS[order] ?? `no order ${order}`}
        />
        <Tool name="hold" description="Waits for the test" run={held.run} />
      </Subagent>
    </Agent>
  );
  return { agent, inRun: held.started, release: held.release };
}

/** The parent hands the user's text to the researcher; the run calls `lookup` (or `hold` when asked), then answers. */
const model: Model = {
  name: 'research-model',
  async generate(req) {
    const last = req.messages.at(-1);
    const task = textOf(req.messages.findLast((m) => m.role === 'user') ?? { content: [] });
    if (req.subagent) {
      if (last?.role === 'tool') return { text: `Found: ${textOf(last).split(' to ')[0]}`, toolCalls: [] };
      const order = /[A-Z]-\d+/.exec(task)?.[0] ?? '?';
      return {
        text: 'Looking it up.',
        toolCalls: [
          task.includes('hold') ? { id: '', name: 'hold', input: {} } : { id: '', name: 'lookup', input: { order } },
        ],
      };
    }
    if (last?.role === 'tool') return { text: `The researcher says: ${textOf(last)}`, toolCalls: [] };
    return { text: '', toolCalls: [{ id: '', name: 'researcher', input: { task } }] };
  },
};

const closers: Closers = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(agent: ReturnType<typeof researchAgent>['agent']): Promise<{ url: string; sessions: Sessions }> {
  const sessions = createSessions(agent, { store: memoryStore(), model });
  return { url: await serveSessions(sessions, closers), sessions };
}

const get = (url: string, path: string, user: string) => fetch(`${url}${path}`, { headers: { 'x-user': user } });
const historyOf = async (url: string, user = 'alice') =>
  (await (await get(url, apiPath('chat-id', 'c1'), user)).json()) as SkilltreeUIMessage[];
const runsOf = (message: SkilltreeUIMessage | undefined) =>
  (message?.parts ?? []).filter((p) => p.type === 'data-subagent') as Extract<
    SkilltreeUIPart,
    { type: 'data-subagent' }
  >[];
const toolOf = (message: SkilltreeUIMessage | undefined) =>
  message?.parts.find((p) => p.type === 'dynamic-tool') as { toolName: string; state: string; output?: unknown };

describe('subagent runs in useChat', () => {
  it('a run streams as one data-subagent part after its call, and its result is the tool’s output', async () => {
    const { agent } = researchAgent();
    const { url, sessions } = await serve(agent);
    const page = new NodeChat(url, 'c1', 'alice');
    await page.sendMessage({ text: 'When did A-1 ship?' });
    await settled(page);
    const answer = page.all.at(-1);
    const [run] = await sessions.subagentRuns('c1', { owner: 'alice' });
    expect(toolOf(answer)).toMatchObject({
      toolName: 'researcher',
      state: 'output-available',
      output: 'Found: order A-1: shipped 2025-10-12',
    });
    const parts = runsOf(answer);
    expect(parts).toHaveLength(1);
    expect(parts[0].id).toBe(run.id);
    expect(parts[0].data).toMatchObject({ name: 'researcher', status: 'done', toolCallId: run.toolCallId });
    expect(parts[0].data.items).toMatchObject([
      { type: 'text', text: 'Looking it up.' },
      { type: 'tool', toolName: 'lookup', state: 'output-available', output: SECRET_RECORD },
      { type: 'text', text: 'Found: order A-1: shipped 2025-10-12' },
    ]);
    expect(answer?.parts.indexOf(parts[0])).toBeGreaterThan(answer?.parts.indexOf(toolOf(answer) as never) ?? 0);
  });

  it('a reloaded page shows the run as the live stream left it (GET /chat/:id)', async () => {
    const { agent } = researchAgent();
    const { url } = await serve(agent);
    const page = new NodeChat(url, 'c1', 'alice');
    await page.sendMessage({ text: 'When did A-1 ship?' });
    await settled(page);
    const history = await historyOf(url);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(history[1].id).toBe(page.all[1].id);
    expect(plain(runsOf(history.at(-1)))).toEqual(plain(runsOf(page.all.at(-1))));
    expect(plain(toolOf(history.at(-1)))).toEqual(plain(toolOf(page.all.at(-1))));
  });

  it('a page that comes back while a run runs resumes it (GET /chat/:id/stream): the run, then its end, as the history shows it after', async () => {
    const { agent, inRun, release } = researchAgent();
    const { url } = await serve(agent);
    const page = new NodeChat(url, 'c1', 'alice');
    const sent = page.sendMessage({ text: 'hold on to A-1' });
    await inRun;
    const history = await historyOf(url);
    expect(history.map((m) => m.role)).toEqual(['user']);
    const reloaded = await resumeWhileRunning(url, 'c1', 'alice', history, () => release('held and released'));
    await sent;
    await settled(reloaded);
    await settled(page);
    const answer = reloaded.all.at(-1);
    expect(toolOf(answer)).toMatchObject({ toolName: 'researcher', state: 'output-available' });
    const [run] = runsOf(answer);
    expect(run.data).toMatchObject({ name: 'researcher', status: 'done' });
    expect(run.data.items).toMatchObject([
      { type: 'text' },
      { type: 'tool', toolName: 'hold', state: 'output-available' },
      { type: 'text' },
    ]);
    const after = await historyOf(url);
    expect(plain(runsOf(after.at(-1)))).toEqual(plain(runsOf(answer)));
    expect(plain(runsOf(page.all.at(-1)))).toEqual(plain(runsOf(answer)));
  });

  it('another user never sees a run: not in the history, a resumed stream or their own chat under the same id', async () => {
    const { agent } = researchAgent();
    const { url, sessions } = await serve(agent);
    const page = new NodeChat(url, 'c1', 'alice');
    await page.sendMessage({ text: 'When did A-1 ship?' });
    await settled(page);
    expect((await get(url, apiPath('chat-id', 'c1'), 'mallory')).status).toBe(404);
    expect((await get(url, apiPath('chat-stream', 'c1'), 'mallory')).status).toBe(204);
    expect((await get(url, apiPath('session', 'c1'), 'mallory')).status).toBe(404);
    expect(await sessions.subagentRuns('c1', { owner: 'mallory' })).toEqual([]);
    // Mallory's own chat under the same id holds her runs only.
    const theirs = new NodeChat(url, 'c1', 'mallory');
    await theirs.sendMessage({ text: 'What about B-2?' });
    await settled(theirs);
    const seen = JSON.stringify([theirs.all, await historyOf(url, 'mallory')]);
    expect(seen).not.toContain('Ann Example');
    expect(seen).not.toContain('A-1');
    expect((await sessions.subagentRuns('c1', { owner: 'mallory' })).map((r) => textOf(r.transcript[0]))).toEqual([
      'What about B-2?',
    ]);
  });
});

describe('a call that waits inside a run, in useChat', () => {
  /** An agent whose `refunder` run refunds only with a person's approval; refunds counted. */
  function refundAgent() {
    const refunds: string[] = [];
    const agent = (
      <Agent>
        <Subagent name="refunder" description="Refunds an order in a context of its own">
          <Tool
            name="refund"
            description="Refunds the order"
            input={z.object({ order: z.string() })}
            needsApproval
            run={({ order }) => {
              refunds.push(order);
              return `refunded ${order}`;
            }}
          />
        </Subagent>
      </Agent>
    );
    return { agent, refunds };
  }
  const refundModel: Model = {
    name: 'refund-model',
    async generate(req) {
      const last = req.messages.at(-1);
      if (req.subagent) {
        if (last?.role === 'tool') return { text: `Run: ${textOf(last)}`, toolCalls: [] };
        return { text: '', toolCalls: [{ id: '', name: 'refund', input: { order: 'A-1' } }] };
      }
      if (last?.role === 'tool') return { text: `Parent: ${textOf(last)}`, toolCalls: [] };
      return { text: '', toolCalls: [{ id: '', name: 'refunder', input: { task: 'Refund A-1' } }] };
    },
  };

  it("asks on the parent's call, shows the call inside in the run's part, and the person's approval runs it once; the run and the parent go on", async () => {
    const { agent, refunds } = refundAgent();
    const sessions = createSessions(agent, { store: memoryStore(), model: refundModel });
    const url = await serveSessions(sessions, closers);
    const page = new NodeChat(url, 'c1', 'alice');
    await page.sendMessage({ text: 'Refund A-1, please' });
    await settled(page);
    const asked = page.all.at(-1);
    const tool = asked?.parts.find((p) => p.type === 'dynamic-tool') as {
      toolName: string;
      state: string;
      approval?: { id: string };
    };
    expect(tool).toMatchObject({ toolName: 'refunder', state: 'approval-requested' });
    const [waiting] = (await sessions.get('c1', { owner: 'alice' }))?.waiting ?? [];
    expect(waiting).toMatchObject({ name: 'refund', path: ['refunder', 'refund'] });
    expect(tool.approval?.id).toBe(`${waiting.incarnation}.${waiting.toolCallId}`);
    expect(runsOf(asked)[0].data).toMatchObject({
      status: 'waiting',
      items: [{ type: 'tool', toolName: 'refund', state: 'approval-requested' }],
    });
    // A reload shows the same question, never an interrupted call.
    const reloaded = await historyOf(url);
    expect(reloaded.at(-1)?.parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({
      state: 'approval-requested',
      approval: { id: tool.approval?.id },
    });
    expect(refunds).toEqual([]);
    await page.addToolApprovalResponse({ id: tool.approval?.id ?? '', approved: true });
    await settled(page);
    expect(refunds).toEqual(['A-1']);
    const answer = page.all.at(-1);
    expect(answer?.parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({
      state: 'output-available',
      output: 'Run: refunded A-1',
    });
    expect(runsOf(answer)).toHaveLength(1);
    expect(runsOf(answer)[0].data).toMatchObject({
      status: 'done',
      items: [
        { type: 'tool', toolName: 'refund', state: 'output-available', output: 'refunded A-1' },
        { type: 'text' },
      ],
    });
    expect(answer?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)).toContain(
      'Parent: Run: refunded A-1',
    );
    // The history after the turn shows the same, and nothing waits.
    const after = await historyOf(url);
    expect(plain(runsOf(after.at(-1)))).toEqual(plain(runsOf(answer)));
    expect((await sessions.get('c1', { owner: 'alice' }))?.waiting).toEqual([]);
  });

  it.each([
    ['a call inside a run that does not wait', (inc: string) => `${inc}.call_r1_9`],
    ['the call inside, in another incarnation', (_inc: string, inner: string) => `0123456789abcd.${inner}`],
    ['the call inside, with no incarnation', (_inc: string, inner: string) => `.${inner}`],
  ])(
    'a hostile approval on the parent’s part (%s) runs nothing: 409, and the call inside still waits',
    async (_what, approvalId) => {
      const { agent, refunds } = refundAgent();
      const sessions = createSessions(agent, { store: memoryStore(), model: refundModel });
      const handler = usersHandler(sessions);
      await sessions.send('c1', 'Refund A-1, please', { owner: 'alice' });
      const info = await sessions.get('c1', { owner: 'alice' });
      const [inner] = info?.waiting ?? [];
      const parent = (await sessions.subagentRuns('c1', { owner: 'alice' }))[0].toolCallId;
      const post = (user: string, id: string) =>
        handler(
          new Request(
            `http://localhost${apiPath('chat')}`,
            approvalInit(user, {
              toolName: 'refunder',
              toolCallId: parent,
              input: { task: 'Refund A-1' },
              approvalId: id,
            }),
          ),
        );
      const response = await post('alice', approvalId(info?.incarnation as string, inner.toolCallId));
      expect(response.status).toBe(409);
      // Another user, with the very id alice was shown, reaches no chat at all.
      expect((await post('mallory', `${info?.incarnation}.${inner.toolCallId}`)).status).toBe(404);
      expect(refunds).toEqual([]);
      expect((await sessions.get('c1', { owner: 'alice' }))?.waiting).toMatchObject([{ toolCallId: inner.toolCallId }]);
      await sessions.close();
    },
  );
});
