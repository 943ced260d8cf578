/**
 * `dbosEngine`: durable turns on DBOS Transact (`@dbos-inc/dbos-sdk`), which keeps its workflows
 * and their steps in PostgreSQL. A turn is a DBOS workflow, each model call, tool run and charge a
 * `DBOS.runStep`. A process that restarts with the same `executorId` recovers its own turns when
 * DBOS launches. A process that never comes back is covered by the others: DBOS without its
 * Conductor recovers only its own executor's workflows, so each process watches for pending turns
 * of other executors whose chat lease expired (nobody holds it: the process died) and claims each
 * such turn, only it, to run it itself (`dbos-claim.ts`); the chat's lease lets one process at a
 * time run a turn. A turn that ends waiting (approval, a client's result) waits in `DBOS.recv` for
 * the turn that answers it, which `DBOS.send`s it its outcome (`wait`/`signal`).
 */
import { DBOS, Error as DBOSErrors, DBOSWorkflowConflictError } from '@dbos-inc/dbos-sdk';
import {
  type DurableRegistration,
  type DurableTurnInput,
  type TurnEngine,
  type TurnLook,
  WaitUndeliverableError,
} from '@skilltree/core/provider';
import { dbosChildren } from './dbos-children.js';
import { claimTurn, signalledTurns } from './dbos-claim.js';
import { checkDbosOptions, WAIT_TOPIC, waitTarget } from './dbos-options.js';
import { type RecoveryWatch, registerOnce, watchEvery } from './watch.js';

/** Options of {@link dbosEngine}. */
export interface DbosEngineOptions {
  /** The PostgreSQL database DBOS keeps its workflows in (`postgres://…`); DBOS creates its tables there. */
  connectionString: string;
  /**
   * This process's executor. A process that restarts with the same id recovers its own turns at
   * launch; one that never comes back has its turns recovered by another process once its chats'
   * leases expire. Default: a new id per process (its turns are recovered through lease expiry).
   */
  executorId?: string;
  /**
   * Milliseconds between two looks for turns of dead processes (pending turns of another executor
   * whose chat lease nobody holds). Default 2 000; 0 turns the watch off (a process then recovers
   * only its own executor's turns, at launch).
   */
  recoveryInterval?: number;
  /** The DBOS application name that scopes the workflows. Default `skilltree`. */
  appName?: string;
  /**
   * The PostgreSQL schema DBOS keeps its workflows in (default `dbos`). Processes that recover each
   * other's turns must share it; a separate schema is a separate deployment.
   */
  schema?: string;
  /** DBOS's log level. Default `warn`. */
  logLevel?: string;
  /** Called when this process finished (or failed) a turn another process had started: a recovered turn. */
  onRecovered?(info: RecoveredTurn): void;
}

/** A turn this process recovered (see {@link DbosEngineOptions.onRecovered}). */
export interface RecoveredTurn {
  turnId: string;
  /** The chat id, as its caller named it. */
  chatId: string;
  /** What the turn failed with, when it did (a `DurableReplayError` for an agent that does not replay). */
  error?: string;
}

/** The name of the workflow every turn runs as. */
export const TURN_WORKFLOW = 'skilltree-turn';
/**
 * The application version turns are recorded under: fixed, so that any process of any build may
 * recover a turn (DBOS would otherwise hash its workflows' sources). Whether the agent of the
 * recovering build replays the turn is checked step by step (`DurableReplayError`).
 */
export const TURN_APP_VERSION = 'skilltree-turns-1';

/** How long one `DBOS.recv` of a wait lasts before it is asked again: a day. */
const WAIT_SLICE_SECONDS = 86_400;

/**
 * How many looks pass over a turn found waiting for its answers before the watch reads its chat
 * again (a minute at the default interval). A signalled one is looked at on the next look.
 */
const WAITING_RELOOK = 30;

let taken = false;

/**
 * A {@link TurnEngine} on DBOS Transact. DBOS is one per process: create one engine per process and
 * pass it to one `createSessions`.
 *
 * @example
 * const sessions = createSessions(<ShopAgent />, {
 *   store: postgresStore({ connectionString }),
 *   model,
 *   engine: dbosEngine({ connectionString, executorId: process.env.HOSTNAME }),
 * });
 */
export function dbosEngine(options: DbosEngineOptions): TurnEngine {
  if (!options || typeof options.connectionString !== 'string' || options.connectionString === '') {
    throw new TypeError(
      'dbosEngine needs { connectionString }: the PostgreSQL URL DBOS keeps its workflows in (postgres://user@host:5432/db).',
    );
  }
  // Names that reach SQL or the database's logs, refused before DBOS sees them (see dbos-options.ts).
  checkDbosOptions(options);
  if (taken) {
    throw new Error(
      'dbosEngine: DBOS runs once per process, and this process made an engine already. Share that engine (one createSessions per process), or close() it first.',
    );
  }
  taken = true;
  const executorId = options.executorId ?? `skilltree-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const interval = options.recoveryInterval ?? 2_000;
  let registration: DurableRegistration | null = null;
  let turn: ((turnId: string, input: DurableTurnInput) => Promise<unknown>) | null = null;
  let launched: Promise<void> | null = null;
  let watch: RecoveryWatch | undefined;
  let closed = false;
  /** Turns started here (not recovered): their caller hears how they end. */
  const started = new Set<string>();
  /** Turns this process claimed from another executor: reported once their outcome is recorded. */
  const claimed = new Set<string>();
  /** Claimed turns whose run here was fenced (another process claimed them meanwhile): not reported. */
  const fenced = new Set<string>();
  const report = (turnId: string, chatId: string, error?: unknown) =>
    options.onRecovered?.({
      turnId,
      chatId,
      ...(error !== undefined ? { error: String((error as Error)?.message ?? error) } : {}),
    });
  /** The inputs of the pending turns of other executors, by workflow id (null: none readable). */
  const inputs = new Map<string, DurableTurnInput | null>();
  /** Turns found waiting for their answers, by workflow id: how many looks pass them over before the next. */
  const waiting = new Map<string, number>();
  /** Turns found abandoned on the last look, each as `<workflow id> <executor>`. */
  let suspects = new Set<string>();
  /** The child workflows of the turns' subagent runs. */
  const children = dbosChildren(executorId);

  /**
   * Pending turns of other executors whose chats nobody holds: each such turn, and only it, is
   * claimed by this process and run here (`claimTurn`). Never the executor's other turns: a process
   * that only stalled past one chat's lease keeps its live turns, and its waiting turns stay where
   * they wait.
   */
  async function recoverDead(): Promise<void> {
    if (!registration || closed) return;
    // The ids and executors of the pending turns; the inputs (which may carry files) only of turns
    // not seen before: a turn's input never changes, and a waiting turn may be pending for days.
    // (DBOS loads inputs and outputs unless told not to.)
    const listed = await DBOS.listWorkflows({
      status: 'PENDING',
      workflowName: TURN_WORKFLOW,
      loadInput: false,
      loadOutput: false,
    });
    // Children whose turn ended while their process died end here (the turn is pending nowhere).
    await children.sweep(new Set(listed.map((wf) => wf.workflowID)));
    const pending = listed.filter((wf) => wf.executorId && wf.executorId !== executorId);
    const unknown = pending.map((wf) => wf.workflowID).filter((id) => !inputs.has(id));
    if (unknown.length > 0) {
      for (const wf of await DBOS.listWorkflows({ workflowIDs: unknown, loadInput: true, loadOutput: false })) {
        inputs.set(wf.workflowID, (wf.input?.[1] as DurableTurnInput | undefined) ?? null);
      }
    }
    const still = new Set(pending.map((wf) => wf.workflowID));
    for (const id of inputs.keys()) if (!still.has(id)) inputs.delete(id);
    for (const id of waiting.keys()) if (!still.has(id)) waiting.delete(id);
    // Waiting turns whose answer came while their process was gone: their chats may have moved on.
    const signalled = await signalledTurns(pending.map((wf) => wf.workflowID));
    const seen = new Set<string>();
    const abandoned: { id: string; owner: string; input: DurableTurnInput }[] = [];
    for (const wf of pending) {
      const owner = wf.executorId as string;
      const input = inputs.get(wf.workflowID);
      if (!input) continue;
      const hint = signalled.has(wf.workflowID) ? { signalled: true } : undefined;
      // A turn found waiting for its answers is looked at again only when signalled, or every
      // `WAITING_RELOOK` looks (its chat may have been deleted): no store read per look for it.
      const skips = waiting.get(wf.workflowID);
      if (!hint && skips !== undefined && skips > 0) {
        waiting.set(wf.workflowID, skips - 1);
        continue;
      }
      // One turn's failed look (an input recorded before an upgrade tightened the chat id rules, a
      // forged row, the store failing for that chat) passes over that turn only, not the rest.
      const found = await registration.look(input, wf.workflowID, hint).catch((): TurnLook => 'alive');
      if (found === 'waiting') waiting.set(wf.workflowID, WAITING_RELOOK);
      else waiting.delete(wf.workflowID);
      if (found !== 'abandoned') continue;
      // Seen per executor: a turn another process just claimed has to look abandoned there twice
      // again (it may not have taken its lease yet), or it would be taken from that process at once.
      const look = `${wf.workflowID} ${owner}`;
      seen.add(look);
      // Abandoned on two looks in a row: a live process between taking a turn and its lease is not.
      if (suspects.has(look)) abandoned.push({ id: wf.workflowID, owner, input });
    }
    suspects = seen;
    for (const turn of abandoned) {
      if (closed) return;
      // The chat's lease first: until the run here takes it over, other processes find the chat held.
      const hold = await registration.hold(turn.input, turn.id);
      if (!hold) continue;
      claimed.add(turn.id);
      const run = await claimTurn(turn.id, turn.owner, executorId).catch(async (error: unknown) => {
        claimed.delete(turn.id);
        await hold.release();
        throw error;
      });
      if (!run) {
        claimed.delete(turn.id);
        await hold.release();
        continue;
      }
      const chatId = turn.input.id;
      // Reported once DBOS recorded the outcome, so whoever hears it finds the workflow ended.
      run.outcome
        .then(
          () => fenced.has(turn.id) || report(turn.id, chatId),
          (error: unknown) => fenced.has(turn.id) || report(turn.id, chatId, error),
        )
        .finally(() => {
          claimed.delete(turn.id);
          fenced.delete(turn.id);
          return hold.release();
        })
        .catch(() => {});
    }
  }

  function launch(): Promise<void> {
    launched ??= (async () => {
      DBOS.setConfig({
        name: options.appName ?? 'skilltree',
        systemDatabaseUrl: options.connectionString,
        executorID: executorId,
        applicationVersion: TURN_APP_VERSION,
        logLevel: options.logLevel ?? 'warn',
        ...(options.schema ? { systemDatabaseSchemaName: options.schema } : {}),
      });
      await DBOS.launch();
      if (!closed) watch = watchEvery(interval, recoverDead);
    })();
    return launched;
  }

  return {
    name: 'dbos',
    register(given) {
      registration = registerOnce('dbosEngine', registration, given);
      const body = given.run;
      children.register();
      const ran = async (turnId: string, input: DurableTurnInput) => {
        try {
          return await body(turnId, input);
        } finally {
          // The run's children end once DBOS recorded how the turn ended.
          children.turnEnded(turnId);
        }
      };
      turn = DBOS.registerWorkflow(
        async (turnId: string, input: DurableTurnInput) => {
          if (started.has(turnId)) return ran(turnId, input);
          try {
            const result = await ran(turnId, input);
            // A turn the watch claimed is reported when its outcome is recorded (see recoverDead).
            if (!claimed.has(turnId)) report(turnId, input.id);
            return result;
          } catch (error) {
            // Fenced: another process claimed the turn meanwhile and finishes it; this run did not recover it.
            if (error instanceof DBOSWorkflowConflictError) {
              if (claimed.has(turnId)) fenced.add(turnId);
            } else if (!claimed.has(turnId)) report(turnId, input.id, error);
            throw error;
          }
        },
        { name: TURN_WORKFLOW },
      );
      // Launching recovers this executor's own pending turns: the runner is there to take them.
      launch().catch(() => {});
    },
    async run(turnId, input) {
      if (!turn) throw new Error('dbosEngine: no createSessions registered with this engine (pass it as { engine }).');
      await launch();
      started.add(turnId);
      try {
        const handle = await DBOS.startWorkflow(turn, { workflowID: turnId })(turnId, input);
        return await handle.getResult();
      } finally {
        started.delete(turnId);
      }
    },
    step(name, fn) {
      return DBOS.runStep(fn, { name });
    },
    child(name) {
      const turnId = DBOS.workflowID;
      if (!turnId) throw new Error(`dbosEngine: subagent run ${name} was opened outside a turn of this engine.`);
      return children.open(turnId, name);
    },
    async wait(name) {
      const workflow = DBOS.workflowID;
      if (!workflow) throw new Error(`dbosEngine: wait ${name} was opened outside a turn of this engine.`);
      return {
        id: `${workflow}${WAIT_TOPIC}${name}`,
        async received() {
          // A message sent to the workflow on the wait's topic (DBOS.send), however long it takes:
          // recv gives up after its timeout, so it is asked again (each ask is recorded, and replays).
          for (;;) {
            const value = await DBOS.recv<unknown>(name, { timeoutSeconds: WAIT_SLICE_SECONDS });
            if (value !== null) return value;
          }
        },
      };
    },
    async signal(waitId, value) {
      let target: { workflow: string; topic: string };
      try {
        target = waitTarget(waitId);
      } catch (error) {
        throw new WaitUndeliverableError(waitId, (error as Error).message);
      }
      await launch();
      try {
        await DBOS.send(target.workflow, value, target.topic);
      } catch (error) {
        // No such workflow (never there, or retention deleted it): no send will ever find it.
        if (error instanceof DBOSErrors.DBOSNonExistentWorkflowError) {
          throw new WaitUndeliverableError(waitId, `DBOS has no workflow ${target.workflow}`);
        }
        throw error;
      }
    },
    async close() {
      closed = true;
      children.close();
      await watch?.stop();
      if (launched) {
        await launched.catch(() => {});
        await DBOS.shutdown();
      }
      taken = false;
    },
  };
}
