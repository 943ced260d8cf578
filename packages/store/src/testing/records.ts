import { type Message, textOf } from '@skilltree/core';
import { tailStart } from '@skilltree/core/provider';
import { expect, test } from 'vitest';
import { reply, state, user } from './chats.js';
import type { Suite } from './suite.js';

/** Records and transcripts: a missing session, commits appending and bumping the version, the window's tail, and paging. */
export function recordTests(suite: Suite): void {
  const { newId, commit, seed } = suite;

  test('a missing session: record and load are null, messages empty, delete false', async () => {
    const { a } = suite;
    const id = newId('missing');
    expect(await a.record(id)).toBeNull();
    expect(await a.load(id, 60)).toBeNull();
    expect(await a.messages(id, 0, 10)).toEqual([]);
    expect(await a.delete(id)).toBe(false);
  });

  test('commits append after what is there; each bumps the version and replaces the state', async () => {
    const { a, b, c } = suite;
    const id = newId('append');
    expect(await a.acquire(id, 'h', 5_000)).toBe(true);
    let version = await commit(a, id, {
      holder: 'h',
      append: [user('one')],
      state: state({ s: 1 }),
    });
    const created = (await a.record(id))!.createdAt;
    version = await commit(b, id, {
      holder: 'h',
      version,
      append: [reply('two'), user('three')],
      state: state({ t: 2 }),
    });
    version = await commit(a, id, { holder: 'h', version, append: [], state: state({ u: 3 }) });
    expect(version).toBe(3);
    const record = await c.record(id);
    expect(record).toMatchObject({ version: 3, length: 3, createdAt: created, state: { stores: { u: 3 } } });
    expect(record!.state.stores).toEqual({ u: 3 });
    expect((await c.messages(id, 0, 10)).map(textOf)).toEqual(['one', 'two', 'three']);
  });

  test("load reads only the window's tail, from the user message tailStart names", async () => {
    const { a, b } = suite;
    const id = newId('tail');
    const messages: Message[] = [];
    const users: number[] = [];
    for (let i = 0; i < 40; i++) {
      const isUser = i % 7 === 0 || i % 11 === 3;
      if (isUser) users.push(i);
      messages.push(isUser ? user(`m${i}`) : reply(`m${i}`));
    }
    // Appended in three commits, so positions continue across commits.
    expect(await a.acquire(id, 'h', 5_000)).toBe(true);
    let version = await commit(a, id, { holder: 'h', append: messages.slice(0, 13) });
    version = await commit(a, id, { holder: 'h', version, append: messages.slice(13, 14) });
    await commit(a, id, { holder: 'h', version, append: messages.slice(14) });
    // A window past any transcript ("everything") is a whole transcript, however large the number.
    for (const window of [0, 1, 2, 3, 5, 10, 17, 26, 39, 40, 41, 1_000, 2 ** 31, Number.MAX_SAFE_INTEGER, Infinity]) {
      const start = tailStart(40, users, window);
      const loaded = await b.load(id, window);
      expect({ window, start: loaded?.start }).toEqual({ window, start });
      expect(loaded?.messages.map(textOf)).toEqual(messages.slice(start).map(textOf));
    }
    // Without any user message, the window is the last `window` messages.
    const bare = newId('tail-bare');
    await seed(bare, [reply('a'), reply('b'), reply('c')]);
    const loaded = await b.load(bare, 2);
    expect(loaded?.start).toBe(1);
    expect((await b.messages(id, 38, Number.MAX_SAFE_INTEGER)).map(textOf)).toEqual(['m38', 'm39']);
    expect(loaded?.messages.map(textOf)).toEqual(['b', 'c']);
  });

  test('messages pages through the transcript in order: from, limit, past the end', async () => {
    const { b } = suite;
    const id = newId('paging');
    const messages: Message[] = Array.from({ length: 25 }, (_, i) => user(`p${i}`));
    await seed(id, messages);
    const pages: string[] = [];
    for (let from = 0; from < 30; from += 10) pages.push(...(await b.messages(id, from, 10)).map(textOf));
    expect(pages).toEqual(messages.map(textOf));
    expect((await b.messages(id, 24, 10)).map(textOf)).toEqual(['p24']);
    expect(await b.messages(id, 25, 10)).toEqual([]);
    expect(await b.messages(id, 3, 0)).toEqual([]);
  });
}
