import { createSessions, type Message, SessionConflictError, textOf } from '@skilltree/core';
import { expect, test } from 'vitest';
import { bumpModel, counterAgent } from '../fixture.js';
import { reachVersion, reply, state, user } from './chats.js';
import { checkTranscript } from './check-transcript.js';
import { gate, simulatedProcess } from './processes.js';
import type { Suite } from './suite.js';

/** Deletion and the incarnations of a chat: a deleted chat is gone, and nothing of an old incarnation reaches a new one under its id. */
export function deletionTests(suite: Suite): void {
  const { newId, commit, seed, sessions } = suite;

  test('delete removes the session, its messages and its lease; the id can start over', async () => {
    const { a, b, c } = suite;
    const id = newId('delete');
    const version = await seed(id, [user('old'), reply('old reply')]);
    expect(await a.acquire(id, 'running', 5_000)).toBe(true);
    expect(await b.delete(id)).toBe(true);
    expect(await a.record(id)).toBeNull();
    expect(await a.load(id, 60)).toBeNull();
    expect(await a.messages(id, 0, 10)).toEqual([]);
    expect(await b.delete(id)).toBe(false);
    expect(await a.renew(id, 'running', 5_000)).toBe(false);
    await expect(commit(a, id, { holder: 'running', version, append: [] })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    expect(await c.acquire(id, 'new', 5_000)).toBe(true);
    await commit(c, id, { holder: 'new', append: [user('new')] });
    expect(await a.record(id)).toMatchObject({ version: 1, length: 1 });
    expect((await a.messages(id, 0, 10)).map(textOf)).toEqual(['new']);
    await c.release(id, 'new');
  });

  test('every incarnation has its own epoch: a commit of a deleted one is refused in the new one, even at its version', async () => {
    const { a, b, c } = suite;
    const id = newId('epoch');
    expect(await a.acquire(id, 'old', 5_000)).toBe(true);
    let old = await commit(a, id, {
      holder: 'old',
      epoch: 'first',
      append: [user('old one')],
      state: state({ secret: 1 }),
    });
    old = await commit(a, id, { holder: 'old', version: old, epoch: 'first', append: [] });
    expect((await b.record(id))?.epoch).toBe('first');
    expect((await b.load(id, 60))?.epoch).toBe('first');
    await expect(commit(a, id, { holder: 'old', version: old, epoch: 'other', append: [] })).rejects.toThrow(
      /deleted and created again/,
    );
    expect(await b.delete(id)).toBe(true);
    expect(await c.acquire(id, 'new', 5_000)).toBe(true);
    let version = await commit(c, id, { holder: 'new', epoch: 'second', append: [user('new')] });
    version = await commit(c, id, { holder: 'new', version, epoch: 'second', append: [] });
    expect(version).toBe(old);
    await c.release(id, 'new');
    // The old incarnation's holder, even holding the lease again, cannot write into the new one.
    expect(await a.acquire(id, 'old', 5_000)).toBe(true);
    await expect(
      commit(a, id, {
        holder: 'old',
        version: old,
        epoch: 'first',
        append: [user('stale')],
        state: state({ secret: 2 }),
      }),
    ).rejects.toThrow(/deleted and created again/);
    await expect(commit(a, id, { holder: 'old', version: 0, epoch: 'third', append: [] })).rejects.toThrow(
      /created it first/,
    );
    await a.release(id, 'old');
    expect(await b.record(id)).toMatchObject({ epoch: 'second', version: old, length: 1, state: { stores: {} } });
    expect((await b.messages(id, 0, 10)).map(textOf)).toEqual(['new']);
    // A commit without an epoch is a caller's bug: refused with an error that says so, nothing written.
    const bare = newId('no-epoch');
    expect(await a.acquire(bare, 'h', 5_000)).toBe(true);
    await expect(
      commit(a, bare, {
        holder: 'h',
        epoch: undefined as unknown as string,
        append: [user('x')],
      }),
    ).rejects.toThrow(/epoch/);
    expect(await b.record(bare)).toBeNull();
    await a.release(bare, 'h');
  });

  test('a turn running when its chat is deleted in another process stops, writes nothing more, and nothing of it reaches the new chat under that id', async () => {
    const { a, b, c } = suite;
    const id = newId('deleted-mid-turn');
    const entered = gate();
    const go = gate();
    const refused = gate();
    // Process A: its turn has bumped, and waits in the model call before its reply. It renews
    // its lease every 200 ms (a lease that never lapses by itself: see simulatedProcess).
    const proc = simulatedProcess(a);
    proc.events.onRenew = (renewed, held) => {
      if (renewed === id && !held) refused.open();
    };
    const first = createSessions(counterAgent(), {
      store: proc.store,
      leaseTtl: 600,
      model: bumpModel(async (req) => {
        if (req.messages.some((m) => m.role === 'tool' && m.name === 'bump')) {
          entered.open();
          await go.opened;
        }
      }),
    });
    const running = first.send(id, 'old').then(
      () => null,
      (error: unknown) => error,
    );
    await entered.opened;
    const before = (await b.record(id))!.version;
    // Process B deletes the chat and starts a new one under the same id, up to the same version.
    const second = sessions(b);
    expect(await second.delete(id)).toBe(true);
    await reachVersion(second, b, id, before);
    const created = await c.messages(id, 0, 100);
    // A's next renewal is refused (the lease went with the chat) before its model answers.
    await refused.opened;
    go.open();
    const error = await running;
    expect(error).toBeInstanceOf(SessionConflictError);
    expect(String(error)).toMatch(/deleted or taken over while this turn ran/);
    expect(await c.messages(id, 0, 100)).toEqual(created);
    expect((await c.record(id))?.state.stores).toEqual({});
    // Any process goes on with the new chat.
    expect((await sessions(c).send(id, 'say after')).text).toBe('ok: say after');
    const messages = await c.messages(id, 0, 100);
    expect(checkTranscript(messages)).toEqual([]);
    expect(messages.some((m) => textOf(m) === 'old' || m.role === 'tool')).toBe(false);
  });

  test('a process that cached the deleted chat never reuses it for the new chat under that id, even at the same version', async () => {
    const { a, b, c } = suite;
    const id = newId('stale-cache');
    const seen: Message[][] = [];
    const cached = createSessions(counterAgent(), {
      store: a,
      model: bumpModel((req) => {
        seen.push(req.messages);
      }),
    });
    await cached.send(id, 'secret');
    const version = (await a.record(id))!.version;
    const other = sessions(b);
    expect(await other.delete(id)).toBe(true);
    await reachVersion(other, b, id, version);
    seen.length = 0;
    expect((await cached.send(id, 'say what do you know?')).text).toBe('ok: say what do you know?');
    expect(seen.flat().some((m) => textOf(m) === 'secret' || m.role === 'tool')).toBe(false);
    expect((await c.record(id))?.state).toMatchObject({ loadedSkills: [], stores: {} });
    expect((await c.messages(id, 0, 100)).some((m) => textOf(m) === 'secret' || m.role === 'tool')).toBe(false);
  });
}
