import {
  Agent,
  createAgentStore,
  createSessions,
  type Message,
  type ModelRequest,
  Skill,
  Text,
  Tool,
  textOf,
  useAgentStore,
} from '@skilltree/core';
import { lifecycleProblems } from '@skilltree/core/provider';
import { createElement as h } from 'react';
import { expect, test } from 'vitest';
import { bumpModel, counterAgent } from '../fixture.js';
import { checkTranscript } from './check-transcript.js';
import type { Suite } from './suite.js';

/** Schema evolution: a stored chat meets a later version of its agent. */
export function schemaEvolutionTests(suite: Suite): void {
  const { newId, commit, sessions } = suite;

  test('schema evolution: a loaded skill the agent no longer has is dropped, with a recorded line', async () => {
    const { a, b } = suite;
    const id = newId('renamed-skill');
    await sessions(a).send(id, 'bump');
    expect((await a.record(id))?.state.loadedSkills).toEqual(['counter']);
    // The next deploy renamed the skill `counter` to `tally`.
    const renamed = h(Agent, null, h(Skill, { name: 'tally', description: 'Counts.' }, h(Text, null, 'renamed')));
    const seen: Message[][] = [];
    const s = createSessions(renamed, {
      store: b,
      model: {
        async generate(req) {
          seen.push(req.messages);
          return { text: 'ok', toolCalls: [] };
        },
      },
    });
    expect((await s.send(id, 'still there?')).text).toBe('ok');
    expect((await b.record(id))?.state.loadedSkills).toEqual([]);
    const last = seen[0][seen[0].length - 1];
    expect(last).toMatchObject({ role: 'user' });
    expect(textOf(last)).toMatch(/counter.*unloaded/);
    expect(checkTranscript(await b.messages(id, 0, 100))).toEqual([]);
  });

  test('schema evolution: saved store state is merged over the new initial state', async () => {
    const { a, b } = suite;
    const id = newId('store-fields');
    await sessions(a).send(id, 'bump');
    expect((await a.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
    // The next deploy added a field to the store with the same name.
    const agent = h(Agent, null, h(Skill, { name: 'counter', description: 'Counts.' }, h(Show)));
    const s = createSessions(agent, {
      store: b,
      model: {
        async generate(req) {
          const last = req.messages[req.messages.length - 1];
          if (last.role === 'user') return { text: '', toolCalls: [{ id: '', name: 'show', input: {} }] };
          return { text: last.role === 'tool' ? textOf(last) : '?', toolCalls: [] };
        },
      },
    });
    expect((await s.send(id, 'show')).text).toBe('1/new field');
    expect((await b.record(id))?.state.stores).toEqual({ tally: { count: 1, label: 'new field' } });
  });

  test('a stored lifecycle log that breaks a rule (a tool removal of a tool never added) is never sent: the session states its skills again', async () => {
    const { a, b, c } = suite;
    const id = newId('forged-log');
    await sessions(a).send(id, 'bump');
    const loaded = (await a.load(id, 60))!;
    const log = loaded.state.lifecycle!;
    expect(log.records.length).toBeGreaterThan(0);
    // Message 4 is the bump's result: a place where a record may sit, with a removal never added.
    const forged = {
      ...log,
      records: [
        ...log.records,
        { at: 4, entries: [{ type: 'tools' as const, skill: 'counter', added: [], removed: ['forged_tool'] }] },
      ],
    };
    expect(await a.acquire(id, 'forger', 5_000)).toBe(true);
    await commit(a, id, {
      holder: 'forger',
      version: loaded.version,
      epoch: loaded.epoch,
      append: [],
      state: { ...loaded.state, lifecycle: forged },
    });
    await a.release(id, 'forger');
    const seen: ModelRequest[] = [];
    const next = createSessions(counterAgent(), { store: b, model: bumpModel((req) => void seen.push(req)) });
    expect((await next.send(id, 'say again')).text).toBe('ok: say again');
    expect(JSON.stringify(seen[0].lifecycle)).not.toContain('forged_tool');
    expect(lifecycleProblems(seen[0])).toEqual([]);
    expect(seen[0].lifecycle?.deltas.at(-1)?.entries).toContainEqual(
      expect.objectContaining({ type: 'loaded', skill: 'counter' }),
    );
    // What the store keeps now is the log of the statement, not the forged one.
    expect(JSON.stringify((await c.record(id))?.state.lifecycle)).not.toContain('forged_tool');
  });
}

// The same store name as the fixture's `tally`, as a later deploy might define it: one field more.
const wider = createAgentStore('tally', () => ({ count: 0, label: 'new field' }));
function Show() {
  const s = useAgentStore(wider, (x) => `${x.count}/${x.label}`);
  return h(Tool, { name: 'show', description: 's', run: () => s });
}
