/**
 * A subagent child workflow row written by hand (someone with the database, or a corrupt row): its
 * input names another turn's child than the workflow it is. The process that claims it refuses to
 * serve it (`refusedChild`): the workflow fails naming the child, and nothing of the chat changes.
 * The end-to-end wiring of the rule the unit tests in child-steps.test.ts hold.
 */
import { createSessions, textOf } from '@skilltree/core';
import { postgresStore } from '@skilltree/store/postgres';
import pg from 'pg';
import { afterEach, expect, test, vi } from 'vitest';
import { chatAfterSubagentTurn, deployment, postgresUrl } from './fixtures/dbos-schema.js';

const d = deployment('forged');
afterEach(() => d.end());

test("a child workflow row whose input names another turn's child is refused by the process that runs it: it fails naming the child, the chat is untouched", async () => {
  const x = await chatAfterSubagentTurn(d);
  const store = postgresStore({ connectionString: postgresUrl });
  const read = () => createSessions(null, { store }).messages(x.chat, { owner: `owner-${x.chat}` });
  const db = new pg.Client({ connectionString: postgresUrl });
  await db.connect();
  try {
    const before = (await read()).map(textOf);
    const table = `"${d.schema}".workflow_status`;
    // DBOS keeps a workflow's input and outcome in workflow_input and workflow_output (older rows: in workflow_status).
    const inputTable = `"${d.schema}".workflow_input`;
    const { rows } = await db.query<{ workflow_uuid: string; inputs: string }>(
      `SELECT ws.workflow_uuid, COALESCE(wi.inputs, ws.inputs) AS inputs FROM ${table} ws
       LEFT JOIN ${inputTable} wi ON wi.workflow_uuid = ws.workflow_uuid WHERE ws.name = 'skilltree-subagent'`,
    );
    expect(rows).toHaveLength(1);
    const { workflow_uuid: child, inputs } = rows[0] as { workflow_uuid: string; inputs: string };
    const turn = child.slice(0, child.indexOf('/sub/'));
    expect(inputs).toContain(JSON.stringify(turn));
    // The row keeps its id; its input now names the same run of another turn (one pending nowhere).
    const forged = inputs.replaceAll(turn, `${turn}-forged`);
    expect(forged).not.toBe(inputs);
    await db.query(`UPDATE ${inputTable} SET inputs = $2 WHERE workflow_uuid = $1`, [child, forged]);
    await db.query(
      `UPDATE ${table} SET status = 'PENDING', executor_id = 'gone-${x.chat}', inputs = CASE WHEN inputs IS NULL THEN NULL ELSE $2 END, output = NULL, error = NULL WHERE workflow_uuid = $1`,
      [child, forged],
    );
    x.start('claimer', { role: 'serve' });
    const ended = await vi.waitFor(
      async () => {
        const { rows: now } = await db.query<{ status: string; error: string | null; executor_id: string }>(
          `SELECT ws.status, COALESCE(wo.error, ws.error) AS error, ws.executor_id FROM ${table} ws
           LEFT JOIN "${d.schema}".workflow_output wo ON wo.workflow_uuid = ws.workflow_uuid WHERE ws.workflow_uuid = $1`,
          [child],
        );
        expect(now[0]?.status).not.toBe('PENDING');
        return now[0];
      },
      { timeout: 60_000, interval: 100 },
    );
    expect(ended).toMatchObject({ status: 'ERROR', executor_id: `claimer-${x.chat}` });
    // DBOS keeps the error serialized (superjson: the error under `json`).
    const { message } = (JSON.parse(ended?.error ?? '{}') as { json?: { message?: string } }).json ?? {};
    expect(message).toBe(
      `dbosEngine: subagent child ${JSON.stringify(`${turn}-forged/sub/bill-1`)} was started as ${JSON.stringify(child)}.`,
    );
    // Nothing the forged row named ran: the chat reads as it did.
    expect((await read()).map(textOf)).toEqual(before);
  } finally {
    await db.end();
    await store.close();
  }
});
