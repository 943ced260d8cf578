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
 * Each case runs on a DBOS schema of its own, as a deployment of its own: a workflow a case leaves
 * pending (a waiting turn, a handed-over one) is no concern of the next case's processes.
 */
const schemas = new Set<string>();
const schemaOf = (executorId: string) => {
  const schema = `dbos_${executorId.slice(executorId.indexOf('chat-')).replace(/[^a-z0-9]/gi, '_')}`.toLowerCase();
  schemas.add(schema);
  return schema;
};

durableConformance({
  engine: 'dbos',
  worker: fileURLToPath(new URL('./fixtures/turn-worker.tsx', import.meta.url)),
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  storeUrl: url,
  openStore: () => postgresStore({ connectionString: url }),
  engineOptions: ({ executorId, recover }) => ({
    connectionString: url,
    executorId,
    schema: schemaOf(executorId),
    recoveryInterval: recover ? 200 : 0,
  }),
  async workflowState(turnId) {
    for (const schema of schemas) {
      const client = await DBOSClient.create({ systemDatabaseUrl: url, systemDatabaseSchemaName: schema });
      try {
        const status = await client.getWorkflow(turnId).catch(() => undefined);
        if (!status) continue;
        return status.status === 'PENDING' || status.status === 'ENQUEUED' ? 'pending' : 'ended';
      } finally {
        await client.destroy();
      }
    }
    return 'missing';
  },
});
