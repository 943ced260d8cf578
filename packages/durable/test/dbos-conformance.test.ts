/**
 * The durable-turn conformance suite on DBOS Transact, against the PostgreSQL `.ci/with-services`
 * starts (the same server holds the session store and DBOS's workflows).
 */
import { fileURLToPath } from 'node:url';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { durableConformance } from '@skilltree/durable/testing';
import { postgresStore } from '@skilltree/store/postgres';

const url = process.env.SKILLTREE_TEST_POSTGRES_URL;
if (!url) {
  throw new Error(
    'These tests need PostgreSQL: run them with `bash .ci/with-services pnpm --filter @skilltree/durable test`.',
  );
}

/**
 * Every case runs on one DBOS schema, as one deployment: workflows a case leaves pending (a waiting
 * turn, a handed-over one) are there for the later cases' processes, which must still run and
 * recover their own turns (see also dbos-shared-schema.test.ts).
 */
const schema = `dbos_conformance_${process.pid}`;

durableConformance({
  engine: 'dbos',
  worker: fileURLToPath(new URL('./fixtures/turn-worker.tsx', import.meta.url)),
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  storeUrl: url,
  openStore: () => postgresStore({ connectionString: url }),
  engineOptions: ({ executorId, recover }) => ({
    connectionString: url,
    executorId,
    schema,
    recoveryInterval: recover ? 200 : 0,
  }),
  async recordedSteps(turnId) {
    const client = await DBOSClient.create({ systemDatabaseUrl: url, systemDatabaseSchemaName: schema });
    try {
      const out: Record<string, string[]> = {};
      const read = async (id: string) => {
        const steps = (await client.listWorkflowSteps(id)) ?? [];
        out[id] = steps.map((step) => step.name);
        for (const step of steps) if (step.childWorkflowID) await read(step.childWorkflowID);
      };
      await read(turnId);
      return out;
    } finally {
      await client.destroy();
    }
  },
  async workflowState(turnId) {
    const client = await DBOSClient.create({ systemDatabaseUrl: url, systemDatabaseSchemaName: schema });
    try {
      const status = await client.getWorkflow(turnId).catch(() => undefined);
      if (!status) return 'missing';
      return status.status === 'PENDING' || status.status === 'ENQUEUED' ? 'pending' : 'ended';
    } finally {
      await client.destroy();
    }
  },
});
