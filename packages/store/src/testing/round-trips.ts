import { createSessions, type Message, type ModelRequest, memoryStore, textOf } from '@skilltree/core';
import type { StoredState } from '@skilltree/core/provider';
import { expect, test } from 'vitest';
import { bumpModel, cameraAgent, counterAgent, thinkingModel } from '../fixture.js';
import { converse, reply, unscoped, user } from './chats.js';
import { checkTranscript } from './check-transcript.js';
import type { Suite } from './suite.js';

/** Round trips: a committed chat comes back exactly from any process, a turn in another process sends what the writing one would have, and records written before messages had parts are read upgraded. */
export function roundTripTests(suite: Suite): void {
  const { newId, commit, sessions } = suite;

  test('round trip: a committed session comes back exactly (record, load, messages), from any process', async () => {
    const { a, b } = suite;
    const id = newId('round-trip');
    const messages: Message[] = [
      user('Ünïcödé, emoji 🦊, quotes " and \\ and a\nnew line'),
      {
        role: 'assistant',
        content: [],
        toolCalls: [{ id: 'call_1', name: 'look_up', input: { zeta: 1, alpha: { b: [1, 2, { y: null, x: true }] } } }],
      },
      {
        role: 'tool',
        toolCallId: 'call_1',
        name: 'look_up',
        content: [
          { type: 'text', text: 'failed' },
          { type: 'context-changed', changes: [{ kind: 'loaded', skill: 'counter' }] },
        ],
        isError: true,
        errorKind: 'threw',
      },
      reply('x'.repeat(20_000)),
    ];
    const stored: StoredState = {
      loadedSkills: ['b', 'a'],
      stores: { cart: { zeta: [1, 2], alpha: 'ä', nested: { n: 1.5, flag: false } } },
      pendingContextChanges: [{ kind: 'line', skill: 'agent', text: 'something' }],
      lastCallNumber: 1,
      usage: { inputTokens: 10, outputTokens: 2 },
      window: { start: 0, size: 4, max: 60 },
    };
    const before = Date.now();
    expect(await a.acquire(id, 'h', 5_000)).toBe(true);
    expect(await commit(a, id, { holder: 'h', append: messages, state: stored, owner: 'alice' })).toBe(1);
    for (const store of [a, b]) {
      const record = await store.record(id);
      expect(record).toMatchObject({ id, owner: 'alice', epoch: 'e', version: 1, length: 4 });
      expect(JSON.stringify(record?.state)).toBe(JSON.stringify(stored));
      expect(record!.createdAt).toBeGreaterThanOrEqual(before - 2_000);
      expect(record!.createdAt).toBeLessThanOrEqual(Date.now() + 2_000);
      expect(record!.updatedAt).toBeGreaterThanOrEqual(record!.createdAt);
      const loaded = await store.load(id, 60);
      expect(loaded).toMatchObject({ id, epoch: 'e', version: 1, length: 4, start: 0 });
      // Byte for byte, key order included: a restored transcript serialises as it did.
      expect(JSON.stringify(loaded?.messages)).toBe(JSON.stringify(messages));
      expect(JSON.stringify(await store.messages(id, 0, 10))).toBe(JSON.stringify(messages));
    }
  });

  test('append-only: a turn in another process sends the previous request plus what is new, byte for byte as the writing process would have', async () => {
    const { a, b } = suite;
    const reference: ModelRequest[] = [];
    const one = createSessions(cameraAgent(), { store: memoryStore(), model: thinkingModel(reference, true) });
    await converse(one, one, 'chat');
    const id = newId('append-only');
    const tested: ModelRequest[] = [];
    await converse(
      createSessions(cameraAgent(), { store: a, model: thinkingModel(tested, true) }),
      createSessions(cameraAgent(), { store: b, model: thinkingModel(tested, true) }),
      id,
    );
    expect(tested.every((req) => req.appendOnly !== undefined)).toBe(true);
    expect(unscoped(tested.map((req) => req.appendOnly))).toBe(unscoped(reference.map((req) => req.appendOnly)));
    // Each request is the previous one plus appended items, across the two processes too.
    for (let i = 1; i < tested.length; i++) {
      const before = tested[i - 1].appendOnly!;
      const now = tested[i].appendOnly!;
      expect(now.system).toBe(before.system);
      expect(JSON.stringify(now.tools)).toBe(JSON.stringify(before.tools));
      expect(JSON.stringify(now.items.slice(0, before.items.length))).toBe(JSON.stringify(before.items));
    }
  });

  test('a record written before messages had parts is read upgraded, and the chat goes on', async () => {
    const { a, b, c } = suite;
    const id = newId('legacy');
    // One turn as @skilltree/store wrote it before messages had parts (the store's layout did not
    // change, only the messages' JSON): string content, contextChanged lines appended to a tool
    // result's text, and an error result without an error kind.
    const legacy = [
      { role: 'user', content: 'first' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'counter' } }],
      },
      {
        role: 'tool',
        toolCallId: 'call_1',
        name: 'read_skill',
        content: 'Loaded skill "counter".\ncontextChanged counter loaded',
      },
      { role: 'assistant', content: 'Counting.', toolCalls: [{ id: 'call_2', name: 'zap', input: {} }] },
      {
        role: 'tool',
        toolCallId: 'call_2',
        name: 'zap',
        content: 'Unknown tool: zap. Tools offered now: read_skill, bump.',
        isError: true,
      },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_3', name: 'bump', input: {} }] },
      { role: 'tool', toolCallId: 'call_3', name: 'bump', content: 'bumped\ncontextChanged counter added: count 1' },
      { role: 'assistant', content: 'done: first' },
    ];
    expect(await a.acquire(id, 'old', 5_000)).toBe(true);
    await commit(a, id, {
      holder: 'old',
      append: legacy as unknown as Message[],
      state: { loadedSkills: ['counter'], stores: { tally: { count: 1 } }, lastCallNumber: 3 },
    });
    await a.release(id, 'old');
    // The store hands back what it holds, unchanged; sessions read it upgraded.
    expect(JSON.stringify(await b.messages(id, 0, 100))).toBe(JSON.stringify(legacy));
    const upgraded = await sessions(b).messages(id);
    expect(upgraded.map(textOf)).toEqual(legacy.map((m) => m.content));
    expect(upgraded[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'first' }] });
    expect(upgraded[1]).toEqual({
      role: 'assistant',
      content: [],
      toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'counter' } }],
    });
    expect(upgraded[4]).toMatchObject({ isError: true, errorKind: 'unknown-tool' });
    expect(upgraded[6].content).toEqual([
      { type: 'text', text: 'bumped' },
      { type: 'context-changed', changes: [{ kind: 'line', skill: 'counter', text: 'count 1' }] },
    ]);
    // The next turn, in another process, goes on from it: the model reads the old messages as it
    // did, and the new ones are written with parts after the old ones, which stay as they were.
    const seen: Message[][] = [];
    const next = createSessions(counterAgent(), {
      store: c,
      model: bumpModel((req) => void seen.push(req.messages)),
    });
    expect((await next.send(id, 'second')).text).toBe('done: second');
    expect(seen[0].slice(0, legacy.length).map(textOf)).toEqual(legacy.map((m) => m.content));
    for (const m of seen.flat()) expect(Array.isArray(m.content)).toBe(true);
    const stored = await a.messages(id, 0, 100);
    expect(JSON.stringify(stored.slice(0, legacy.length))).toBe(JSON.stringify(legacy));
    for (const m of stored.slice(legacy.length)) expect(Array.isArray(m.content)).toBe(true);
    expect(checkTranscript(stored)).toEqual([]);
    expect(stored.slice(legacy.length).map(textOf)).toEqual([
      'second',
      '',
      'bumped\ncontextChanged counter added: count 2',
      'done: second',
    ]);
    expect((await a.record(id))?.state.stores).toEqual({ tally: { count: 2 } });
  });
}
