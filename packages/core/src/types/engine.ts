/**
 * The durable-execution engine a turn of `createSessions` may run on (`{ engine }`): the shapes
 * only. A turn is a workflow; each model call, each tool run and each charge of an owner's spend
 * is a step of it, recorded when it ends and replayed (never run again) when the turn is recovered.
 * A turn that ends waiting for answers may wait durably (`wait`), and the turn that answers it
 * `signal`s it from any process.
 * DBOS (workflow + `runStep`), Restate (handler + `ctx.run`) and Temporal (workflow + Activities)
 * all map onto it; `@skilltree/durable` holds the adapters (DBOS and Restate).
 */
import type { FilePart } from './messages.js';
import type { Budget } from './options.js';
import type { ToolAnswer } from './session.js';
import type { SpanIds } from './telemetry.js';

/** What a durable turn starts from: JSON data, kept by the engine so that another process can run the turn again. */
export interface DurableTurnInput {
  /** The chat id as the caller named it. */
  id: string;
  /** The owner the turn was sent with, or null for an unowned chat. */
  owner: string | null;
  /** The user's message, or the answers to waiting calls. */
  input: string | ToolAnswer[];
  /** This turn's own budget, when it has one. */
  budget?: Budget;
  /** Files sent with the message (already checked). */
  files?: FilePart[];
  /** The trace the turn belongs to (a W3C `traceparent`-style value), when there is one. */
  traceContext?: unknown;
  /**
   * The turn that waited for this chat's waiting calls when this one was sent, and its wait (as the
   * chat's committed state named them, see {@link DurableWaitState}): this turn answers or
   * supersedes them, and signals that wait when it ends.
   */
  follows?: DurableWaitState;
  /**
   * The chat's version (its count of commits) when the turn was sent. A turn recovered before it
   * began runs only while the chat is still at that version: once another turn committed, the
   * caller (whose process died) had heard this one fail, and its message may have been sent again.
   */
  chatVersion?: number;
  /**
   * The ids of the span the turn was sent under (the `traceContext` an OpenTelemetry `Context`
   * held, which is not JSON data): a recovered turn opens its span under them, in the same trace.
   */
  parentSpan?: SpanIds;
}

/**
 * A turn that ended waiting (for approval, or a client's result) and waits durably for its answers,
 * as the chat's committed state keeps it (`StoredState.wait`), so that any process finds it.
 */
export interface DurableWaitState {
  /** The waiting turn's id (its workflow). */
  turn: string;
  /** The wait to signal (see {@link TurnEngine.signal}). */
  wait: string;
}

/** A durable wait inside a running turn (see {@link TurnEngine.wait}). */
export interface DurableWait {
  /** Names the wait for {@link TurnEngine.signal} from any process: JSON-safe, kept in the chat's state. */
  readonly id: string;
  /**
   * Resolves with the first value signalled to the wait, however long that takes (the turn's
   * process may die meanwhile: the recovered turn gets it). Call it once, in the turn's order of steps.
   */
  received(): Promise<unknown>;
}

/**
 * The function that runs a turn, handed to the engine once by `createSessions`: the engine calls
 * it to run a turn now, and again (in this process or another) to recover one.
 */
export type DurableTurnRunner = (turnId: string, input: DurableTurnInput) => Promise<unknown>;

/** What an engine knows of a turn's process when it asks whether the turn is abandoned. */
export interface AbandonedHint {
  /** The process that ran the turn cannot be reached (its endpoint refuses connections): it is gone. */
  unreachable?: boolean;
  /**
   * The engine holds an answer the turn's durable wait has not received: the turn was signalled
   * (answered, or superseded by a later turn) and waits for nothing any more, though the chat may
   * have moved on since and no longer name it. Its process, had it lived, would have taken it.
   */
  signalled?: boolean;
}

/** What a recovery watch's look at a pending turn finds (see {@link DurableRegistration.look}). */
export type TurnLook = 'abandoned' | 'waiting' | 'alive';

/** What `createSessions` tells its engine when it registers (see {@link TurnEngine.register}). */
export interface DurableRegistration {
  /** Runs a turn: the workflow's body. */
  run: DurableTurnRunner;
  /**
   * Whether the turn of `input` is abandoned: no process holds its chat's lease any more (the one
   * that ran it died, and the lease expired). An engine recovers an abandoned turn of another
   * process; a turn whose process still holds the lease is left to it. `seen.unreachable`: the
   * engine knows the turn's process cannot be reached (its endpoint refuses connections), so a turn
   * the chat does not show running (it never began, or ended before the engine recorded its end)
   * is abandoned too once the lease is free; so is a turn the engine knows was signalled
   * (`seen.signalled`) whatever the chat's record says now.
   */
  abandoned(input: DurableTurnInput, turnId?: string, seen?: AbandonedHint): Promise<boolean>;
  /**
   * What a look at turn `turnId` finds, as {@link DurableRegistration.abandoned} decides it, with
   * the reason it is not abandoned: `waiting` (it waits for its answers: nothing changes until the
   * engine signals it, so a watch may look again rarely, and at once when it sees it signalled)
   * or `alive` (a process has it, or it may be about to begin).
   */
  look(input: DurableTurnInput, turnId?: string, seen?: AbandonedHint): Promise<TurnLook>;
  /**
   * Takes the chat's lease of abandoned turn `turnId` for this process, before the engine moves the
   * turn here: the turn's run in this process adopts the lease, and a process that looks meanwhile
   * finds the chat held, so it cannot take the turn again before that run took its lease (a look
   * comes every `recoveryInterval`; a process may take longer than that to start a run). Resolves
   * with the hold, or null when the lease is not free any more (another process holds the chat).
   */
  hold(input: DurableTurnInput, turnId: string): Promise<LeaseHold | null>;
}

/** A chat's lease held for a turn an engine is about to move to this process (see {@link DurableRegistration.hold}). */
export interface LeaseHold {
  /**
   * Gives the lease back unless the turn's run adopted it: the engine did not get the turn, or its
   * run ended. Never throws; a lease the store did not take back expires after the sessions' `leaseTtl`.
   */
  release(): Promise<void>;
}

/**
 * A durable-execution engine (SPI): DBOS, Restate, or your own. Steps run in the order the turn
 * makes them, one at a time; a recovered turn gets each recorded step's value back in the same
 * order, and runs live from the first step that was not recorded.
 */
export interface TurnEngine {
  /** The engine's name, for errors and traces (`dbos`). */
  readonly name: string;
  /**
   * Takes the turn runner. Called once, by `createSessions`, before its first turn: an engine that
   * recovers turns on launch needs the runner first. A second registration is an error.
   */
  register(registration: DurableRegistration): void;
  /**
   * Runs turn `turnId` (a new id per turn) as a workflow of the registered runner with `input`,
   * and resolves with what the runner returned (or rejects with what it threw). The first attempt
   * runs in this process.
   */
  run(turnId: string, input: DurableTurnInput): Promise<unknown>;
  /**
   * Inside a running turn: runs `fn` once and records its JSON value (or its error) as step `name`;
   * in a recovered turn, a step that was recorded returns the record without calling `fn`.
   */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Inside a running turn: opens durable wait `name` (DBOS `recv` on the turn's workflow, a Restate
   * awakeable). Opening records nothing a replay could diverge on; the id is the same on every
   * attempt of the turn. An engine without waits ends a waiting turn, as without an engine.
   */
  wait?(name: string): Promise<DurableWait>;
  /**
   * From any process (inside a step or outside a turn): sends `value` (JSON data) to wait `waitId`.
   * A wait takes the first value it is sent; later ones are dropped. Throws a
   * `WaitUndeliverableError` (from `@skilltree/core/provider`) when no signal can ever reach the
   * wait (no such wait, an id the engine refuses); any other failure is tried again.
   */
  signal?(waitId: string, value: unknown): Promise<void>;
  /**
   * Inside a running turn: opens the child workflow of subagent run `name` (`sub/<toolCallId>`),
   * whose steps the run records there instead of in the turn's own journal. Called synchronously,
   * at the same place in the turn's order of steps on every attempt (the engine may record the
   * start there). The child stays open until its turn ends: a recovered turn replays the run's
   * recorded steps from it, wherever the child was recovered. An engine without children records
   * a run's steps in the turn's journal, under the run's scope.
   */
  child?(name: string): ChildWorkflow;
  /** Stops the engine in this process (turns running elsewhere are not touched). */
  close(): Promise<void>;
}

/**
 * A subagent run's child workflow (see {@link TurnEngine.child}): its steps are recorded under it,
 * in the order the run starts them, and replayed from it when the turn is recovered.
 */
export interface ChildWorkflow {
  /** The child's id on the engine (`<turn id>/sub/<toolCallId>`). */
  readonly id: string;
  /** Like {@link TurnEngine.step}, recorded in the child. */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Opens the child workflow of a run this run started (`sub/<toolCallId>`), under this child. */
  child?(name: string): ChildWorkflow;
}
