/**
 * The durable-turn conformance suite on Restate: a throwaway `restate-server` (the npm package's
 * binary) on loopback, the session store on the PostgreSQL `.ci/with-services` starts, and the
 * worker processes on Node 22 (`fixtures/node22.ts`).
 */
import { fileURLToPath } from 'node:url';
import { durableConformance } from '@skilltree/durable/testing';
import { postgresStore } from '@skilltree/store/postgres';
import { afterAll, beforeAll } from 'vitest';
import { node22Binary } from './fixtures/node22.js';
import { type RestateServer, startRestateServer } from './fixtures/restate-server.js';
import { adminQuery } from './fixtures/restate-worker.js';

const url = process.env.SKILLTREE_TEST_POSTGRES_URL;
if (!url) {
  throw new Error(
    'These tests need PostgreSQL: run them with `bash .ci/with-services pnpm --filter @skilltree/durable test`.',
  );
}

let server: RestateServer | undefined;
beforeAll(async () => {
  server = await startRestateServer();
});
afterAll(async () => {
  await server?.stop();
});

durableConformance({
  engine: 'restate',
  worker: fileURLToPath(new URL('./fixtures/turn-worker.tsx', import.meta.url)),
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  storeUrl: url,
  nodeBinary: node22Binary,
  openStore: () => postgresStore({ connectionString: url }),
  engineOptions: ({ executorId, recover }) => ({
    ingressUrl: server?.ingressUrl,
    adminUrl: server?.adminUrl,
    executorId,
    recoveryInterval: recover ? 200 : 0,
    maxRetryInterval: 200,
  }),
  async recordedSteps(turnId) {
    // The turn's invocation and its children's (their idempotency keys are the ids), with their journals' runs.
    const key = turnId.replaceAll("'", "''");
    const invocations = await adminQuery<{ id: string; idempotency_key: string }>(
      server,
      `SELECT id, idempotency_key FROM sys_invocation WHERE idempotency_key = '${key}' OR starts_with(idempotency_key, '${key}/sub/')`,
    );
    const out: Record<string, string[]> = {};
    for (const invocation of invocations) {
      const entries = await adminQuery<{ entry_type: string; name: string | null }>(
        server,
        `SELECT entry_type, name FROM sys_journal WHERE id = '${invocation.id}' ORDER BY index`,
      );
      out[invocation.idempotency_key] = entries
        .filter((entry) => entry.entry_type === 'Command: Run')
        .map((entry) => entry.name ?? '');
    }
    return out;
  },
  async workflowState(turnId) {
    // The turn is the invocation started with the turn id as its idempotency key.
    const rows = await adminQuery<{ status: string }>(
      server,
      `SELECT status FROM sys_invocation WHERE idempotency_key = '${turnId.replaceAll("'", "''")}'`,
    );
    if (rows.length === 0) return 'missing';
    return rows.every((row) => row.status === 'completed') ? 'ended' : 'pending';
  },
});
