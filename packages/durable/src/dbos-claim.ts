/**
 * Taking over ONE turn of another DBOS executor, and running it in this process. DBOS (without its
 * Conductor) recovers only by executor: `recoverPendingWorkflows([executor])` puts every pending
 * workflow of that executor back on DBOS's internal queue, which every process of the deployment
 * polls. That moved a stalled (not dead) process's live turns and its waiting turns along with the
 * one turn whose lease lapsed, and let any process take them, the ones that look for nothing among
 * them. So the watch claims the turn itself: one conditional write on DBOS's status row (still
 * pending, still on the executor it was seen on), then the SDK's own dispatch of a claimed workflow.
 */

/** The parts of DBOS's system database the claim uses (the SDK's internal API). */
interface SystemDatabase {
  readonly schemaName: string;
  readonly pool: { query(sql: string, params: unknown[]): Promise<{ rows: { workflow_uuid: string }[] }> };
  getWorkflowStatuses(workflowIDs: string[]): Promise<Map<string, unknown>>;
}

/** The parts of DBOS's executor the claim uses (the SDK's internal API). */
interface Executor {
  readonly systemDatabase: SystemDatabase;
  /** Runs a workflow a claim just took (the queue dispatcher's path): `ownerXid` is the claim's token. */
  executeDequeuedWorkflow(status: unknown, ownerXid: string): Promise<{ getResult(): Promise<unknown> }>;
}

/**
 * Moves pending workflow `workflowId` from executor `from` to executor `to` (this process) and runs
 * it here, replaying its recorded steps. Only one claim of a turn seen on `from` wins (the write is
 * conditional on the row still naming `from`); the claim gives the row a new owner token, so an
 * execution of `from` that is still alive (stalled) is fenced by DBOS at its next step and adopts
 * this run's outcome. The turn's children (its subagent runs' workflows) move with it. Resolves
 * with the run (its `outcome` settles once DBOS recorded it), or null when this process did not
 * take the turn.
 */
export async function claimTurn(
  workflowId: string,
  from: string,
  to: string,
): Promise<{ outcome: Promise<unknown> } | null> {
  const exec = await executor();
  const db = exec.systemDatabase;
  const ownerXid = crypto.randomUUID();
  const rows = await moveRows(db, 'workflow_uuid = $3', workflowId, from, to, ownerXid);
  if (rows.length === 0) return null;
  // The turn's subagent runs' child workflows move with it (`dbos-children.ts`): their bodies here
  // serve the steps the turn's replay asks of them. Claimed after the turn, so a child's body that
  // looks finds the turn on this executor; a stalled process's executions of them are fenced as its turn's are.
  const children = await moveRows(db, 'starts_with(workflow_uuid, $3)', `${workflowId}/sub/`, from, to, ownerXid);
  const ids = [workflowId, ...children];
  const statuses = await db.getWorkflowStatuses(ids);
  const status = statuses.get(workflowId);
  if (!status) return null;
  for (const id of ids.slice(1)) {
    const child = statuses.get(id);
    if (child) exec.executeDequeuedWorkflow(child, ownerXid).catch(() => {});
  }
  const handle = await exec.executeDequeuedWorkflow(status, ownerXid);
  const outcome = handle.getResult();
  outcome.catch(() => {});
  // Wrapped: a promise returned from an async function would be awaited with it.
  return { outcome };
}

/**
 * Moves pending child workflow `workflowId` (of a subagent run) from executor `from` to `to` and
 * runs its body here: a child whose turn has ended (its process died between the two), which ends
 * at once (`dbos-children.ts`). Resolves with whether this process took it.
 */
export async function claimChild(workflowId: string, from: string, to: string): Promise<boolean> {
  const exec = await executor();
  const db = exec.systemDatabase;
  const ownerXid = crypto.randomUUID();
  const rows = await moveRows(db, 'workflow_uuid = $3', workflowId, from, to, ownerXid);
  if (rows.length === 0) return false;
  const status = (await db.getWorkflowStatuses([workflowId])).get(workflowId);
  if (!status) return false;
  const handle = await exec.executeDequeuedWorkflow(status, ownerXid);
  handle.getResult().catch(() => {});
  return true;
}

/**
 * Moves the pending workflows `match` picks (`$3` is `value`) from executor `from` to `to`, with
 * the new owner token `ownerXid`: the columns DBOS's dequeue writes when a process takes a queued
 * workflow. Conditional on each row still being pending on `from`, so of two claims one wins.
 * Resolves with the ids moved.
 */
async function moveRows(
  db: SystemDatabase,
  match: 'workflow_uuid = $3' | 'starts_with(workflow_uuid, $3)',
  value: string,
  from: string,
  to: string,
  ownerXid: string,
): Promise<string[]> {
  const { rows } = await db.pool.query(
    `UPDATE "${db.schemaName}".workflow_status
       SET executor_id = $1,
           owner_xid = $2,
           recovery_attempts = recovery_attempts + 1,
           started_at_epoch_ms = (EXTRACT(epoch FROM now()) * 1000)::bigint,
           updated_at = (EXTRACT(epoch FROM now()) * 1000)::bigint
     WHERE ${match} AND status = 'PENDING' AND executor_id = $4
     RETURNING workflow_uuid`,
    [to, ownerXid, value, from],
  );
  return rows.map((row) => row.workflow_uuid);
}

/** The SDK's executor (`DBOSExecutor.globalInstance`): no public API takes one workflow of another executor. */
async function executor(): Promise<Executor> {
  const mod = (await import('@dbos-inc/dbos-sdk/internal/dbos-executor')) as {
    DBOSExecutor?: { globalInstance?: Executor };
    default?: { DBOSExecutor?: { globalInstance?: Executor } };
  };
  const found = (mod.DBOSExecutor ?? mod.default?.DBOSExecutor)?.globalInstance;
  if (!found) throw new Error('dbosEngine: DBOS is not launched in this process.');
  return found;
}

/**
 * Which of `workflowIds` have a message they have not received (`DBOS.send` to a turn's wait, not
 * yet taken by its `DBOS.recv`): waiting turns that were signalled. A live process takes such a
 * message at once; one left there belongs to a process that is gone (or stalled past its lease).
 */
export async function signalledTurns(workflowIds: string[]): Promise<Set<string>> {
  if (workflowIds.length === 0) return new Set();
  const db = (await executor()).systemDatabase;
  const { rows } = await db.pool.query(
    `SELECT DISTINCT destination_uuid AS workflow_uuid FROM "${db.schemaName}".notifications
      WHERE destination_uuid = ANY($1) AND consumed = false`,
    [workflowIds],
  );
  return new Set(rows.map((row) => row.workflow_uuid));
}
