/**
 * A process that is alive but stalled past one chat's lease (a starved machine) loses that chat's
 * turn and only it: another process recovers that turn, and the stalled process's other turns go
 * on where they run, once. DBOS's own recovery moves every pending workflow of an executor; the
 * engine claims only the turn it found abandoned.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSessions, textOf } from '@skilltree/core';
import { fileAppears, hangs } from '@skilltree/durable/testing';
import { postgresStore } from '@skilltree/store/postgres';
import { afterEach, expect, test } from 'vitest';
import { deployment, postgresUrl, recoveredBy, recoveredOf, turnOf } from './fixtures/dbos-schema.js';

const d = deployment('per_turn');
afterEach(() => d.end());

async function messagesOf(chat: string, owner: string) {
  const store = postgresStore({ connectionString: postgresUrl });
  try {
    return await createSessions(null, { store }).messages(chat, { owner });
  } finally {
    await store.close();
  }
}

test('a live process whose lease on one chat lapsed loses that turn only: another process recovers it, its other turn finishes where it runs, once', async () => {
  const x = d.chat();
  const y = `${x.chat}-y`;
  const owner = `owner-${x.chat}`;
  // One process (one executor) runs turns on X and Y. X stalls (its lease is not renewed, its tool
  // hangs); Y's tool waits for the test's release. A 4 s TTL (renewed every 1.3 s): Y's renewals
  // hold on a busy machine, while X's lease lapses soon enough.
  const stalled = x.start('stalled', { role: 'send', also: y, stall: x.chat, leaseTtl: 4_000 }, false);
  await hangs(stalled, join(stalled.dir, 'hang'));
  await fileAppears(join(stalled.dir, 'held'));
  // Another process finds X abandoned (its lease lapsed) and recovers it.
  const taker = x.start('taker', { role: 'serve' });
  expect(recoveredOf(await recoveredBy(taker, x.chat)).error).toBeUndefined();
  // Y was left to its process: released, it ends there, answered once.
  writeFileSync(join(stalled.dir, 'release'), '');
  expect(turnOf(await stalled.line('also '))).toEqual({ text: 'Charged 500 cents.', waiting: 0 });
  expect(d.attemptsOf(y)).toHaveLength(1);
  expect(d.recovered().map((r) => r.chatId)).toEqual([x.chat]);
  const ys = await messagesOf(y, owner);
  expect(ys.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(textOf(ys[2])).toBe('charged 500');
  // X: finished by the taker, its call run again under the same key.
  const xs = await messagesOf(x.chat, owner);
  expect(xs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(textOf(xs[3])).toBe('Charged 500 cents.');
  expect(new Set(d.attemptsOf(x.chat).map((l) => l.split(' ')[1])).size).toBe(1);
});
