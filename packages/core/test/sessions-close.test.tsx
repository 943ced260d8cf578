/**
 * A stop loses nothing: `sessions.close()` takes no new turns, lets running ones finish (or stops
 * them after `timeout`) and waits until each has committed and released its lease, then closes the
 * store. The next message on a stopped chat, from any process, is answered at once.
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSessions, type Model, memoryStore, type SessionStore, Text, Tool } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';

/** `slow` waits until the turn is aborted (or `finish` is called); `echo` answers at once. */
function agentWith(started: () => void, finish: Promise<void>) {
  return (
    <Agent>
      <Text>Tools that take their time.</Text>
      <Tool
        name="slow"
        description="Takes a while"
        run={async () => {
          started();
          await finish;
          return 'slow done';
        }}
      />
    </Agent>
  );
}

/** Calls `slow` for a user text starting with "slow", then replies; anything else is echoed. */
const model: Model = {
  async generate(req) {
    const last = req.messages[req.messages.length - 1];
    if (last.role === 'user') {
      return textOf(last).startsWith('slow')
        ? { text: '', toolCalls: [{ id: '', name: 'slow', input: {} }] }
        : { text: `echo: ${textOf(last)}`, toolCalls: [] };
    }
    return { text: `after: ${last.role === 'tool' ? textOf(last) : ''}`, toolCalls: [] };
  },
};

function setup() {
  let started = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  let finish = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const events: string[] = [];
  const inner = memoryStore();
  // The same store, telling when it is closed and what is committed before.
  const store: SessionStore = Object.assign(Object.create(inner) as SessionStore, {
    async commit(...args: Parameters<SessionStore['commit']>) {
      events.push('commit');
      return inner.commit(...args);
    },
    async close() {
      events.push('close');
    },
  });
  const sessions = createSessions(agentWith(started, finished), { store, model });
  return { sessions, store: inner, running, finish, events };
}

describe('sessions.close()', () => {
  test('takes no new turns: a send after it fails with a clear error', async () => {
    const { sessions } = setup();
    await sessions.close();
    await expect(sessions.send('c', 'hi')).rejects.toThrow(/closed \(sessions\.close\(\) was called\)/);
  });

  test('lets a running turn finish within its timeout, and closes the store only after its last commit', async () => {
    const { sessions, store, running, finish, events } = setup();
    const turn = sessions.send('c', 'slow please');
    await running;
    // A timeout no machine reaches: close() must wait for the turn, however long it takes.
    const closed = sessions.close({ timeout: 600_000 });
    finish();
    expect((await turn).text).toBe('after: slow done');
    await closed;
    expect(events.at(-1)).toBe('close');
    expect(events.filter((e) => e === 'commit').length).toBeGreaterThanOrEqual(4);
    expect((await store.messages('c', 0, 10)).map((m) => textOf(m))).toEqual([
      'slow please',
      '',
      'slow done',
      'after: slow done',
    ]);
  });

  test('stops a turn that outlasts its timeout: the call in flight is committed as interrupted, and no lease is left', async () => {
    const { sessions, store, running, events } = setup();
    const turn = sessions.send('c', 'slow please').catch((error: unknown) => error);
    await running;
    await sessions.close({ timeout: 20 });
    expect(String(await turn)).toMatch(/Interrupted: the sessions were closed/);
    expect(events.at(-1)).toBe('close');
    const messages = await store.messages('c', 0, 10);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[2]).toMatchObject({ isError: true });
    expect(textOf(messages[2])).toMatch(/Interrupted: the sessions were closed/);
    // Another process that may not wait answers the next message at once: no lease is left.
    const next = createSessions(<Agent />, { store, model, onBusy: 'reject' });
    expect((await next.send('c', 'hello')).text).toBe('echo: hello');
  });

  test('stops a stream whose consumer stopped pulling, and still commits what it did', async () => {
    const { sessions, store } = setup();
    const events = sessions.stream('c', 'slow please')[Symbol.asyncIterator]();
    // Read until the model's call arrives, then stop pulling without leaving the stream.
    for (;;) {
      const next = await events.next();
      if (next.done || (next.value.type === 'message' && next.value.message.role === 'assistant')) break;
    }
    await sessions.close({ timeout: 0 });
    const messages = await store.messages('c', 0, 10);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(textOf(messages[2])).toMatch(/^Not run/);
    expect(await store.acquire('c', 'someone else', 1_000)).toBe(true);
    expect((await events.next()).done).toBe(true);
  });

  test('a timeout that is not a number of milliseconds (NaN, negative) stops the running turns at once', async () => {
    for (const timeout of [Number.NaN, -5]) {
      const { sessions, store, running } = setup();
      const turn = sessions.send('c', 'slow please').catch((error: unknown) => error);
      await running;
      await sessions.close({ timeout });
      expect(String(await turn)).toMatch(/Interrupted: the sessions were closed/);
      expect((await store.messages('c', 0, 10)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    }
  });

  test('called twice, it returns the same promise; with nothing running it closes at once', async () => {
    const { sessions, events } = setup();
    const first = sessions.close();
    expect(sessions.close()).toBe(first);
    await first;
    expect(events).toEqual(['close']);
  });
});
