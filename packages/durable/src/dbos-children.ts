/**
 * Subagent runs as DBOS child workflows (`TurnEngine.child`, served as `child-steps.ts` says). On
 * a first attempt the turn starts the child (DBOS records the start among the turn's steps), and
 * the child's body records the run's steps with `DBOS.runStep` in its own context. When a process
 * dies, DBOS recovers the child as it recovers the turn (at launch for its own executor; a claim
 * moves a turn's children with it, `dbos-claim.ts`): the recovered body replays the child's
 * recorded steps as the re-mounted run asks for them again, and runs live from the first it did
 * not record.
 *
 * A child stays open until its turn's outcome is recorded: a turn that replays (its process died
 * before its end was recorded) always finds its children open, never one that ended with no body
 * left to serve the run's steps.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { ChildWorkflow } from '@skilltree/core/provider';
import { childSteps, refusedChild } from './child-steps.js';
import { claimChild } from './dbos-claim.js';

/** The name of the workflow every subagent run's child runs as. */
export const SUBAGENT_WORKFLOW = 'skilltree-subagent';

/** Runs a function outside any workflow: a read of a turn's status, never recorded as a step. */
const outside = AsyncLocalStorage.snapshot();

/** The child workflow body's input: the child's id and its turn's. */
type ChildWorkflowFn = (childId: string, turnId: string) => Promise<null>;

/**
 * The child workflows of one engine. `register` before DBOS launches; `open` inside a running turn;
 * `turnEnded` when a turn's run ends in this process; `close` when the engine closes.
 */
export function dbosChildren(executorId: string) {
  const steps = childSteps();
  /** The body serving each child in this process (one per process). */
  const bodies = new Map<string, Promise<null>>();
  let workflow: ChildWorkflowFn | null = null;
  /** The turn of each pending child of another executor the sweep has seen (null: none readable). */
  const turnOfChild = new Map<string, string | null>();
  let closed = false;

  /** Whether turn `turnId` is still pending on this executor (read outside any workflow). */
  const pendingHere = async (turnId: string): Promise<boolean> => {
    const status = await outside(() => DBOS.getWorkflowStatus(turnId));
    return status?.status === 'PENDING' && status.executorId === executorId;
  };

  /** Starts child `id` of turn `turnId` in the running workflow (the turn, or a child's body). */
  const start = (id: string, turnId: string) =>
    DBOS.startWorkflow(workflow as ChildWorkflowFn, { workflowID: id })(id, turnId);

  async function serve(childId: string, turnId: string): Promise<null> {
    try {
      // Recovered after its turn ended (or moved on): no run will ask it for anything.
      if (!steps.endedHere(turnId) && !(await pendingHere(turnId))) return null;
      const within = AsyncLocalStorage.snapshot();
      steps.attach(childId, turnId, {
        step: (name, fn) => within(() => DBOS.runStep(fn, { name })),
        start: (id) => within(() => start(id, turnId)),
      });
      // Until DBOS recorded the turn's outcome, or the turn moved to another executor.
      await steps.turnOver(turnId, () => pendingHere(turnId));
      return null;
    } finally {
      steps.forget(childId);
      bodies.delete(childId);
    }
  }

  return {
    /** Registers the child workflow with DBOS (before launch, so that DBOS recovers children). */
    register(): void {
      workflow = DBOS.registerWorkflow(
        async (childId: string, turnId: string) => {
          // A row whose input names another child (or nothing usable) serves nothing: it fails.
          const refused = refusedChild(childId, turnId, DBOS.workflowID);
          if (refused) throw new Error(`dbosEngine: ${refused}.`);
          // One body serves a child in a process; another execution of it here waits for that one.
          let body = bodies.get(childId);
          if (!body) {
            body = serve(childId, turnId);
            bodies.set(childId, body);
          }
          return body;
        },
        { name: SUBAGENT_WORKFLOW },
      );
    },
    /** Inside running turn `turnId`: opens the child of run `name` (`sub/<toolCallId>`). */
    open(turnId: string, name: string): ChildWorkflow {
      if (!workflow) throw new Error('dbosEngine: a subagent run was opened before the engine was registered.');
      const id = `${turnId}/${name}`;
      // Started now, in the turn's order of steps (DBOS takes the start's function id here).
      start(id, turnId).catch((error: unknown) => steps.fail(id, turnId, error));
      return steps.handle(id, turnId);
    },
    /**
     * Children of other executors whose turn is pending nowhere (`pending`: the ids of every pending
     * turn): their turn ended while their process died, before they did. Each is claimed here, where
     * it ends at once, so that no child is left pending in DBOS's table.
     */
    async sweep(pending: ReadonlySet<string>): Promise<void> {
      // Ids and executors only; a child's input (its turn's id) is read once, the first time it is seen.
      const listed = (
        await DBOS.listWorkflows({
          status: 'PENDING',
          workflowName: SUBAGENT_WORKFLOW,
          loadInput: false,
          loadOutput: false,
        })
      ).filter((wf) => wf.executorId && wf.executorId !== executorId);
      const unknown = listed.map((wf) => wf.workflowID).filter((id) => !turnOfChild.has(id));
      if (unknown.length > 0) {
        for (const wf of await DBOS.listWorkflows({ workflowIDs: unknown, loadInput: true, loadOutput: false })) {
          const turnId = wf.input?.[1];
          turnOfChild.set(wf.workflowID, typeof turnId === 'string' ? turnId : null);
        }
      }
      const still = new Set(listed.map((wf) => wf.workflowID));
      for (const id of turnOfChild.keys()) if (!still.has(id)) turnOfChild.delete(id);
      for (const wf of listed) {
        const turnId = turnOfChild.get(wf.workflowID);
        if (closed || !turnId || pending.has(turnId)) continue;
        await claimChild(wf.workflowID, wf.executorId as string, executorId);
      }
    },
    /** Turn `turnId`'s run ended in this process: its children end once DBOS recorded how. */
    turnEnded: (turnId: string) => steps.turnEnded(turnId),
    close(): void {
      closed = true;
      steps.close();
    },
  };
}
