import { createSessions, SessionBusyError, SessionConflictError, textOf } from '@skilltree/core';
import { expect, test } from 'vitest';
import { bumpModel, counterAgent, hooks } from '../fixture.js';
import { checkTranscript } from './check-transcript.js';
import { gate, simulatedProcess, watchAcquires } from './processes.js';
import type { Suite } from './suite.js';

/** Turns across processes: step commits, takeovers, busy handling, concurrent sends, and a close or crash mid-turn. */
export function turnTests(suite: Suite): void {
  const { newId, open, sessions } = suite;

  test('a turn commits each model step as it happens', async () => {
    const { a, b } = suite;
    const id = newId('per-step');
    const seen: number[] = [];
    const model = bumpModel(async () => {
      seen.push((await b.record(id))?.length ?? 0);
    });
    const s = createSessions(counterAgent(), { store: a, model });
    await s.send(id, 'go');
    // Before each model call, the store already has every message so far.
    expect(seen).toEqual([1, 3, 5]);
    expect((await b.record(id))?.length).toBe(6);
  });

  test("a stalled process's turn cannot overwrite the newer turn of the process that took over", async () => {
    const { b, c } = suite;
    const id = newId('stalled-turn');
    const slow = simulatedProcess(await open());
    const entered = gate();
    const go = gate();
    const first = createSessions(counterAgent(), {
      store: slow.store,
      leaseTtl: 300,
      model: bumpModel(async (req) => {
        if (req.messages.length === 1) {
          entered.open();
          await go.opened;
        }
      }),
    });
    const stalledTurn = first.send(id, 'one');
    await entered.opened;
    slow.stall(); // the process freezes: no lease renewals reach the store
    await slow.expire(id); // and its lease runs out
    const second = sessions(b);
    expect((await second.send(id, 'two')).text).toBe('done: two');
    slow.resume();
    go.open();
    await expect(stalledTurn).rejects.toBeInstanceOf(SessionConflictError);
    const messages = await c.messages(id, 0, 100);
    expect(checkTranscript(messages)).toEqual([]);
    expect(messages.filter((m) => m.role === 'user').map(textOf)).toEqual(['one', 'two']);
    expect(messages.filter((m) => m.role === 'assistant' && m.toolCalls === undefined).map(textOf)).toEqual([
      'done: two',
    ]);
    expect((await c.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
  });

  test("onBusy: 'reject' fails at once with SessionBusyError; 'wait' queues behind the running turn, up to busyTimeout", async () => {
    const { a, b, c } = suite;
    const id = newId('busy');
    const entered = gate();
    const go = gate();
    const first = createSessions(counterAgent(), {
      store: a,
      model: bumpModel(async () => {
        entered.open();
        await go.opened;
      }),
    });
    const running = first.send(id, 'first');
    await entered.opened;
    // Refused while the first turn still runs (it waits for `go`): one that waited would wait 10 minutes.
    const rejecting = sessions(b, { onBusy: 'reject', busyTimeout: 600_000 });
    await expect(rejecting.send(id, 'rejected')).rejects.toBeInstanceOf(SessionBusyError);
    const impatient = sessions(c, { busyTimeout: 200 });
    await expect(impatient.send(id, 'timed out')).rejects.toBeInstanceOf(SessionBusyError);
    const asked = gate();
    const waiting = sessions(
      watchAcquires(c, (held) => {
        if (!held) asked.open();
      }),
    );
    const queued = waiting.send(id, 'queued');
    // It asked for the lease and was refused: it waits behind the running turn.
    await asked.opened;
    go.open();
    expect((await running).text).toBe('done: first');
    expect((await queued).text).toBe('done: queued');
    const users = (await a.messages(id, 0, 100)).filter((m) => m.role === 'user').map(textOf);
    expect(users).toEqual(['first', 'queued']);
  });

  test('concurrent sends from several processes: each lands exactly once, whole, one turn at a time', async () => {
    const { a, b, c } = suite;
    const ids = [newId('concurrent'), newId('concurrent'), newId('concurrent')];
    const handles = [a, b, c];
    const procs = handles.map((store) => sessions(store, { leaseTtl: 5_000 }));
    const sent: Record<string, string[]> = Object.fromEntries(ids.map((id) => [id, []]));
    await Promise.all(
      procs.map(async (proc, p) => {
        for (let i = 0; i < 6; i++) {
          const id = ids[(p + i * 2) % ids.length];
          const text = `p${p}-${i}`;
          expect((await proc.send(id, text)).text).toBe(`done: ${text}`);
          sent[id].push(text);
        }
      }),
    );
    for (const id of ids) {
      const messages = await a.messages(id, 0, 1_000);
      expect(checkTranscript(messages)).toEqual([]);
      const users = messages.filter((m) => m.role === 'user').map(textOf);
      expect([...users].sort()).toEqual([...sent[id]].sort());
      // Turns never interleave: each user message is followed by its own turn, ending in its reply.
      let current = '';
      for (const m of messages) {
        if (m.role === 'user') current = textOf(m);
        else if (m.role === 'assistant' && !m.toolCalls) expect(textOf(m)).toBe(`done: ${current}`);
      }
      const bumps = messages.filter((m) => m.role === 'tool' && m.name === 'bump' && !m.isError).length;
      expect((await a.record(id))?.state.stores).toEqual({ tally: { count: bumps } });
    }
  });

  test('close() mid-turn loses nothing: the call in flight is committed as interrupted, and the next send from another process runs at once', async () => {
    const { b, c } = suite;
    const id = newId('close');
    const inBump = gate();
    const never = gate();
    const stopping = createSessions(counterAgent(), { store: await open(), model: bumpModel() });
    hooks.onBump = () => {
      inBump.open();
      return never.opened; // the tool runs until it is stopped
    };
    const turn = stopping.send(id, 'stop me').then(
      () => null,
      (error: unknown) => error,
    );
    await inBump.opened;
    hooks.onBump = undefined;
    await stopping.close({ timeout: 50 });
    expect(String(await turn)).toMatch(/Interrupted/);
    const left = await b.messages(id, 0, 100);
    expect(left.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(left[4]).toMatchObject({ role: 'tool', name: 'bump', isError: true });
    expect(textOf(left[4])).toMatch(/Interrupted/);
    expect(checkTranscript(left)).toEqual([]);
    // No lease is left behind: another process that may not wait answers at once.
    expect((await sessions(b, { onBusy: 'reject' }).send(id, 'after')).text).toBe('done: after');
    expect((await c.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
    never.open();
  });

  test('a crash mid-turn loses at most the step in flight; the next send answers its call as interrupted', async () => {
    const { b, c } = suite;
    const id = newId('crash');
    const dying = simulatedProcess(await open());
    const crashed = createSessions(counterAgent(), { store: dying.store, model: bumpModel(), leaseTtl: 300 });
    hooks.onBump = () => dying.kill(); // dies while `bump` runs, after the call was committed
    await expect(crashed.send(id, 'crash')).rejects.toThrow(/died/);
    hooks.onBump = undefined;
    await dying.expire(id); // the dead process's lease runs out
    const left = await b.messages(id, 0, 100);
    expect(left.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(left[3]).toMatchObject({ toolCalls: [{ name: 'bump' }] });
    const next = sessions(b);
    expect((await next.send(id, 'after')).text).toBe('done: after');
    const messages = await c.messages(id, 0, 100);
    expect(checkTranscript(messages)).toEqual([]);
    expect(messages[4]).toMatchObject({ role: 'tool', name: 'bump', isError: true });
    expect(textOf(messages[4])).toMatch(/^Interrupted/);
    // The interrupted bump never counted; the next one did.
    expect((await c.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
  });
}
