import {
  Agent,
  createSessions,
  type Model,
  type ModelRequest,
  type SessionStore,
  Subagent,
  Tool,
  textOf,
} from '@skilltree/core';
import { createElement as h, type ReactNode } from 'react';
import { expect, test } from 'vitest';
import { lastUserText } from '../fixture.js';
import { refundTool } from './refund-tool.js';
import type { Suite } from './suite.js';

/** Refunds the researcher's runs made, by chat id: a call inside a run runs at most once. */
const refunds: string[] = [];

/**
 * An agent with one subagent, `researcher`: its run looks an order up (`lookup`) and, asked to,
 * refunds it (`refund`, which waits for a person's approval).
 */
function researchAgent(id: string): ReactNode {
  return h(
    Agent,
    null,
    h(
      Subagent,
      { name: 'researcher', description: "Researches an order's history in a context of its own." },
      h(Tool, {
        name: 'lookup',
        description: 'Looks the order up.',
        run: () => 'order A-1: shipped, one complaint',
      }),
      refundTool(refunds, id),
    ),
  );
}

/** The text of the run's task, or the parent's user message. */
const taskOf = (req: ModelRequest) => lastUserText(req.messages);

/**
 * The parent calls `researcher` with the user's text as the task and answers with what it returned;
 * the run calls `lookup` (or `refund` when its task says so), then answers from the result.
 */
function researchModel(): Model {
  return {
    name: 'research-model',
    async generate(req) {
      const last = req.messages[req.messages.length - 1];
      if (req.subagent) {
        // The run's calls report what they used: it is kept on the run.
        const usage = { inputTokens: 10, outputTokens: 2 };
        if (last?.role === 'tool') return { text: `found: ${textOf(last)}`, toolCalls: [], usage };
        const tool = taskOf(req).startsWith('refund') ? 'refund' : 'lookup';
        return { text: '', toolCalls: [{ id: '', name: tool, input: {} }], usage };
      }
      if (last?.role === 'tool') return { text: `the researcher says ${textOf(last)}`, toolCalls: [] };
      return { text: '', toolCalls: [{ id: '', name: 'researcher', input: { task: taskOf(req) } }] };
    },
  };
}

const researchSessions = (store: SessionStore) =>
  createSessions((id) => researchAgent(id), { store, model: researchModel() });

/**
 * Subagent runs are kept with their chat: any process reads them, they go when the chat is deleted,
 * another owner never sees them, and a call inside a run that waits for approval is one of the
 * chat's waiting calls that any process answers, after a restart, running it once.
 */
export function subagentTests(suite: Suite): void {
  const { newId } = suite;

  test("a chat's subagent runs are kept with it: another process reads each run's transcript, status and usage", async () => {
    const { a, b } = suite;
    const id = newId('runs-kept');
    const turn = await researchSessions(a).send(id, 'look up A-1');
    expect(turn.text).toBe('the researcher says found: order A-1: shipped, one complaint');
    const runs = await researchSessions(b).subagentRuns(id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'researcher', status: 'done', depth: 1, context: 'isolated' });
    expect(runs[0].transcript.map(textOf)).toEqual([
      'look up A-1',
      '',
      'order A-1: shipped, one complaint',
      'found: order A-1: shipped, one complaint',
    ]);
    // The run's call is the parent's: its id is the call the parent's transcript holds.
    const messages = await researchSessions(b).messages(id);
    const call = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []))[0];
    expect(runs[0].toolCallId).toBe(call?.id);
    expect(runs[0].usage).toMatchObject({ inputTokens: 20, outputTokens: 4 });
  });

  test('runs are deleted with their chat: a chat started again under its id has only its own', async () => {
    const { a, b, c } = suite;
    const id = newId('runs-deleted');
    await researchSessions(a).send(id, 'look up A-1');
    expect(await researchSessions(b).subagentRuns(id)).toHaveLength(1);
    expect(await researchSessions(c).delete(id)).toBe(true);
    expect(await researchSessions(a).subagentRuns(id)).toEqual([]);
    await researchSessions(b).send(id, 'look up A-2');
    const again = await researchSessions(c).subagentRuns(id);
    expect(again.map((run) => textOf(run.transcript[0]))).toEqual(['look up A-2']);
  });

  test("runs are the owner's: another owner reads none of them, under the same chat id or its own", async () => {
    const { a, b } = suite;
    const id = newId('runs-owned');
    await researchSessions(a).send(id, 'look up A-1', { owner: 'ann' });
    expect(await researchSessions(b).subagentRuns(id, { owner: 'ann' })).toHaveLength(1);
    expect(await researchSessions(b).subagentRuns(id, { owner: 'bob' })).toEqual([]);
    await researchSessions(b).send(id, 'look up B-9', { owner: 'bob' });
    const bobs = await researchSessions(a).subagentRuns(id, { owner: 'bob' });
    expect(bobs.map((run) => textOf(run.transcript[0]))).toEqual(['look up B-9']);
    const anns = await researchSessions(a).subagentRuns(id, { owner: 'ann' });
    expect(anns.map((run) => textOf(run.transcript[0]))).toEqual(['look up A-1']);
  });

  test('an approval inside a run survives a restart: another process answers it, the tool runs once, then the run and the parent go on', async () => {
    const { a, b, c } = suite;
    const id = newId('run-approval');
    const waiting = (await researchSessions(a).send(id, 'refund A-1')).waiting ?? [];
    expect(waiting).toMatchObject([
      { name: 'refund', for: 'approval', status: 'waiting', path: ['researcher', 'refund'] },
    ]);
    // The process that started it is gone: a new one reads the waiting call and the waiting run.
    const restarted = researchSessions(b);
    expect((await restarted.get(id))?.waiting).toMatchObject([{ toolCallId: waiting[0].toolCallId }]);
    expect((await restarted.subagentRuns(id))[0]).toMatchObject({ name: 'researcher', status: 'waiting' });
    expect(refunds.filter((r) => r === id)).toEqual([]);
    const answered = await restarted.approve(id, waiting[0].toolCallId, { input: waiting[0].input });
    expect(answered.text).toBe('the researcher says found: refunded');
    expect(refunds.filter((r) => r === id)).toEqual([id]);
    // Answered again from a third process: nothing waits, nothing runs twice.
    await expect(researchSessions(c).approve(id, waiting[0].toolCallId)).rejects.toMatchObject({ code: 'not-waiting' });
    expect(refunds.filter((r) => r === id)).toEqual([id]);
    const runs = await researchSessions(c).subagentRuns(id);
    expect(runs).toMatchObject([{ name: 'researcher', status: 'done' }]);
  });
}
