/**
 * Stores under outage: the store's server dies (or hangs) while a turn is in flight. The turn
 * fails within seconds (by the lost connection, or by the store's own bound on a command: the
 * tests check which, not how long a busy machine took), and the lost connection is reported once (never as ioredis's "Unhandled
 * error event", never once per reconnection attempt). Once the store is back, the lease the failed
 * turn could not give back holds nothing: the chat's next message is answered at once. Redis is a
 * real redis-server the test starts, kills and restarts; Postgres is the `.ci/with-services` server
 * behind a TCP proxy the test cuts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSessions } from '@skilltree/core';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { bumpModel, counterAgent } from '../src/fixture.js';
import { postgresStore } from '../src/postgres.js';
import { redisStore } from '../src/redis.js';
import { runScript, type Script } from './script.js';
import { server } from './servers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/outage.ts', import.meta.url));
const LEASE_FIXTURE = fileURLToPath(new URL('./fixtures/outage-lease.ts', import.meta.url));
const REPORT = /Reconnecting; turns fail until the store is back/;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Resolves once something listens on 127.0.0.1:`port`; rejects if `server` exits first. */
async function reachable(port: number, server?: ChildProcess): Promise<void> {
  let exited = false;
  server?.once('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`the server for 127.0.0.1:${port} exited before it listened`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs the fixture against `url`; once its turn is paused, `outage()` takes the server away and
 * the turn goes on. Returns how long the turn took to fail after that, its last line and stderr.
 */
async function turnDuringOutage(backend: string, url: string, outage: () => void) {
  const lines: string[] = [];
  let started = 0;
  let took = -1;
  const fixture = runFixture(FIXTURE, [backend, url], (line) => {
    lines.push(line);
    if (line === 'paused') {
      outage();
      started = Date.now();
      fixture.child.stdin!.write('go\n');
    } else if (line.startsWith('failed') || line === 'ok') {
      took = Date.now() - started;
    }
  });
  await fixture.exit;
  return { took, last: lines.at(-1) ?? '', stderr: fixture.stderr() };
}

/**
 * Runs the fixture `file` with `args` under tsx (killed after the test if still running), handing
 * each line it prints to `onLine` as it comes; `stderr()` is what it wrote there so far.
 */
function runFixture(file: string, args: string[], onLine: (line: string) => void): Script {
  const fixture = runScript(file, args, onLine);
  cleanups.push(() => fixture.child.kill('SIGKILL'));
  return fixture;
}

/** A redis-server on `port`; with `dir`, it keeps its data across a restart (AOF, each write on disk before it answers). */
function startRedis(port: number, dir?: string): ChildProcess {
  const persistence = dir ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir] : ['--appendonly', 'no'];
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
    stdio: 'ignore',
  });
  cleanups.push(() => {
    redis.kill('SIGCONT');
    redis.kill('SIGKILL');
  });
  return redis;
}

/** Kills `redis` as a crash would, and resolves once it is gone. */
function crash(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null || redis.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => redis.once('exit', () => resolve()));
  redis.kill('SIGKILL');
  return gone;
}

/**
 * Runs the lease fixture in `mode` on a Redis that keeps its data: kills Redis while the turn is in
 * its model call, restarts it once the turn has failed, and (mode `idle`) runs `whileIdle` with the
 * store's URL before letting the fixture exit. Resolves with the fixture's lines.
 */
async function outageAndRestart(mode: 'next' | 'idle', whileIdle?: (url: string) => Promise<void>) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'skilltree-outage-aof-'));
  let redis = startRedis(port, dir);
  await reachable(port, redis);
  const url = `redis://127.0.0.1:${port}`;
  const lines: string[] = [];
  const failures: unknown[] = [];
  const handle = async (line: string) => {
    if (line === 'paused') {
      await crash(redis);
      fixture.child.stdin!.write('go\n');
    } else if (line.startsWith('failed ')) {
      redis = startRedis(port, dir);
      await reachable(port, redis);
      fixture.child.stdin!.write('back\n');
    } else if (line === 'idle') {
      await whileIdle?.(url);
      fixture.child.stdin!.write('exit\n');
    }
  };
  let queue = Promise.resolve();
  const fixture = runFixture(LEASE_FIXTURE, [url, mode], (line) => {
    lines.push(line);
    queue = queue
      .then(() => handle(line))
      .catch((error: unknown) => {
        failures.push(error);
        fixture.child.kill('SIGKILL');
      });
  });
  await fixture.exit;
  await queue;
  if (failures.length > 0) throw failures[0];
  return { lines, stderr: fixture.stderr() };
}

/** A TCP proxy to `target` that can be cut (connections reset, new ones refused) like a server that died. */
async function proxy(target: { host: string; port: number }): Promise<{ port: number; cut(): void }> {
  const sockets = new Set<Socket>();
  const front: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const cut = () => {
    front.close();
    for (const socket of sockets) socket.resetAndDestroy();
  };
  cleanups.push(cut);
  return { port: (front.address() as { port: number }).port, cut };
}

/** Runs a turn on a Redis server of its own, sending the server `signal` while the turn runs. */
async function redisTurnDuring(signal: NodeJS.Signals) {
  const port = await freePort();
  const redis = startRedis(port);
  await reachable(port, redis);
  return turnDuringOutage('redis', `redis://127.0.0.1:${port}`, () => redis.kill(signal));
}

describe('stores under outage', () => {
  test('redis killed mid-turn: the turn fails within seconds, and the outage is reported once, never as "Unhandled error event"', async () => {
    const { took, last, stderr } = await redisTurnDuring('SIGKILL');
    console.log(`redis killed mid-turn: the turn failed after ${took} ms`);
    // Failed by the lost connection itself (the client queues nothing for later): no wait for a clock.
    expect(last).toMatch(/^failed /);
    expect(last).not.toMatch(/timed? ?out/i);
    expect(took).toBeGreaterThanOrEqual(0);
    expect(stderr).not.toMatch(/Unhandled error event/);
    expect(stderr.split('\n').filter((line) => REPORT.test(line))).toHaveLength(1);
  }, 30_000);

  test('redis hung mid-turn (SIGSTOP): the turn fails within seconds instead of waiting for an answer', async () => {
    const { took, last, stderr } = await redisTurnDuring('SIGSTOP');
    console.log(`redis hung mid-turn: the turn failed after ${took} ms`);
    // Failed by the store's own bound on a command (its `timeout`, 2 s), not by waiting for an answer.
    expect(last).toBe('failed Command timed out');
    expect(took).toBeGreaterThanOrEqual(0);
    expect(stderr).not.toMatch(/Unhandled error event/);
  }, 30_000);

  test('postgres killed mid-turn: the turn fails within seconds, and the outage is reported once', async () => {
    const url = new URL(server('SKILLTREE_TEST_POSTGRES_URL'));
    const front = await proxy({ host: url.hostname, port: Number(url.port) });
    url.hostname = '127.0.0.1';
    url.port = String(front.port);
    const { took, last, stderr } = await turnDuringOutage('postgres', url.toString(), front.cut);
    console.log(`postgres killed mid-turn: the turn failed after ${took} ms`);
    // Failed by the lost connection itself: no query waits for its timeout.
    expect(last).toMatch(/^failed /);
    expect(last).not.toMatch(/timed? ?out/i);
    expect(took).toBeGreaterThanOrEqual(0);
    expect(stderr.split('\n').filter((line) => REPORT.test(line))).toHaveLength(1);
  }, 30_000);

  test("a client or pool you pass in keeps your error listener; one without any gets the store's, so an outage never crashes the process", async () => {
    const bare = new Redis('redis://127.0.0.1:1', { lazyConnect: true });
    const handled = new Redis('redis://127.0.0.1:1', { lazyConnect: true });
    const mine = () => {};
    handled.on('error', mine);
    const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/x' });
    const handledPool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/x' });
    handledPool.on('error', mine);
    const stores = [
      redisStore({ client: bare }),
      redisStore({ client: handled }),
      postgresStore({ pool }),
      postgresStore({ pool: handledPool }),
    ];
    expect(bare.listenerCount('error')).toBe(1);
    expect(handled.listeners('error')).toEqual([mine]);
    expect(pool.listenerCount('error')).toBe(1);
    expect(handledPool.listeners('error')).toEqual([mine]);
    // The store's listener reports the error instead of letting it throw.
    const reported: string[] = [];
    const quiet = new Redis('redis://127.0.0.1:1', { lazyConnect: true });
    redisStore({ client: quiet, onError: (error) => reported.push(error.message) });
    quiet.emit('error', new Error('connect ECONNREFUSED'));
    quiet.emit('error', new Error('connect ECONNREFUSED again'));
    expect(reported).toEqual(['connect ECONNREFUSED']);
    for (const store of stores) await store.close();
    expect(bare.status).toBe('wait'); // never connected, never closed by the store
    for (const client of [bare, handled, quiet]) client.disconnect();
    await pool.end();
    await handledPool.end();
  });

  test("after a store outage, the failed turn's lease does not hold the chat: the next message in that process is answered at once", async () => {
    const { lines, stderr } = await outageAndRestart('next');
    expect(lines.find((line) => line.startsWith('failed '))).toBeDefined();
    // onBusy 'reject' and a 10-minute lease: a lease left behind would have failed this at once.
    expect(lines.at(-1), stderr).toBe('next ok: say again');
  }, 30_000);

  test("after a store outage, the failed turn's lease is given back once the store is back: another process's next message is not held", async () => {
    let reply = '';
    const { lines, stderr } = await outageAndRestart('idle', async (url) => {
      const store = redisStore({ url });
      const other = createSessions(counterAgent(), { store, model: bumpModel(), onBusy: 'reject' });
      try {
        // The failed turn's process gives the lease back by itself once the store answers: wait
        // for the lease to be free (it lives 10 minutes, so only that release frees it in time).
        while (!(await store.acquire('outage', 'probe', 60_000))) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await store.release('outage', 'probe');
        reply = (await other.send('outage', 'say from elsewhere')).text;
      } finally {
        await other.close();
      }
    });
    expect(
      lines.find((line) => line.startsWith('failed ')),
      stderr,
    ).toBeDefined();
    expect(reply).toBe('ok: say from elsewhere');
  }, 30_000);
});
