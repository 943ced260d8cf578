import { createSessions, textOf } from '@skilltree/core';
import { expect, test } from 'vitest';
import { bumpModel, counterAgent, hooks } from '../fixture.js';
import { checkTranscript } from './check-transcript.js';
import { gate, sleep, watchAcquires } from './processes.js';
import type { Suite } from './suite.js';

/**
 * Stops through the store: a stop is asked of the running lease's holder (`requestStop`), read by
 * that holder from any process (`stopRequested`), goes with that lease, and never reaches the turn
 * that takes the lease next. Through `createSessions`: a stop from another process stops the turn.
 */
export function stopTests(suite: Suite): void {
  const { newId, commit, seed, sessions } = suite;

  test("a stop is asked of the running lease's holder: every handle reads it for that holder only; none is asked when no turn runs", async () => {
    const { a, b, c } = suite;
    const id = newId('stop');
    // Nothing runs: nothing is asked, and nothing is left for the next turn.
    expect(await a.requestStop(id)).toBe(false);
    expect(await b.acquire(id, 'h', 60_000)).toBe(true);
    expect(await a.stopRequested(id, 'h')).toBe(false);
    expect(await c.requestStop(id)).toBe(true);
    expect(await a.stopRequested(id, 'h')).toBe(true);
    expect(await b.stopRequested(id, 'h')).toBe(true);
    expect(await a.stopRequested(id, 'other')).toBe(false);
    expect(await a.stopRequested(newId('elsewhere'), 'h')).toBe(false);
    // The turn keeps its lease (renewals, commits) until it has stopped: the request stays read.
    expect(await b.renew(id, 'h', 60_000)).toBe(true);
    await commit(b, id, { holder: 'h', append: [] });
    expect(await c.stopRequested(id, 'h')).toBe(true);
    // Asking twice is asking once.
    expect(await a.requestStop(id)).toBe(true);
    await b.release(id, 'h');
  });

  test('a stop goes with its lease: released, expired and taken over, or deleted, it never stops the turn that holds the lease next', async () => {
    const { a, b, c } = suite;
    const id = newId('stop-lease');
    await seed(id, []);
    // Released: the next holder, and the same holder taking the lease again, start unasked.
    expect(await a.acquire(id, 'first', 60_000)).toBe(true);
    expect(await b.requestStop(id)).toBe(true);
    await a.release(id, 'first');
    expect(await c.stopRequested(id, 'first')).toBe(false);
    expect(await a.acquire(id, 'first', 60_000)).toBe(true);
    expect(await c.stopRequested(id, 'first')).toBe(false);
    await a.release(id, 'first');
    // Expired (waiting longer than its TTL is always safe): no running lease to ask, and the turn
    // that takes the chat over is not the one asked.
    expect(await a.acquire(id, 'brief', 150)).toBe(true);
    expect(await b.requestStop(id)).toBe(true);
    await sleep(400);
    expect(await b.requestStop(id)).toBe(false);
    expect(await c.acquire(id, 'fresh', 60_000)).toBe(true);
    expect(await a.stopRequested(id, 'fresh')).toBe(false);
    expect(await a.stopRequested(id, 'brief')).toBe(false);
    // Deleted with the chat: a lease taken again on the id starts unasked.
    expect(await b.requestStop(id)).toBe(true);
    expect(await a.delete(id)).toBe(true);
    expect(await b.stopRequested(id, 'fresh')).toBe(false);
    expect(await c.acquire(id, 'fresh', 60_000)).toBe(true);
    expect(await b.stopRequested(id, 'fresh')).toBe(false);
    await c.release(id, 'fresh');
  });

  test('a stop from another process stops the running turn: its call in flight is committed as interrupted, the turn waiting behind it runs next, and the chat goes on', async () => {
    const { a, b, c } = suite;
    const id = newId('stop-turn');
    const inTool = gate();
    const never = gate();
    hooks.onBump = () => {
      inTool.open();
      // The tool holds until its turn is stopped (the stop does not wait for it).
      return never.opened;
    };
    try {
      const running = sessions(a).send(id, 'go');
      const failure = running.catch((error: unknown) => error);
      await inTool.opened;
      hooks.onBump = undefined;
      // A second message from a third process waits for the chat (onBusy: 'wait'), and says when it does.
      const queuedUp = gate();
      const waiting = createSessions(counterAgent(), {
        store: watchAcquires(c, (held) => (held ? undefined : queuedUp.open())),
        model: bumpModel(),
        busyTimeout: 600_000,
      });
      const queued = waiting.send(id, 'say after the stop');
      await queuedUp.opened;
      // The stop comes from yet another process, which runs nothing of this chat.
      const other = sessions(b);
      expect(await other.stop(id)).toBe(true);
      const error = (await failure) as Error;
      expect(error).toMatchObject({ name: 'AbortError' });
      expect(error.message).toMatch(/^Interrupted: the turn of chat ".*" was stopped/);
      // The queued message is answered, not stopped: a stop is for the turn that ran.
      expect((await queued).text).toBe('ok: say after the stop');
      const messages = await c.messages(id, 0, 100);
      expect(checkTranscript(messages)).toEqual([]);
      const result = messages.find((m) => m.role === 'tool' && m.name === 'bump');
      expect(result).toMatchObject({ isError: true, errorKind: 'interrupted' });
      expect(textOf(result!)).toMatch(/Interrupted: the turn of chat .* was stopped/);
      expect(messages.filter((m) => m.role === 'user').map(textOf)).toEqual(['go', 'say after the stop']);
      // Nothing runs now: nothing to stop, and the next message is answered.
      expect(await other.stop(id)).toBe(false);
      expect((await other.send(id, 'say still here')).text).toBe('ok: say still here');
    } finally {
      hooks.onBump = undefined;
      never.open();
    }
  });
}
