/**
 * Calls sent straight to a process's `subagent` handler through the Restate ingress, past any turn
 * (someone who can reach the ingress): none serves a run. Each ends for good naming the child, and
 * the handler records nothing. The end-to-end wiring of the rule the unit tests in
 * child-steps.test.ts hold.
 */
import { rmSync } from 'node:fs';
import type { Worker } from '@skilltree/durable/testing';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { type RestateServer, startRestateServer } from './fixtures/restate-server.js';
import { adminQuery, restateWorker } from './fixtures/restate-worker.js';

let server: RestateServer;
let worker: (Worker & { dir: string }) | undefined;
beforeAll(async () => {
  server = await startRestateServer();
});
afterAll(async () => {
  await worker?.end();
  if (worker) rmSync(worker.dir, { recursive: true, force: true });
  await server?.stop();
});

test('a subagent call sent past the turn (another key, no key, no turn invocation, a turn invocation forged or not running) ends for good, naming the child, and records nothing', async () => {
  const chat = `chat-${process.pid}-${Date.now()}`;
  const serving = restateWorker(server, 'serving', chat, { role: 'serve' });
  worker = serving;
  const { service } = serving;
  // The worker's deployment is registered once the server lists its service.
  await vi.waitFor(
    async () => {
      const response = await fetch(new URL(`/services/${service}`, server.adminUrl));
      expect(response.status).toBe(200);
    },
    { timeout: 60_000, interval: 100 },
  );
  const turn = `${service}-forged-turn`;
  const child = `${turn}/sub/bill-1`;
  const call = async (body: unknown, key?: string) => {
    const response = await fetch(new URL(`/${service}/subagent`, server.ingressUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  const cases: Array<[unknown, string | undefined, string]> = [
    // Another key than the child's: a run of another turn cannot be served under it.
    [{ childId: child, turnId: turn, turnInvocation: 'inv_1' }, 'borrowed-key', 'was started as \\"borrowed-key\\"'],
    // No key at all (the turn always sends the child's id as its key).
    [
      { childId: child, turnId: turn, turnInvocation: 'inv_1' },
      undefined,
      `subagent child \\"${child}\\" was started as`,
    ],
    // A child of another turn than the one it names.
    [{ childId: `x/sub/bill-1`, turnId: turn, turnInvocation: 'inv_1' }, 'x/sub/bill-1', 'is not a child of turn'],
    // Not strings.
    [{ childId: 7, turnId: null }, 'not-strings', 'without a child id and a turn id'],
    // No turn invocation to follow. (Each case has a key of its own: the server answers a key
    // it has seen with that invocation's outcome.)
    [{ childId: `${turn}/sub/bill-2`, turnId: turn }, `${turn}/sub/bill-2`, 'without its turn invocation'],
  ];
  for (const [body, key, said] of cases) {
    const { status, text } = await call(body, key);
    expect(status, text).toBeGreaterThanOrEqual(400);
    expect(text).toContain(said);
  }
  // Well-formed calls whose turn invocation is not that turn's, running (an id the server cannot
  // parse, one it does not know): killed, never served. Each ends at once, not retried for ever.
  for (const [n, turnInvocation] of ['inc_1aGAbsentInvocation', `inv_1${'A'.repeat(33)}`].entries()) {
    const id = `${turn}/sub/orphan-${n}`;
    const orphan = await call({ childId: id, turnId: turn, turnInvocation }, id);
    // The handler kills its own invocation (a retry would find the same): the caller hears it.
    expect(orphan.status, orphan.text).toBe(409);
    expect(JSON.parse(orphan.text)).toMatchObject({ message: 'killed' });
  }
  // Nothing ran: no invocation of the service recorded a step.
  const runs = await adminQuery<{ n: number }>(
    server,
    `SELECT count(*) AS n FROM sys_journal j JOIN sys_invocation i ON i.id = j.id WHERE i.target_service_name = '${service}' AND j.entry_type = 'Command: Run'`,
  );
  expect(Number(runs[0]?.n)).toBe(0);
});
