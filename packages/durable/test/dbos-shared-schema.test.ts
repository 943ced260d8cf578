/**
 * Processes of one DBOS deployment (one schema) after turns that stay pending on it: a turn that
 * ended waiting for approval (its workflow in `DBOS.recv`, its process dead) and a turn
 * `sessions.close()` handed over. A turn is recovered by the process that found it abandoned, run
 * there once, and never taken from it again while it starts; the waiting turn is left where it
 * waits; later processes still run their turns and recover a dead process's turn.
 */
import { join } from 'node:path';
import { durableWaitOf } from '@skilltree/core/provider';
import { hangs } from '@skilltree/durable/testing';
import { postgresStore } from '@skilltree/store/postgres';
import { afterEach, expect, test } from 'vitest';
import { deployment, postgresUrl, recoveredBy, recoveredOf, turnOf } from './fixtures/dbos-schema.js';

const d = deployment('shared');
afterEach(() => d.end());

/** The waiting turn of `chat`, as the chat's committed state names it. */
async function waitingTurnId(chat: string): Promise<string> {
  const store = postgresStore({ connectionString: postgresUrl });
  try {
    const wait = await durableWaitOf(store, chat, `owner-${chat}`);
    if (!wait) throw new Error(`Chat ${chat} names no durable wait.`);
    return wait.turn;
  } finally {
    await store.close();
  }
}

const keys = (attempts: string[]) => new Set(attempts.map((l) => l.split(' ')[1])).size;

test('processes on one schema after a pending waiting turn and a handed-over turn: each turn recovered once, by the process that found it, the waiting turn left waiting, later turns run and recover', async () => {
  // 1. A turn that ends waiting for approval: its workflow stays pending in DBOS.recv; its process dies.
  const waiting = d.chat();
  const asker = waiting.start('asker', { role: 'send', approval: true, hang: 'none' });
  expect(turnOf(await asker.line('turn '))).toEqual({ text: '', waiting: 1 });
  await asker.kill();
  const waitingTurn = await d.workflow(await waitingTurnId(waiting.chat));
  expect(waitingTurn?.status).toBe('PENDING');

  // 2. A turn handed over by sessions.close(): pending, its lease given up.
  const handed = d.chat();
  const closing = handed.start('closing', { role: 'send', hang: 'tool', closeTimeout: 0 });
  await hangs(closing, join(closing.dir, 'hang'));
  await closing.end();
  expect(turnOf(await closing.line('turn ')).name).toBe('TurnHandedOverError');

  // 3. Two later processes: one only runs (it looks for nothing), one watches. The watcher takes the
  //    handed-over turn and runs it itself; the other never gets it.
  const later = d.chat();
  const bystander = later.start('bystander', { role: 'serve' }, false);
  await bystander.line('ready');
  const watcher = later.start('watcher', { role: 'serve' });
  // Whichever says it first: a turn recovered through DBOS's shared queue could run in either.
  await Promise.race([recoveredBy(watcher, handed.chat), recoveredBy(bystander, handed.chat)]);
  expect(bystander.lines.filter((l) => l.startsWith('recovered '))).toEqual([]);
  expect(recoveredOf(await recoveredBy(watcher, handed.chat)).error).toBeUndefined();
  // The handed-over call ran again, with the same idempotency key.
  expect(d.attemptsOf(handed.chat)).toHaveLength(2);
  expect(keys(d.attemptsOf(handed.chat))).toBe(1);

  // 4. A process on the schema killed mid-tool: the watcher recovers its turn too, once.
  const killed = d.chat();
  const victim = killed.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
  await hangs(victim, join(victim.dir, 'hang'));
  await victim.kill();
  expect(recoveredOf(await recoveredBy(watcher, killed.chat)).error).toBeUndefined();
  expect(d.attemptsOf(killed.chat)).toHaveLength(2);
  expect(keys(d.attemptsOf(killed.chat))).toBe(1);

  // 5. A fresh process on the schema runs a turn of its own to the end.
  const fresh = d.chat();
  const sender = fresh.start('sender', { role: 'send' });
  expect(turnOf(await sender.line('turn '))).toEqual({ text: 'Charged 500 cents.', waiting: 0 });

  // Each turn was recovered once, by the watcher, and no run was taken from the process running it.
  expect(d.recovered().map((r) => r.chatId)).toEqual([handed.chat, killed.chat]);
  expect(bystander.lines.filter((l) => l.startsWith('recovered '))).toEqual([]);
  expect(d.workers.flatMap((w) => w.lines).filter((l) => /no longer owned/.test(l))).toEqual([]);
  // The waiting turn still waits, on its own executor: nothing moved it.
  const after = await d.workflow(waitingTurn?.workflowID as string);
  expect(after?.status).toBe('PENDING');
  expect(after?.executorId).toBe(waitingTurn?.executorId);
  expect(after?.recoveryAttempts).toBe(waitingTurn?.recoveryAttempts);
});
