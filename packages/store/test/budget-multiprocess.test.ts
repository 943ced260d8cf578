/**
 * Per-owner budgets hold across OS processes: three processes run four turns each at once, every
 * turn on its own chat of one owner. Each model call reserves its estimated input before it starts,
 * in one atomic step of the store, so the turns cannot all pass on the same spend: the owner's
 * spend ends within the limit plus what the calls in flight used beyond their reservations (here
 * their fixed output), never a multiple of it. On real PostgreSQL and Redis servers, and on one
 * SQLite file. The processes start on a signal and the test waits for their exit: no timers.
 */
import { fileURLToPath } from 'node:url';
import { BudgetExceededError, createSession } from '@skilltree/core';
import { ownerKey, spentSince } from '@skilltree/core/provider';
import { describe, expect, test } from 'vitest';
import { counterAgent } from '../src/fixture.js';
import { backendsFor, startWorker } from './workers.js';

const WORKER = fileURLToPath(new URL('./fixtures/budget-worker.ts', import.meta.url));
const PROCESSES = 3;
const TURNS = 4;
/** The output tokens every model call reports: what it uses beyond its reservation. */
const OUTPUT = 10;

const backends = backendsFor('budget');

/** What the first call of a turn saying `go` reserves: its estimated input. */
async function firstCallReservation(): Promise<number> {
  const probe = createSession(counterAgent(), { budget: { perTurn: { tokens: 0 } } });
  const error = await probe.send('go').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BudgetExceededError);
  return (error as BudgetExceededError).next;
}

describe.each(backends)("one owner's turns in three processes on one %s store", (backend, setup) => {
  test('concurrent turns of one owner in several processes cannot all pass the same check: the spend stays within the limit plus the output of the calls in flight', async () => {
    const since = Date.now();
    const { url, prefix, open } = setup();
    const store = open();
    await store.record('warm-up');
    const owner = `${prefix}owner "🦊"`;
    // Room for three or so of the twelve first calls that start at once.
    const limit = Math.floor((await firstCallReservation()) * 3.5);
    const workers = Array.from({ length: PROCESSES }, (_, p) =>
      startWorker(WORKER, [
        backend,
        url,
        prefix,
        owner,
        String(limit),
        String(OUTPUT),
        Array.from({ length: TURNS }, (_, t) => `${prefix}p${p}t${t}`).join(','),
      ]),
    );
    await Promise.all(workers.map((w) => w.ready));
    for (const worker of workers) worker.child.stdin!.write('go\n');
    const codes = await Promise.all(workers.map((w) => w.exit));
    const lines = workers.flatMap((w) => w.lines);
    expect(codes, lines.filter((l) => l.startsWith('stderr')).join('\n')).toEqual(Array(PROCESSES).fill(0));
    expect(lines.filter((l) => l.startsWith('err'))).toEqual([]);
    const refused = lines.filter((l) => l.startsWith('refused')).length;
    const finished = lines.filter((l) => l.startsWith('ok')).length;
    expect(refused + finished).toBe(PROCESSES * TURNS);
    // Twelve turns of three calls need about 40 first-call reservations: some must be refused.
    expect(refused).toBeGreaterThan(0);
    const spent = await spentSince(store, await ownerKey(owner), since);
    // Reservations never add up past the limit; each call in flight may use its output beyond it.
    expect(spent.tokens).toBeLessThanOrEqual(limit + PROCESSES * TURNS * OUTPUT);
    expect(spent.tokens).toBeGreaterThan(0);
    console.log(
      `${backend}: limit ${limit} tokens, spent ${spent.tokens}; ${finished} turns finished, ${refused} refused`,
    );
    await store.close();
  }, 90_000);
});
