import { textOf } from '@skilltree/core';
import { ownerKey, periodOf, spentSince } from '@skilltree/core/provider';
import { expect, test } from 'vitest';
import { reporting } from './chats.js';
import type { Suite } from './suite.js';

/** Owners: owners are exact, and long or empty owners have their chats and budgets like any other. */
export function ownerTests(suite: Suite): void {
  const { run, newId, sessions } = suite;

  test('owners are exact: owners that differ only in a lone surrogate never share a chat (they are refused with the rule), and an owner with NUL is refused before anything reaches the store', async () => {
    const { a, b, c } = suite;
    const id = newId('exact-owner');
    const whole = 'Ann😀';
    const one = sessions(a);
    await one.send(id, 'say mine', { owner: 'Ann\uFFFD' });
    for (const owner of [whole.slice(0, 4), 'Ann\uDE00', 'Ann\uD800']) {
      await expect(sessions(b).send(id, 'say theirs', { owner })).rejects.toThrow(/lone surrogate/);
      await expect(sessions(b).messages(id, { owner })).rejects.toThrow(/lone surrogate/);
    }
    for (const owner of ['ann\u0000', 'ann\u0000x', 'a\nb']) {
      await expect(sessions(c).send(id, 'say x', { owner })).rejects.toThrow(/control characters/);
    }
    expect((await sessions(c).messages(id, { owner: 'Ann\uFFFD' })).map(textOf)).toEqual(['say mine', 'ok: say mine']);
    // The whole emoji is another owner, with a chat of its own, from any process.
    expect((await sessions(b).send(id, 'say whole', { owner: whole })).text).toBe('ok: say whole');
    expect(await sessions(c).messages(id, { owner: whole })).toHaveLength(2);
    expect(await sessions(c).messages(id, { owner: 'Ann\uFFFD' })).toHaveLength(2);
    // Ids are exact too.
    await expect(one.send(`${id}\uD800`, 'say x')).rejects.toThrow(/Invalid session id/);
  });

  test("a 3,000-character owner has its chats and is charged and held to its per-owner budget, under its owner's key", async () => {
    const { a, b, c } = suite;
    const since = Date.now();
    const owner = `${run}-${'long owner '.repeat(273)}`.slice(0, 3_000);
    const budget = { perOwner: { tokens: 25_000, period: 'day' as const } };
    const one = sessions(a, { model: reporting(10_000), budget });
    const two = sessions(b, { model: reporting(10_000), budget });
    for (const s of [one, two, one])
      expect((await s.send(newId('long-owner'), 'say hi', { owner })).text).toBe('ok: say hi');
    const key = await ownerKey(owner);
    expect(await spentSince(c, key, since)).toEqual({ tokens: 30_000, dollars: 0 });
    await expect(two.send(newId('long-owner'), 'say more', { owner })).rejects.toMatchObject({
      name: 'BudgetExceededError',
      scope: 'owner',
      owner,
      spent: 30_000,
    });
  });

  test("the owner '' has its per-owner budget like any other", async () => {
    const { a, b, c } = suite;
    const budget = { perOwner: { tokens: 15_000, period: 'day' as const } };
    const one = sessions(a, { model: reporting(10_000), budget });
    // Other runs on this store may have charged '' today: start from what it has spent.
    const key = await ownerKey('');
    const before = (await c.spent(key, periodOf('day').key)).tokens;
    const sends = before < 15_000 ? Math.ceil((15_000 - before) / 10_000) : 0;
    for (let i = 0; i < sends; i++) await one.send(newId('empty-owner'), 'say hi', { owner: '' });
    expect((await c.spent(key, periodOf('day').key)).tokens).toBe(before + sends * 10_000);
    await expect(sessions(b, { budget }).send(newId('empty-owner'), 'say no', { owner: '' })).rejects.toMatchObject({
      scope: 'owner',
      owner: '',
    });
  });
}
