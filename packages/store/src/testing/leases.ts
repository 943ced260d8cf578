import { SessionConflictError, textOf } from '@skilltree/core';
import { expect, test } from 'vitest';
import { user } from './chats.js';
import { sleep, withTtl } from './processes.js';
import type { Suite } from './suite.js';

/** Leases and fencing: one holder at a time, commits need the live lease, a stalled holder is fenced off, renewals. */
export function leaseTests(suite: Suite): void {
  const { newId, commit, seed } = suite;

  test('one lease holder at a time: others are refused until it is released or expires; the holder renews', async () => {
    const { a, b, c } = suite;
    const id = newId('lease');
    expect(await a.acquire(id, 'first', 5_000)).toBe(true);
    expect(await b.acquire(id, 'second', 5_000)).toBe(false);
    expect(await a.acquire(id, 'first', 5_000)).toBe(true);
    await b.release(id, 'second'); // not the holder: nothing happens
    expect(await c.acquire(id, 'third', 5_000)).toBe(false);
    await a.release(id, 'first');
    expect(await b.acquire(id, 'second', 60_000)).toBe(true);
    expect(await c.acquire(id, 'third', 5_000)).toBe(false);
    await b.release(id, 'second');
    // A lease that expires frees the chat without a release (waiting longer than its TTL is always safe).
    expect(await b.acquire(id, 'second', 150)).toBe(true);
    await sleep(400);
    expect(await c.acquire(id, 'third', 5_000)).toBe(true);
    await c.release(id, 'third');
  });

  test('a commit needs the live lease: without it, or after it expired, it is refused and writes nothing', async () => {
    const { a, b } = suite;
    const id = newId('no-lease');
    await expect(commit(a, id, { holder: 'nobody', append: [user('x')] })).rejects.toBeInstanceOf(SessionConflictError);
    expect(await a.record(id)).toBeNull();
    expect(await a.acquire(id, 'brief', 100)).toBe(true);
    await sleep(300);
    await expect(commit(a, id, { holder: 'brief', append: [user('x')] })).rejects.toThrow(/lease/);
    expect(await b.record(id)).toBeNull();
    expect(await b.messages(id, 0, 10)).toEqual([]);
  });

  test('fencing: a stalled holder whose lease was taken over cannot commit, even at the right version', async () => {
    const { a, b, c } = suite;
    const id = newId('takeover');
    const version = await seed(id, [user('start')]);
    expect(await a.acquire(id, 'stalled', 150)).toBe(true);
    await sleep(400);
    expect(await b.acquire(id, 'fresh', 5_000)).toBe(true);
    const next = await commit(b, id, { holder: 'fresh', version, append: [user('fresh')] });
    await expect(commit(a, id, { holder: 'stalled', version, append: [user('stale')] })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    // The stalled holder takes the lease back once it is free: the version still fences it out.
    await b.release(id, 'fresh');
    expect(await a.acquire(id, 'stalled', 5_000)).toBe(true);
    await expect(commit(a, id, { holder: 'stalled', version, append: [user('stale')] })).rejects.toThrow(
      `version ${next}, this turn read ${version}`,
    );
    expect((await c.messages(id, 0, 10)).map(textOf)).toEqual(['start', 'fresh']);
    expect(await c.record(id)).toMatchObject({ version: next, length: 2 });
    await a.release(id, 'stalled');
  });

  test('commits race at one version: exactly one lands; creating an existing session is refused', async () => {
    const { a, b, c } = suite;
    const id = newId('race');
    const version = await seed(id, [user('start')]);
    expect(await a.acquire(id, 'h', 5_000)).toBe(true);
    const results = await Promise.allSettled(
      [a, b, c, a, b, c].map((store, i) => commit(store, id, { holder: 'h', version, append: [user(`r${i}`)] })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SessionConflictError);
    expect(await c.record(id)).toMatchObject({ version: version + 1, length: 2 });
    await expect(commit(b, id, { holder: 'h', version: 0, append: [] })).rejects.toThrow(/created it first/);
    await a.release(id, 'h');
  });

  test('a commit extends the lease by its leaseTtl', async () => {
    const { a, b } = suite;
    await withTtl(150, async (ttl) => {
      const id = newId('extend');
      const held = await heldPastTtl(suite, id, ttl, (late) =>
        commit(a, id, { holder: 'h', append: [user('x')], leaseTtl: 600_000 }).then(
          () => true,
          (error: unknown) => {
            if (error instanceof SessionConflictError && late()) return false;
            throw error;
          },
        ),
      );
      if (held === 'late') return held;
      expect(await b.acquire(id, 'other', 5_000)).toBe(true);
      await b.release(id, 'other');
    });
  });

  test("renew extends only the holder's own running lease: never a free, expired, released or deleted one", async () => {
    const { a, b, c } = suite;
    const id = newId('renew');
    expect(await a.renew(id, 'h', 5_000)).toBe(false);
    expect(await b.acquire(id, 'other', 60_000)).toBe(true);
    expect(await a.renew(id, 'h', 5_000)).toBe(false);
    expect(await b.renew(id, 'other', 60_000)).toBe(true);
    // Renewed to 150 ms from now, then left to expire (waiting longer than a TTL is always safe).
    expect(await b.renew(id, 'other', 150)).toBe(true);
    await sleep(400);
    expect(await b.renew(id, 'other', 5_000)).toBe(false);
    // A renewal that failed took nothing: the lease is free for anyone.
    expect(await c.acquire(id, 'third', 5_000)).toBe(true);
    await c.release(id, 'third');
    expect(await c.renew(id, 'third', 5_000)).toBe(false);
    // A renewal extends a running lease past the expiry it had.
    await withTtl(150, (ttl) =>
      heldPastTtl(suite, id, ttl, async (late) => {
        if (await a.renew(id, 'h', 600_000)) return true;
        if (late()) return false;
        throw new Error('renew refused the running lease of its own holder');
      }),
    );
  });

  test('a renewal marks the record as updated (a turn that renews reads as running between commits); a refused one marks nothing', async () => {
    const { a, b, c } = suite;
    const id = newId('renew-updates');
    expect(await a.acquire(id, 'h', 60_000)).toBe(true);
    // No record yet (a new chat's first turn): the renewal renews, and creates nothing.
    expect(await a.renew(id, 'h', 60_000)).toBe(true);
    expect(await b.record(id)).toBeNull();
    await commit(a, id, { holder: 'h', append: [user('hi')] });
    const committed = (await b.record(id))!;
    // Renewed until the store's clock has moved past the commit (a renewal in the same millisecond moves nothing).
    let renewed = committed;
    for (let tries = 0; renewed.updatedAt <= committed.updatedAt; tries++) {
      if (tries === 100) throw new Error("100 renewals over 500 ms never moved the record's updatedAt");
      await sleep(5);
      expect(await a.renew(id, 'h', 60_000)).toBe(true);
      renewed = (await b.record(id))!;
    }
    // Only the time: the version, the state and the messages are the commit's.
    expect({ ...renewed, updatedAt: 0 }).toEqual({ ...committed, updatedAt: 0 });
    await sleep(5);
    expect(await c.renew(id, 'other', 60_000)).toBe(false);
    expect((await b.record(id))!.updatedAt).toBe(renewed.updatedAt);
    await a.release(id, 'h');
    await sleep(5);
    expect(await a.renew(id, 'h', 60_000)).toBe(false);
    expect((await b.record(id))!.updatedAt).toBe(renewed.updatedAt);
  });
}

/**
 * Takes `id`'s lease on the first process as `h` for `ttl` ms and extends it with `extend`, which
 * says whether the extension landed (`late()`: the lease had lapsed first). Once the ttl has passed,
 * only the extension still holds it: another holder on the second process is refused; then `h`
 * releases it. `late` when the machine was slower than the ttl ({@link withTtl} tries a longer one).
 */
async function heldPastTtl(
  { a, b }: Suite,
  id: string,
  ttl: number,
  extend: (late: () => boolean) => Promise<boolean>,
): Promise<'late' | undefined> {
  const taken = Date.now();
  expect(await a.acquire(id, 'h', ttl)).toBe(true);
  if (!(await extend(() => Date.now() - taken >= ttl))) return 'late';
  // Past the lease the acquire asked for: only the extension still holds it.
  await sleep(taken + ttl + 100 - Date.now());
  expect(await b.acquire(id, 'other', 5_000)).toBe(false);
  await a.release(id, 'h');
  return undefined;
}
