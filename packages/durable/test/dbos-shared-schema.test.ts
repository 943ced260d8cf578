/**
 * Processes of one DBOS deployment (one schema) after turns that stay pending on it: a turn that
 * ended waiting for approval (its workflow in `DBOS.recv`, its process dead) and a turn
 * `sessions.close()` handed over. A turn is recovered by the process that found it abandoned, run
 * there once, and never taken from it again while it starts; the waiting turn is left where it
 * waits; later processes still run their turns and recover a dead process's turn.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DBOSClient, type WorkflowStatus } from '@dbos-inc/dbos-sdk';
import { durableWaitOf } from '@skilltree/core/provider';
import { hangs, logLines, scratch, startWorker, type Worker, type WorkerConfig } from '@skilltree/durable/testing';
import { postgresStore } from '@skilltree/store/postgres';
import { afterEach, expect, test } from 'vitest';

const url = process.env.SKILLTREE_TEST_POSTGRES_URL;
if (!url) {
  throw new Error(
    'These tests need PostgreSQL: run them with `bash .ci/with-services pnpm --filter @skilltree/durable test`.',
  );
}

const worker = fileURLToPath(new URL('./fixtures/turn-worker.tsx', import.meta.url));
const cwd = fileURLToPath(new URL('..', import.meta.url));
/** The one schema every process of this file shares, as one deployment would. */
const schema = `dbos_shared_${process.pid}_${Date.now()}`;
const workers: Worker[] = [];
const dirs: string[] = [];
let n = 0;

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.end()));
});

/** A fresh chat whose workers all run on the shared schema, each in a scratch folder of its own. */
function chatOnSchema() {
  const chat = `chat-${process.pid}-${Date.now()}-${++n}`;
  const start = (
    name: string,
    config: Pick<WorkerConfig, 'role'> & Partial<WorkerConfig>,
    recover = config.role === 'serve',
  ): Worker & { dir: string } => {
    const dir = scratch();
    dirs.push(dir);
    const w = startWorker(
      worker,
      {
        engine: 'dbos',
        storeUrl: url as string,
        dir,
        chat,
        owner: `owner-${chat}`,
        leaseTtl: 6_000,
        ...config,
        engineOptions: {
          connectionString: url,
          executorId: `${name}-${chat}`,
          schema,
          recoveryInterval: recover ? 200 : 0,
        },
      },
      { cwd },
    );
    workers.push(w);
    return Object.assign(w, { dir });
  };
  return { chat, start };
}

async function workflow(turnId: string): Promise<WorkflowStatus | undefined> {
  const client = await DBOSClient.create({ systemDatabaseUrl: url as string, systemDatabaseSchemaName: schema });
  try {
    return await client.getWorkflow(turnId);
  } finally {
    await client.destroy();
  }
}

const turnOf = (line: string) => JSON.parse(line.slice('turn '.length)) as Record<string, unknown>;
const recoveredOf = (line: string) =>
  JSON.parse(line.slice('recovered '.length)) as { turnId: string; chatId: string; error?: string };
/** Every `recovered` line of every worker so far. */
const allRecovered = () => workers.flatMap((w) => w.lines.filter((l) => l.startsWith('recovered ')).map(recoveredOf));
/** The tool attempts of `chat` in every worker's folder (a recovered turn logs where it runs). */
const attemptsOf = (chat: string) =>
  dirs.flatMap((d) => logLines(d, 'attempts.log')).filter((l) => l.split(' ')[1]?.startsWith(`${chat}/`));
const recoveredBy = (w: Worker, chat: string) =>
  w.match((l) => l.startsWith('recovered ') && l.includes(JSON.stringify(chat)), `recovered ${chat}`);

test('processes on one schema after a pending waiting turn and a handed-over turn: each turn recovered once, by the process that found it, the waiting turn left waiting, later turns run and recover', async () => {
  // 1. A turn that ends waiting for approval: its workflow stays pending in DBOS.recv; its process dies.
  const waiting = chatOnSchema();
  const asker = waiting.start('asker', { role: 'send', approval: true, hang: 'none' });
  expect(turnOf(await asker.line('turn '))).toEqual({ text: '', waiting: 1 });
  await asker.kill();
  const waitingTurn = await workflow(await waitingTurnId(waiting.chat));
  expect(waitingTurn?.status).toBe('PENDING');

  // 2. A turn handed over by sessions.close(): pending, its lease given up.
  const handed = chatOnSchema();
  const closing = handed.start('closing', { role: 'send', hang: 'tool', closeTimeout: 0 });
  await hangs(closing, join(closing.dir, 'hang'));
  await closing.end();
  expect(turnOf(await closing.line('turn ')).name).toBe('TurnHandedOverError');

  // 3. Two later processes: one only runs (it looks for nothing), one watches. The watcher takes the
  //    handed-over turn and runs it itself; the other never gets it.
  const later = chatOnSchema();
  const bystander = later.start('bystander', { role: 'serve' }, false);
  await bystander.line('ready');
  const watcher = later.start('watcher', { role: 'serve' });
  // Whichever says it first: a turn recovered through DBOS's shared queue could run in either.
  await Promise.race([recoveredBy(watcher, handed.chat), recoveredBy(bystander, handed.chat)]);
  expect(bystander.lines.filter((l) => l.startsWith('recovered '))).toEqual([]);
  expect(recoveredOf(await recoveredBy(watcher, handed.chat)).error).toBeUndefined();
  // The handed-over call ran again, with the same idempotency key.
  expect(attemptsOf(handed.chat)).toHaveLength(2);
  expect(new Set(attemptsOf(handed.chat).map((l) => l.split(' ')[1])).size).toBe(1);

  // 4. A process on the schema killed mid-tool: the watcher recovers its turn too, once.
  const killed = chatOnSchema();
  const victim = killed.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
  await hangs(victim, join(victim.dir, 'hang'));
  await victim.kill();
  expect(recoveredOf(await recoveredBy(watcher, killed.chat)).error).toBeUndefined();
  expect(attemptsOf(killed.chat)).toHaveLength(2);
  expect(new Set(attemptsOf(killed.chat).map((l) => l.split(' ')[1])).size).toBe(1);

  // 5. A fresh process on the schema runs a turn of its own to the end.
  const fresh = chatOnSchema();
  const sender = fresh.start('sender', { role: 'send' });
  expect(turnOf(await sender.line('turn '))).toEqual({ text: 'Charged 500 cents.', waiting: 0 });

  // Each turn was recovered once, by the watcher, and no run was taken from the process running it.
  expect(allRecovered().map((r) => r.chatId)).toEqual([handed.chat, killed.chat]);
  expect(bystander.lines.filter((l) => l.startsWith('recovered '))).toEqual([]);
  expect(workers.flatMap((w) => w.lines).filter((l) => /no longer owned/.test(l))).toEqual([]);
  // The waiting turn still waits, on its own executor: nothing moved it.
  const after = await workflow(waitingTurn?.workflowID as string);
  expect(after?.status).toBe('PENDING');
  expect(after?.executorId).toBe(waitingTurn?.executorId);
  expect(after?.recoveryAttempts).toBe(waitingTurn?.recoveryAttempts);
});

/** The waiting turn of `chat`, as the chat's committed state names it. */
async function waitingTurnId(chat: string): Promise<string> {
  const store = postgresStore({ connectionString: url as string });
  try {
    const wait = await durableWaitOf(store, chat, `owner-${chat}`);
    if (!wait) throw new Error(`Chat ${chat} names no durable wait.`);
    return wait.turn;
  } finally {
    await store.close();
  }
}
