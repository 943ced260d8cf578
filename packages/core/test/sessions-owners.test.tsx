/**
 * Chats are namespaced by owner: the same id is another chat for each owner, so a sender always
 * reaches their own chat, nobody can claim or probe another's, and a busy chat is always the
 * sender's own. Without an owner, only chats sent without one.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { Agent, createSessions, type Message, type Model, memoryStore, SessionBusyError, Text } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { commitOldChat } from './fixtures.js';

const App = () => (
  <Agent>
    <Text>A plain agent.</Text>
  </Agent>
);

/**
 * Replies `echo: <text>`; `hold` keeps a call waiting until the returned function is called, and
 * `called` resolves once the next call has started.
 */
function echo(seen?: Message[][]): Model & { hold(): () => void; called(): Promise<void> } {
  let held: Promise<void> | null = null;
  let onCall = () => {};
  return {
    called() {
      return new Promise((resolve) => (onCall = resolve));
    },
    hold() {
      let release = () => {};
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    async generate(req) {
      seen?.push(req.messages);
      onCall();
      await held;
      const last = req.messages[req.messages.length - 1];
      return { text: `echo: ${last.role === 'user' ? textOf(last).split('\n')[0] : ''}`, toolCalls: [] };
    },
  };
}

describe('chats are namespaced by owner', () => {
  test("Alice's x and Bob's x are two chats: each sender reaches their own, new and empty the first time", async () => {
    const seen: Message[][] = [];
    const sessions = createSessions(<App />, { model: echo(seen) });
    await sessions.send('x', 'alice secret', { owner: 'alice' });
    seen.length = 0;
    expect((await sessions.send('x', 'hello', { owner: 'bob' })).text).toBe('echo: hello');
    expect(seen[0].map((m) => textOf(m))).toEqual(['hello']);
    expect((await sessions.messages('x', { owner: 'bob' })).map((m) => textOf(m))).toEqual(['hello', 'echo: hello']);
    expect((await sessions.messages('x', { owner: 'alice' })).map((m) => textOf(m))).toEqual([
      'alice secret',
      'echo: alice secret',
    ]);
    expect(await sessions.get('x', { owner: 'bob' })).toMatchObject({ id: 'x', owner: 'bob', transcriptLength: 2 });
    expect(await sessions.get('x', { owner: 'alice' })).toMatchObject({ id: 'x', owner: 'alice' });
  });

  test("another owner's chat reads exactly like an id nobody used: get null, messages empty, delete false, and it is untouched", async () => {
    const sessions = createSessions(<App />, { model: echo() });
    await sessions.send('x', 'alice secret', { owner: 'alice' });
    for (const id of ['x', 'never-used']) {
      expect(await sessions.get(id, { owner: 'mallory' })).toBeNull();
      expect(await sessions.messages(id, { owner: 'mallory' })).toEqual([]);
      expect(await sessions.delete(id, { owner: 'mallory' })).toBe(false);
    }
    expect(await sessions.get('x', { owner: 'alice' })).toMatchObject({ transcriptLength: 2 });
  });

  test("a running turn of Alice's never makes Bob's send to the same id busy", async () => {
    const model = echo();
    const sessions = createSessions(<App />, { model, onBusy: 'reject' });
    const release = model.hold();
    const called = model.called();
    const alice = sessions.send('x', 'slow', { owner: 'alice' });
    await called; // her turn holds the chat
    const bob = sessions.send('x', 'quick', { owner: 'bob' });
    await expect(sessions.send('x', 'again', { owner: 'alice' })).rejects.toBeInstanceOf(SessionBusyError);
    release();
    expect((await bob).text).toBe('echo: quick');
    expect((await alice).text).toBe('echo: slow');
  });

  test('without an owner, only chats sent without one: owned chats are invisible to it, and it to owners', async () => {
    const sessions = createSessions(<App />, { model: echo() });
    await sessions.send('x', 'owned', { owner: 'alice' });
    expect(await sessions.get('x')).toBeNull();
    expect(await sessions.messages('x')).toEqual([]);
    expect(await sessions.delete('x')).toBe(false);
    await sessions.send('x', 'unowned');
    expect(await sessions.get('x')).toMatchObject({ owner: null, transcriptLength: 2 });
    expect(await sessions.get('x', { owner: 'alice' })).toMatchObject({ owner: 'alice', transcriptLength: 2 });
    // An empty owner is an owner too: not the chat without one.
    expect(await sessions.get('x', { owner: '' })).toBeNull();
  });

  test("no id reaches an owned chat's store key: the key holds a character ids may not", async () => {
    const store = memoryStore();
    const sessions = createSessions(<App />, { store, model: echo() });
    await sessions.send('x', 'owned', { owner: 'alice' });
    expect(await store.record('x')).toBeNull();
    const key = `${createHash('sha256').update('alice').digest('hex')}\u001fx`;
    expect(await store.record(key)).toMatchObject({ owner: 'alice' });
    await expect(sessions.send(key, 'hi')).rejects.toThrow(/Invalid session id/);
    await expect(sessions.get(key)).rejects.toThrow(/Invalid session id/);
    await expect(sessions.send(key, 'hi', { owner: 'alice' })).rejects.toThrow(/Invalid session id/);
  });

  test("everything createSessions returns names the caller's id, never the store key", async () => {
    const ids: string[] = [];
    const model = echo();
    const sessions = createSessions(
      (id) => {
        ids.push(id);
        return <App />;
      },
      { model, onBusy: 'reject' },
    );
    await sessions.send('x', 'hi', { owner: 'alice' });
    expect(ids).toEqual(['x']);
    expect((await sessions.get('x', { owner: 'alice' }))?.id).toBe('x');
    const release = model.hold();
    const called = model.called();
    const running = sessions.send('x', 'slow', { owner: 'alice' });
    await called;
    const busy = await sessions.send('x', 'again', { owner: 'alice' }).catch((error: unknown) => error);
    expect(busy).toMatchObject({ name: 'SessionBusyError', sessionId: 'x' });
    expect(String(busy)).not.toContain('\u001f');
    release();
    await running;
  });

  test('owners are exact: an owner with a lone surrogate is refused with the rule, never mapped onto the owner it decodes to', async () => {
    const seen: Message[][] = [];
    const store = memoryStore();
    const sessions = createSessions(<App />, { store, model: echo(seen) });
    const whole = 'Ann😀';
    const cut = whole.slice(0, 4); // 'Ann\uD83D': half of the emoji
    await sessions.send('x', 'secret', { owner: 'Ann\uFFFD' });
    for (const owner of [cut, 'Ann\uDE00', `\uDFFF${whole}`]) {
      await expect(sessions.send('x', 'hi', { owner })).rejects.toThrow(/Invalid owner .*lone surrogate/);
      await expect(sessions.get('x', { owner })).rejects.toThrow(/lone surrogate/);
      await expect(sessions.messages('x', { owner })).rejects.toThrow(/lone surrogate/);
      await expect(sessions.delete('x', { owner })).rejects.toThrow(/lone surrogate/);
    }
    // The owner the cut one would have decoded to keeps its chat alone; the whole emoji is another owner.
    expect(seen).toHaveLength(1);
    expect((await sessions.messages('x', { owner: 'Ann\uFFFD' })).map((m) => textOf(m))).toEqual([
      'secret',
      'echo: secret',
    ]);
    expect(await sessions.get('x', { owner: whole })).toBeNull();
    expect((await sessions.send('x', 'mine', { owner: whole })).text).toBe('echo: mine');
  });

  test('owners are exact: an owner with a control character (NUL, a line break, DEL) is refused with the rule', async () => {
    const sessions = createSessions(<App />, { model: echo() });
    for (const owner of ['ann\u0000', 'ann\nbob', '\tann', 'ann\u007f', 'ann\u0085']) {
      await expect(sessions.send('x', 'hi', { owner })).rejects.toThrow(/Invalid owner .*control characters/);
      await expect(sessions.get('x', { owner })).rejects.toThrow(/control characters/);
    }
    // Any other text is an owner: quotes, separators, emoji, other scripts, 3,000 characters.
    for (const owner of [`"';:{}/\\ 🦊 ñ 中文`, 'x'.repeat(3_000), ' ']) {
      expect((await sessions.send('x', 'hi', { owner })).text).toBe('echo: hi');
    }
  });

  test('ids are exact: an id with a lone surrogate is refused with the rule', async () => {
    const sessions = createSessions(<App />, { model: echo() });
    for (const id of ['chat\uD800', 'chat😀'.slice(0, 5)]) {
      await expect(sessions.send(id, 'hi')).rejects.toThrow(/Invalid session id .*lone surrogates/);
      await expect(sessions.send(id, 'hi', { owner: 'ann' })).rejects.toThrow(/Invalid session id/);
      await expect(sessions.get(id)).rejects.toThrow(/Invalid session id/);
    }
    expect((await sessions.send('chat😀', 'hi')).text).toBe('echo: hi');
  });

  test('an owner that is not a string is refused with a clear error', async () => {
    const sessions = createSessions(<App />, { model: echo() });
    await expect(sessions.send('x', 'hi', { owner: 42 as unknown as string })).rejects.toThrow(/Invalid owner 42/);
    await expect(sessions.get('x', { owner: {} as unknown as string })).rejects.toThrow(/Invalid owner/);
  });

  test('a chat an owner created before chats were namespaced (under its bare id) stays theirs, and only theirs', async () => {
    const store = memoryStore();
    // As earlier versions stored it: the owner on the record, the chat under its id.
    await commitOldChat(store, 'old', 'h', {
      append: [
        { role: 'user', content: 'from before' },
        { role: 'assistant', content: 'echo: from before' },
      ],
      state: { loadedSkills: [], stores: {} },
      owner: 'alice',
      leaseTtl: 1_000,
    });
    await store.release('old', 'h');
    const sessions = createSessions(<App />, { store, model: echo() });
    expect(await sessions.get('old', { owner: 'bob' })).toBeNull();
    expect(await sessions.get('old')).toBeNull();
    await sessions.send('old', 'mine', { owner: 'bob' });
    expect(await sessions.messages('old', { owner: 'bob' })).toHaveLength(2);
    await sessions.send('old', 'still mine', { owner: 'alice' });
    expect((await sessions.messages('old', { owner: 'alice' })).map((m) => textOf(m))).toEqual([
      'from before',
      'echo: from before',
      'still mine',
      'echo: still mine',
    ]);
    expect(await sessions.delete('old', { owner: 'alice' })).toBe(true);
    expect(await store.record('old')).toBeNull();
  });
});
