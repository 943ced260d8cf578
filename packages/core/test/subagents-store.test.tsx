/**
 * SPEC §19, where runs are kept: `session.subagentRuns`, snapshots, and `sessions.subagentRuns(id)`
 * (kept with the chat in its store, deleted with it, owner-scoped).
 */
import { describe, expect, it } from 'vitest';
import { createSession, createSessions, memoryStore, restoreSession, scriptedModel } from '../src/index.js';
import { Researcher } from './researcher.js';

const script = () =>
  scriptedModel(
    [
      { toolCalls: [{ name: 'researcher', input: { task: 'look' } }] },
      { text: 'done' },
      { toolCalls: [{ name: 'researcher', input: { task: 'again' } }] },
      { text: 'done again' },
    ],
    { subagents: { researcher: [{ text: 'found' }, { text: 'found again' }] } },
  );

describe('runs kept with the chat', () => {
  it('session.subagentRuns lists each run: id, name, toolCallId, status, transcript, usage', async () => {
    const session = createSession(<Researcher />, { model: script() });
    await session.send('go');
    const [run] = session.subagentRuns;
    expect(run).toMatchObject({
      id: 'run_call_1',
      name: 'researcher',
      toolCallId: 'call_1',
      status: 'done',
      result: 'found',
    });
    expect(run.transcript.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(run.usage.inputTokens).toBeGreaterThan(0);
  });

  it('a snapshot keeps the runs, and a restored session has them', async () => {
    const model = script();
    const session = createSession(<Researcher />, { model });
    await session.send('go');
    const snapshot = JSON.parse(JSON.stringify(session.snapshot()));
    expect(snapshot.subagentRuns).toHaveLength(1);
    const restored = restoreSession(<Researcher />, snapshot, { model });
    expect(restored.subagentRuns).toEqual(session.subagentRuns);
    await restored.send('more');
    expect(restored.subagentRuns.map((r) => r.result)).toEqual(['found', 'found again']);
    expect(new Set(restored.subagentRuns.map((r) => r.id)).size).toBe(2);
  });

  it("sessions.subagentRuns(id) reads a chat's runs from its store; another owner reads none; deleting the chat deletes them", async () => {
    const store = memoryStore();
    const sessions = createSessions(<Researcher />, { store, model: script() });
    await sessions.send('chat-1', 'go', { owner: 'ada' });
    const runs = await sessions.subagentRuns('chat-1', { owner: 'ada' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'researcher', status: 'done', result: 'found' });
    expect(await sessions.subagentRuns('chat-1', { owner: 'bob' })).toEqual([]);
    expect(await sessions.subagentRuns('nope', { owner: 'ada' })).toEqual([]);
    // Another process reads the same from the store.
    const other = createSessions(<Researcher />, { store, model: script() });
    expect(await other.subagentRuns('chat-1', { owner: 'ada' })).toEqual(runs);
    await sessions.delete('chat-1', { owner: 'ada' });
    expect(await other.subagentRuns('chat-1', { owner: 'ada' })).toEqual([]);
  });
});
