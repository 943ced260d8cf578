import { describe, expect, test } from 'vitest';
import { createSessions, type Model, memoryStore, SessionBusyError, scriptedModel } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { snapshotFromStore, storedState } from '../src/provider.js';
import { bumper, CounterAgent, commitOldChat } from './fixtures.js';
import { heldModel } from './gate.js';

const App = CounterAgent;

describe('createSessions', () => {
  test('a session survives a restart: stores restore exactly, useState re-mounts from its initial state', async () => {
    const store = memoryStore();
    const first = createSessions(<App />, { store, model: bumper() });
    expect((await first.send('u1', 'bump')).text).toBe('count 1, local 1');
    expect((await first.send('u1', 'bump')).text).toBe('count 2, local 2');
    await first.close().catch(() => {});
    const second = createSessions(<App />, { store, model: bumper() });
    expect((await second.send('u1', 'bump')).text).toBe('count 3, local 1');
    const info = await second.get('u1');
    expect(info).toMatchObject({ transcriptLength: 14, loadedSkills: ['counter'], stores: { counter: { count: 3 } } });
    const page = await second.messages('u1', { from: 0, limit: 2 });
    expect(page.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  test('model may be a function of the session id: each conversation plays its own copy of a script', async () => {
    const made: string[] = [];
    const script = (id: string) => {
      made.push(id);
      return scriptedModel([{ text: 'first exchange' }, { text: 'second exchange' }]);
    };
    const sessions = createSessions(<App />, { model: script, cacheSize: 1 });
    expect((await sessions.send('a', 'hi')).text).toBe('first exchange');
    expect((await sessions.send('b', 'hi')).text).toBe('first exchange');
    expect(made).toEqual(['a', 'b']);
    // Mounted again after the cache let it go: a fresh copy, made for that id.
    expect((await sessions.send('a', 'again')).text).toBe('first exchange');
    expect(made).toEqual(['a', 'b', 'a']);
    // While it stays mounted, a session keeps its copy.
    expect((await sessions.send('a', 'and again')).text).toBe('second exchange');
    expect(made).toEqual(['a', 'b', 'a']);
    await sessions.close();
  });

  test("a model per chat is made for the chat's owner too: Alice's and Bob's chat x each get their own", async () => {
    const made: string[] = [];
    const script = (id: string, owner: string | undefined) => {
      made.push(`${owner}/${id}`);
      return scriptedModel([{ text: 'first exchange' }, { text: 'second exchange' }]);
    };
    const sessions = createSessions(<App />, { model: script });
    expect((await sessions.send('x', 'hi', { owner: 'alice' })).text).toBe('first exchange');
    expect((await sessions.send('x', 'hi', { owner: 'bob' })).text).toBe('first exchange');
    expect(made).toEqual(['alice/x', 'bob/x']);
    await sessions.close();
  });

  test("onBusy 'reject' fails a second turn at once with SessionBusyError; 'wait' queues it", async () => {
    const { model: slow, called, release } = heldModel();
    const store = memoryStore();
    const rejecting = createSessions(<App />, { store, model: slow, onBusy: 'reject' });
    const first = rejecting.send('s', 'one');
    await called; // the first turn holds the chat
    await expect(rejecting.send('s', 'two')).rejects.toBeInstanceOf(SessionBusyError);
    const waiting = createSessions(<App />, { store, model: scriptedModel([{ text: 'second' }]) });
    const second = waiting.send('s', 'two');
    release();
    expect((await first).text).toBe('done');
    expect((await second).text).toBe('second');
    expect((await waiting.messages('s')).map((m) => textOf(m))).toEqual(['one', 'done', 'two', 'second']);
  });

  test('storedState and snapshotFromStore map a snapshot to the store and back', async () => {
    const sessions = createSessions(<App />, { model: bumper() });
    await sessions.send('m', 'bump');
    const loaded = await sessions.store.load('m', 60);
    if (!loaded) throw new Error('not stored');
    const snapshot = snapshotFromStore(loaded);
    expect(snapshot).toMatchObject({
      version: 2,
      transcriptStart: 0,
      loadedSkills: ['counter'],
      stores: { counter: { count: 1 } },
    });
    expect(snapshot.transcript).toEqual(loaded.messages);
    expect(snapshot.windowStart).toBe(loaded.state.window?.start);
    expect(storedState(snapshot, loaded.state.window)).toEqual(loaded.state);
    await sessions.close();
  });

  test('a session in a turn is never disposed by the cache making room for others', async () => {
    let hold = false;
    let release!: () => void;
    let entered = () => {};
    const model: Model = {
      generate: () => {
        if (!hold) return Promise.resolve({ text: 'quick', toolCalls: [] });
        hold = false;
        entered();
        return new Promise((resolve) => (release = () => resolve({ text: 'slow', toolCalls: [] })));
      },
    };
    const sessions = createSessions(<App />, { model, cacheSize: 1 });
    expect((await sessions.send('a', 'one')).text).toBe('quick'); // a is cached
    hold = true;
    const called = new Promise<void>((resolve) => (entered = resolve));
    const slow = sessions.send('a', 'two'); // a's turn waits for the model
    await called;
    expect((await sessions.send('b', 'one')).text).toBe('quick'); // b is cached, the cache is full
    expect((await sessions.send('c', 'one')).text).toBe('quick');
    release();
    expect((await slow).text).toBe('slow');
    expect((await sessions.messages('a')).map((m) => textOf(m))).toEqual(['one', 'quick', 'two', 'slow']);
    expect((await sessions.send('a', 'three')).text).toBe('quick');
    await sessions.close();
  });

  test('a turn left without results by a dead process is answered as interrupted on the next send', async () => {
    const store = memoryStore();
    await commitOldChat(store, 'x', 'dead', {
      append: [
        { role: 'user', content: 'bump' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'bump', input: {} }] },
      ],
      state: { loadedSkills: ['counter'], stores: {} },
      leaseTtl: 1,
    });
    await new Promise((r) => setTimeout(r, 5));
    const sessions = createSessions(<App />, { store, model: scriptedModel([{ text: 'ok' }]) });
    await sessions.send('x', 'again');
    const messages = await sessions.messages('x');
    expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_1', isError: true });
    expect(textOf(messages[2])).toMatch(/^Interrupted/);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
  });
});
