import { createSessions, type Message, type ModelRequest, memoryStore, type SessionStore } from '@skilltree/core';
import { type Commit, parseMessage } from '@skilltree/core/provider';
import { expect, test } from 'vitest';
import { cameraAgent, opaque, PNG, reasoningParts, thinkingModel } from '../fixture.js';
import { converse, unscoped } from './chats.js';
import type { Suite } from './suite.js';

/** Reasoning and file parts: stored byte for byte, sent again byte for byte from another process, and file bytes written once. */
export function partTests(suite: Suite): void {
  const { newId, commit, seed } = suite;

  test('reasoning and file parts come back byte-exact (signatures, redacted and encrypted reasoning, file bytes and URLs), from any process', async () => {
    const { a, b, c } = suite;
    const id = newId('parts');
    const [thinking, redacted, encrypted] = reasoningParts(7);
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on these? "quoted" \\ 🦊' },
          { type: 'file', mediaType: 'image/png', data: PNG, filename: 'dot 🦊 "1".png' },
          { type: 'file', mediaType: 'application/pdf', url: 'https://files.example/report.pdf?a=1&b=2' },
          {
            type: 'context-changed',
            changes: [
              { kind: 'line', skill: 'agent', text: 'Cart: 2 items' },
              { kind: 'loaded', skill: 'camera' },
            ],
          },
        ],
      },
      {
        role: 'assistant',
        content: [thinking, redacted, { type: 'text', text: 'Let me look.' }],
        toolCalls: [{ id: 'call_1', name: 'snap', input: { zoom: 2 } }],
      },
      {
        role: 'tool',
        toolCallId: 'call_1',
        name: 'snap',
        content: [
          { type: 'text', text: 'the picture:' },
          { type: 'file', mediaType: 'image/png', data: PNG, filename: 'snap.png' },
          { type: 'file', mediaType: 'text/csv', data: opaque(3, 50_000) },
        ],
      },
      { role: 'assistant', content: [encrypted, { type: 'text', text: 'A dot.' }] },
    ];
    const version = await seed(id, messages.slice(0, 2));
    expect(await b.acquire(id, 'h', 5_000)).toBe(true);
    await commit(b, id, { holder: 'h', version, append: messages.slice(2) });
    await b.release(id, 'h');
    const written = JSON.stringify(messages);
    for (const store of [a, b, c]) {
      expect(JSON.stringify((await store.load(id, 60))?.messages)).toBe(written);
      expect(JSON.stringify(await store.messages(id, 0, 10))).toBe(written);
      expect(JSON.stringify(await store.messages(id, 1, 2))).toBe(JSON.stringify(messages.slice(1, 3)));
    }
    // What a session reads back is today's shape as it is: nothing to upgrade, nothing lost.
    const read = await c.messages(id, 0, 10);
    expect(read.map((m, i) => parseMessage(m, `messages[${i}]`))).toEqual(messages);
  });

  test('a turn in another process sends the reasoning and files the chat holds byte for byte, as the process that wrote them would have', async () => {
    const { a, b, c } = suite;
    const alone = memoryStore();
    const reference: ModelRequest[] = [];
    const one = createSessions(cameraAgent(), { store: alone, model: thinkingModel(reference) });
    await converse(one, one, 'chat');
    const id = newId('parts-turn');
    const seen: ModelRequest[] = [];
    await converse(
      createSessions(cameraAgent(), { store: a, model: thinkingModel(seen) }),
      createSessions(cameraAgent(), { store: b, model: thinkingModel(seen) }),
      id,
    );
    expect(unscoped(seen)).toBe(unscoped(reference));
    expect(unscoped(await c.messages(id, 0, 100))).toBe(unscoped(await alone.messages('chat', 0, 100)));
    // The second turn's first request carries what the first turn recorded: the user's file, each
    // call's reasoning and the tool's picture, as they were.
    const [first, read, , , snapped, answer] = seen[3].messages;
    expect(first.content).toContainEqual({ type: 'file', mediaType: 'image/png', data: PNG, filename: 'dot 🦊.png' });
    expect(JSON.stringify(read.content)).toBe(JSON.stringify(reasoningParts(1)));
    expect(snapped.content).toContainEqual({ type: 'file', mediaType: 'image/png', data: PNG, filename: 'snap.png' });
    expect(JSON.stringify(answer.content)).toBe(
      JSON.stringify([...reasoningParts(3), { type: 'text', text: 'A dot, call 3.' }]),
    );
  });

  test('a file is written once, with its message: no later commit carries its bytes, and deleting the chat deletes them', async () => {
    const { a, b } = suite;
    const id = newId('file-once');
    const commits: string[] = [];
    // The store as the sessions see it, with every commit's payload kept for inspection.
    const watched: SessionStore = Object.assign(Object.create(Object.getPrototypeOf(a)), a, {
      commit: (key: string, change: Commit) => {
        commits.push(JSON.stringify(change));
        return a.commit(key, change);
      },
    });
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(a))) {
      const value = (a as unknown as Record<string, unknown>)[name];
      if (name !== 'constructor' && name !== 'commit' && typeof value === 'function') {
        (watched as unknown as Record<string, unknown>)[name] = value.bind(a);
      }
    }
    const chats = createSessions(cameraAgent(), { store: watched, model: thinkingModel([]) });
    await converse(chats, chats, id);
    const count = (text: string) => text.split(PNG).length - 1;
    // Restored in another process, every file is there: the user's photo and each picture the tool took.
    const messages = await b.messages(id, 0, 100);
    const files = messages.flatMap((m) => m.content.filter((p) => p.type === 'file' && p.data === PNG));
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(count(JSON.stringify(messages))).toBe(files.length);
    // Across every commit of both turns, each file's bytes were written exactly once, with its message.
    expect(commits.reduce((sum, payload) => sum + count(payload), 0)).toBe(files.length);
    expect(commits.filter((payload) => count(payload) > 0).length).toBeLessThan(commits.length);
    expect(await chats.delete(id)).toBe(true);
    for (const store of [a, b]) {
      expect(await store.record(id)).toBeNull();
      expect(await store.load(id, 100)).toBeNull();
      expect(await store.messages(id, 0, 100)).toEqual([]);
    }
    // Not closed: closing the sessions would close the shared store the other tests use.
  });
}
