import { type Message, textOf, type Usage } from '@skilltree/core';
import { estimateTokens, ownerKey, spentSince } from '@skilltree/core/provider';
import { expect, test } from 'vitest';
import { bumpModel, lastUserText } from '../fixture.js';
import { checkTranscript } from './check-transcript.js';
import { gate } from './processes.js';
import type { Suite } from './suite.js';

/**
 * Budgets: per-owner and per-session limits hold across processes, and what a refused or aborted
 * turn leaves. What a case charged is read with `spentSince` from the case's start: spend is kept
 * per UTC day, so a case that runs across midnight charges two.
 */
export function budgetTests(suite: Suite): void {
  const { run, newId, sessions } = suite;

  test("per-owner budgets hold across processes: two createSessions over one store stop the owner's turns once the period's limit is spent", async () => {
    const since = Date.now();
    const { a, b, c } = suite;
    const owner = `${run}-budget-owner`;
    // Every model call reports 10 000 tokens (a turn is read, bump, reply: three calls).
    let calls = 0;
    const counted = () => calls++;
    const budget = { perOwner: { tokens: 50_000, period: 'day' as const } };
    const one = sessions(a, { model: reportingModel(counted), budget });
    const two = sessions(b, { model: reportingModel(counted), budget });
    // Four turns at once, two per process, on four chats of one owner: they need 120 000 tokens.
    const results = await Promise.allSettled(
      [one, two, one, two].map((s, i) => s.send(newId('owner-turn'), `turn ${i}`, { owner })),
    );
    const stopped = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(stopped.length).toBeGreaterThan(0);
    for (const error of stopped) expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner', owner });
    // The store holds exactly what the model reported, whichever process charged it.
    const spent = await spentSince(c, await ownerKey(owner), since);
    expect(spent.tokens).toBe(calls * 10_000);
    expect(spent.tokens).toBeGreaterThanOrEqual(50_000);
    // The limit is spent: the next turn, in either process, is refused before anything is recorded.
    for (const s of [one, two]) {
      const id = newId('owner-refused');
      const error = await s.send(id, 'more', { owner }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner', owner, unit: 'tokens', next: 0 });
      expect(await a.record(id)).toBeNull();
    }
    // Another owner is not affected.
    expect((await one.send(newId('owner-other'), 'fine', { owner: `${owner}-2` })).text).toBe('done: fine');
  });

  test('a session budget stops a runaway conversation, whichever process runs its next turn', async () => {
    const { a, b, c } = suite;
    const id = newId('session-budget');
    // Every call reports 10 000 tokens: the first turn takes three calls (read, bump, reply), the
    // next ones two (the skill stays loaded).
    const budget = { perSession: { tokens: 35_000 } };
    const one = sessions(a, { model: reportingModel(), budget });
    const two = sessions(b, { model: reportingModel(), budget });
    expect((await one.send(id, 'first')).text).toBe('done: first');
    // The second turn runs in the other process, from what the store kept (30 000 spent): its
    // second call would go over, so it stops before it, with every call answered.
    const error = await two.send(id, 'second').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'session', unit: 'tokens', limit: 35_000 });
    const messages = await c.messages(id, 0, 100);
    expect(checkTranscript(messages)).toEqual([]);
    expect((await c.record(id))?.state.usage).toMatchObject({ inputTokens: 36_000, outputTokens: 4_000 });
    // The limit is spent: a third turn, in the first process, is refused before anything is recorded.
    const length = (await c.record(id))?.length;
    await expect(one.send(id, 'third')).rejects.toMatchObject({ scope: 'session', next: 0 });
    expect((await c.record(id))?.length).toBe(length);
  });

  test('a send refused by a budget leaves no orphan user message in the store', async () => {
    const { a, b, c } = suite;
    const budget = { perTurn: { tokens: 1 } };
    const owner = `${run}-orphan`;
    const fresh = newId('orphan-new');
    await expect(sessions(a).send(fresh, 'say hi', { owner, budget })).rejects.toMatchObject({ scope: 'turn' });
    expect(await sessions(b).get(fresh, { owner })).toBeNull();
    const old = newId('orphan-old');
    await sessions(a).send(old, 'say first', { owner });
    const before = await c.record(`${await ownerKey(owner)}\u001f${old}`);
    await expect(sessions(b).send(old, 'say second', { owner, budget })).rejects.toMatchObject({ scope: 'turn' });
    const after = await c.record(`${await ownerKey(owner)}\u001f${old}`);
    expect(after?.length).toBe(before?.length);
    expect((await sessions(c).messages(old, { owner })).map(textOf)).toEqual(['say first', 'ok: say first']);
  });

  test("an aborted model call is charged what it consumed (its input and what it streamed, marked estimated) on the session's usage and the owner's spend", async () => {
    const since = Date.now();
    const { b, c } = suite;
    const id = newId('aborted');
    const owner = `${run}-aborted`;
    const parts = [{ type: 'text-delta' as const, text: 'A partial reply that was cut off' }];
    expect(await stoppedTurn(suite, { id, owner, name: 'stalling', parts })).toMatchObject({ name: 'AbortError' });
    const usage = (await sessions(b).get(id, { owner }))?.usage;
    expect(usage).toMatchObject({
      estimated: true,
      outputTokens: estimateTokens('A partial reply that was cut off'),
    });
    expect(usage?.inputTokens).toBeGreaterThan(0);
    const spent = await spentSince(c, await ownerKey(owner), since);
    expect(spent.tokens).toBe((usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0));
  });

  test('concurrent turns of one owner from several processes cannot all pass the same check: the reservations never add up past the limit', async () => {
    const since = Date.now();
    const { a } = suite;
    const owner = `${run}-concurrent-owner`;
    // What one first call reserves: its estimated input.
    const input = await firstCallInput(suite);
    expect(input).toBeGreaterThan(0);
    const limit = Math.floor(input * 2.5);
    // No output: each call reserves its input alone, as the limit here counts.
    const { inModel, turns } = await heldTurns(suite, {
      owner,
      label: 'concurrent-owner',
      count: 6,
      limit,
      model: { name: 'held', maxOutputTokens: 0, usage: { inputTokens: input, outputTokens: 0 } },
    });
    for (const release of inModel) release();
    const results = await Promise.all(turns);
    expect(inModel).toHaveLength(2);
    const refused = results.filter((r) => r !== null);
    expect(refused).toHaveLength(4);
    for (const error of refused) expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner', owner });
    expect(await spentSince(a, await ownerKey(owner), since)).toEqual({ tokens: 2 * input, dollars: 0 });
  });

  test("15 concurrent calls of one owner from three processes overshoot the owner's limit by at most one call's output: each reserves its input and its most output", async () => {
    const since = Date.now();
    const { b, c } = suite;
    const owner = `${run}-overshoot`;
    const input = await firstCallInput(suite);
    // Every call streams its most output (reasoning billed as output): 3 000 tokens.
    const max = 3_000;
    const limit = 4 * (input + max);
    const { inModel, turns } = await heldTurns(suite, {
      owner,
      label: 'overshoot',
      count: 15,
      limit,
      model: {
        name: 'thinking',
        maxOutputTokens: max,
        usage: { inputTokens: input, outputTokens: max, reasoningTokens: max - 10 },
      },
    });
    const key = await ownerKey(owner);
    // While the admitted calls are in flight, each holds its input and its most output.
    expect(await spentSince(b, key, since)).toEqual({ tokens: inModel.length * (input + max), dollars: 0 });
    for (const release of inModel) release();
    const refused = (await Promise.all(turns)).filter((r) => r !== null);
    for (const error of refused) expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner', owner });
    expect(inModel).toHaveLength(4);
    expect(refused).toHaveLength(11);
    const spent = await spentSince(c, key, since);
    expect(spent.tokens).toBe(4 * (input + max));
    expect(spent.tokens).toBeLessThanOrEqual(limit + max);
  });

  test("reasoning streamed before a stop is charged as output on the session's usage and the owner's spend", async () => {
    const since = Date.now();
    const { b, c } = suite;
    const id = newId('thought');
    const owner = `${run}-thought`;
    // About 5 000 tokens of reasoning, and no text yet, when the turn is stopped.
    const thought = 'Weighing the refund against the policy. '.repeat(500);
    const parts = Array.from({ length: Math.ceil(thought.length / 1_000) }, (_, i) => ({
      type: 'reasoning-delta' as const,
      text: thought.slice(i * 1_000, (i + 1) * 1_000),
    }));
    expect(await stoppedTurn(suite, { id, owner, name: 'thinking', parts })).toMatchObject({ name: 'AbortError' });
    const usage = (await sessions(b).get(id, { owner }))?.usage;
    expect(usage).toMatchObject({ estimated: true, outputTokens: estimateTokens(thought) });
    const spent = await spentSince(c, await ownerKey(owner), since);
    expect(spent.tokens).toBe((usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0));
  });
}

/** A bump model whose every call reports 10 000 tokens (9 000 in, 1 000 out); `onCall` hears each call. */
function reportingModel(onCall?: () => void) {
  const model = bumpModel();
  return {
    name: model.name,
    async generate(...args: Parameters<typeof model.generate>) {
      const response = await model.generate(...args);
      onCall?.();
      return { ...response, usage: { inputTokens: 9_000, outputTokens: 1_000 } };
    },
  };
}

/** What one first call reserves: its estimated input, read from the refusal of a zero per-turn budget. */
async function firstCallInput({ a, newId, sessions }: Suite): Promise<number> {
  const probe = await sessions(a, { budget: { perTurn: { tokens: 0 } } })
    .send(newId('probe'), 'say go')
    .catch((e: { next: number }) => e);
  return (probe as { next: number }).next;
}

/**
 * Starts `count` turns of `owner`, each on a new chat, spread over the three processes, all under
 * a per-owner budget of `limit` tokens a day. Each process's model holds every admitted call until
 * every turn was let in or refused, so the admitted ones are all in flight at once; then resolves
 * with the held calls' releases and the turns (each `null` once it ran, or the error that refused it).
 */
async function heldTurns(
  { a, b, c, newId, sessions }: Suite,
  options: {
    owner: string;
    label: string;
    count: number;
    limit: number;
    model: { name: string; maxOutputTokens: number; usage: Usage };
  },
): Promise<{ inModel: (() => void)[]; turns: Promise<unknown>[] }> {
  const { owner, label, count, limit, model } = options;
  const inModel: (() => void)[] = [];
  let decided = 0;
  const all = gate();
  const decide = () => {
    if (++decided === count) all.open();
  };
  const held = () => ({
    name: model.name,
    maxOutputTokens: model.maxOutputTokens,
    async generate(req: { messages: Message[] }) {
      await new Promise<void>((resolve) => {
        inModel.push(resolve);
        decide();
      });
      return { text: `ok: ${lastUserText(req.messages)}`, toolCalls: [], usage: model.usage };
    },
  });
  const budget = { perOwner: { tokens: limit, period: 'day' as const } };
  const procs = [a, b, c].map((store) => sessions(store, { model: held(), budget }));
  const turns = Array.from({ length: count }, (_, i) =>
    procs[i % 3].send(newId(label), 'say go', { owner }).then(
      () => null,
      (error: unknown) => {
        decide();
        return error;
      },
    ),
  );
  await all.opened;
  return { inModel, turns };
}

/**
 * Sends `say go` to `id` as `owner` on the first process, with a model that streams `parts` then
 * stalls, and stops the turn once they are streamed; resolves with what the send threw.
 */
async function stoppedTurn(
  { a, sessions }: Suite,
  options: { id: string; owner: string; name: string; parts: Parameters<typeof stallingModel>[1] },
): Promise<unknown> {
  const streamed = gate();
  const model = stallingModel(options.name, options.parts, streamed);
  const s = sessions(a, { model, budget: { perOwner: { tokens: 1_000_000, period: 'day' } } });
  const controller = new AbortController();
  const turn = s
    .send(options.id, 'say go', { owner: options.owner, signal: controller.signal })
    .catch((e: unknown) => e);
  await streamed.opened;
  controller.abort();
  return turn;
}

/** A model that streams `parts`, says so through `streamed`, then stalls until the turn is stopped. */
function stallingModel(
  name: string,
  parts: readonly { type: 'text-delta' | 'reasoning-delta'; text: string }[],
  streamed: { open(): void },
) {
  return {
    name,
    generate: async () => ({ text: 'never', toolCalls: [] }),
    async *stream(_req: unknown, { signal }: { signal?: AbortSignal }) {
      yield* parts;
      streamed.open();
      await new Promise<void>((_, reject) => {
        const stop = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        if (signal?.aborted) stop();
        signal?.addEventListener('abort', stop, { once: true });
      });
    },
  };
}
