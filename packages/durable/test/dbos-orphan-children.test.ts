/**
 * A subagent run's child workflow whose turn ended while its process died, before the child did
 * (the child waits for its turn's end to be recorded, so a kill in between leaves it pending on a
 * dead executor): another process's watch finds it, claims it, and it ends at once. Nothing is
 * left pending in DBOS's table. The state a kill in that moment leaves is written by hand.
 */
import pg from 'pg';
import { afterEach, expect, test, vi } from 'vitest';
import { chatAfterSubagentTurn, deployment, postgresUrl } from './fixtures/dbos-schema.js';

const d = deployment('orphans');
afterEach(() => d.end());

test("a child workflow left pending by a process that died after its turn ended is claimed by another process's watch and ends there", async () => {
  const x = await chatAfterSubagentTurn(d);
  const db = new pg.Client({ connectionString: postgresUrl });
  await db.connect();
  try {
    const table = `"${d.schema}".workflow_status`;
    const { rows } = await db.query<{ workflow_uuid: string }>(
      `SELECT workflow_uuid FROM ${table} WHERE name = 'skilltree-subagent'`,
    );
    expect(rows).toHaveLength(1);
    const child = rows[0]?.workflow_uuid as string;
    expect(child).toMatch(/\/sub\/bill-1$/);
    // As a kill between the turn's end and the child's leaves it: pending, on an executor that is gone.
    await db.query(`UPDATE ${table} SET status = 'PENDING', executor_id = 'gone-${x.chat}' WHERE workflow_uuid = $1`, [
      child,
    ]);
    x.start('sweeper', { role: 'serve' });
    await vi.waitFor(
      async () => {
        const { rows: now } = await db.query<{ status: string; executor_id: string }>(
          `SELECT status, executor_id FROM ${table} WHERE workflow_uuid = $1`,
          [child],
        );
        expect(now[0]).toEqual({ status: 'SUCCESS', executor_id: `sweeper-${x.chat}` });
      },
      { timeout: 60_000, interval: 100 },
    );
  } finally {
    await db.end();
  }
});
