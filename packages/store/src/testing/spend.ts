import { expect, test } from 'vitest';
import { user } from './chats.js';
import { sleep, withTtl } from './processes.js';
import type { Suite } from './suite.js';

/** Spend: an owner's spend adds up across processes, and reserveSpend checks and reserves atomically. */
export function spendTests(suite: Suite): void {
  const { run, newId, seed } = suite;

  test("an owner's spend: zero at first, adds up from every process at once, kept apart per owner and period, forgotten after it expires", async () => {
    const { a, b, c } = suite;
    // Quotes, separators, emoji: an owner key is any well-formed string without control characters.
    const owner = `${run}-spender "'*:{}/\\ 🦊 中`;
    const other = `${owner}-other`;
    const future = Date.now() + 3_600_000;
    expect(await a.spent(owner, '2025-11-03')).toEqual({ tokens: 0, dollars: 0 });
    // 60 charges at once from three processes: none is lost.
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        [a, b, c][i % 3].addSpend(owner, '2025-11-03', { tokens: 7, dollars: 0.25 }, future),
      ),
    );
    for (const store of [a, b, c]) expect(await store.spent(owner, '2025-11-03')).toEqual({ tokens: 420, dollars: 15 });
    expect(await a.addSpend(owner, '2025-11-03', { tokens: 1, dollars: 0.5 }, future)).toEqual({
      tokens: 421,
      dollars: 15.5,
    });
    // Another period and another owner (whose name extends this one's) start from zero.
    expect(await b.spent(owner, '2025-11-04')).toEqual({ tokens: 0, dollars: 0 });
    expect(await b.spent(other, '2025-11-03')).toEqual({ tokens: 0, dollars: 0 });
    // Hostile amounts add nothing: a spend never refunds or poisons the total.
    await a.addSpend(owner, '2025-11-03', { tokens: -100, dollars: Number.NaN }, future);
    await a.addSpend(owner, '2025-11-03', { tokens: Number.POSITIVE_INFINITY, dollars: -1 }, future);
    expect(await c.spent(owner, '2025-11-03')).toEqual({ tokens: 421, dollars: 15.5 });
    // A period that is over reads as zero (stores may round its end up to the second).
    await withTtl(200, async (ttl) => {
      const period = `ms:${ttl}:1`;
      const expiresAt = Date.now() + ttl;
      await a.addSpend(owner, period, { tokens: 5, dollars: 1 }, expiresAt);
      const read = await a.spent(owner, period);
      if (Date.now() >= expiresAt) return 'late';
      expect(read).toEqual({ tokens: 5, dollars: 1 });
      await sleep(expiresAt + 1_100 - Date.now());
      expect(await b.spent(owner, period)).toEqual({ tokens: 0, dollars: 0 });
    });
    // Deleting a session refunds nothing.
    const id = newId('spend');
    await seed(id, [user('hi')]);
    await a.delete(id);
    expect(await a.spent(owner, '2025-11-03')).toEqual({ tokens: 421, dollars: 15.5 });
  });

  test('reserveSpend is an atomic check and reserve: from three processes at once, reservations never add up past the limit; a refusal adds nothing; settleSpend replaces a reservation by what was used', async () => {
    const { a, b, c } = suite;
    const owner = `${run}-reserver`;
    const period = '2025-11-03';
    const future = Date.now() + 3_600_000;
    // 30 reservations of 7 tokens at once from three processes against a limit of 100: 14 fit.
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        [a, b, c][i % 3].reserveSpend(owner, period, { tokens: 7, dollars: 0.25 }, { tokens: 100 }, future),
      ),
    );
    expect(results.filter((r) => r.reserved)).toHaveLength(14);
    for (const r of results) {
      if (r.reserved) expect(r.spent.tokens).toBeLessThanOrEqual(100);
      else expect(r.spent.tokens + 7).toBeGreaterThan(100);
    }
    expect(await b.spent(owner, period)).toEqual({ tokens: 98, dollars: 3.5 });
    // A dollar limit, alone: 3.5 + 1 does not fit 4, 3.5 + 0.5 does (up to the limit itself).
    expect(await a.reserveSpend(owner, period, { tokens: 0, dollars: 1 }, { dollars: 4 }, future)).toEqual({
      reserved: false,
      spent: { tokens: 98, dollars: 3.5 },
    });
    expect(await a.reserveSpend(owner, period, { tokens: 0, dollars: 0.5 }, { dollars: 4 }, future)).toEqual({
      reserved: true,
      spent: { tokens: 98, dollars: 4 },
    });
    // No limits: always reserved (a warned call still counts).
    expect((await c.reserveSpend(owner, period, { tokens: 2, dollars: 0 }, null, future)).spent.tokens).toBe(100);
    // Settled with what the call used: more than reserved adds, zeros release.
    expect(await b.settleSpend(owner, period, { tokens: 2, dollars: 0 }, { tokens: 12, dollars: 0.5 }, future)).toEqual(
      { tokens: 110, dollars: 4.5 },
    );
    expect(await c.settleSpend(owner, period, { tokens: 10, dollars: 0.5 }, { tokens: 0, dollars: 0 }, future)).toEqual(
      { tokens: 100, dollars: 4 },
    );
    // A settlement never takes the total below zero, nor does a hostile amount add or poison it.
    const other = `${run}-reserver-2`;
    expect(await a.settleSpend(other, period, { tokens: 50, dollars: 1 }, { tokens: 0, dollars: 0 }, future)).toEqual({
      tokens: 0,
      dollars: 0,
    });
    expect(
      (await a.reserveSpend(other, period, { tokens: Number.NaN, dollars: -1 }, { tokens: 10 }, future)).spent,
    ).toEqual({ tokens: 0, dollars: 0 });
    // A broken limit lets nothing through.
    expect(
      (await a.reserveSpend(other, period, { tokens: 1, dollars: 0 }, { tokens: Number.NaN }, future)).reserved,
    ).toBe(false);
    expect(await c.spent(other, period)).toEqual({ tokens: 0, dollars: 0 });
  });
}
