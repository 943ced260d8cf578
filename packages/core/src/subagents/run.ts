/**
 * Running a `<Subagent>` call (SPEC §19): the run is mounted afresh, its turn loop runs (the same
 * `runTurn` as the agent's, under the parent's abort signal, budget and trace), its events reach the
 * parent as `subagent-*` events, its usage counts in the parent's turn and session as it happens, and
 * it is unmounted when it ends (its `useState` and refs are gone; the chat's stores stay).
 */
import type { SubagentProps } from '../host/subagent.js';
import { modelCallTrace } from '../observe/telemetry.js';
import { callTraceContext } from '../observe/trace-calls.js';
import { annotateTurnSpan } from '../observe/trace-subagents.js';
import { lastRequestOf } from '../request/request.js';
import { estimateRequestTokens } from '../request/usage-estimate.js';
import { config } from '../state/config.js';
import { dropListeners, emit } from '../state/events.js';
import { transcriptOf } from '../state/reads.js';
import { unmount } from '../state/render.js';
import { runSelf, runsOf, setTurnUsage, turnScope, turnUsage } from '../state/runs.js';
import type { RunSelf, SessionState } from '../state/state.js';
import { DurableReplayError } from '../turn/journal.js';
import { runTurn, type TurnScope } from '../turn/loop.js';
import { abortError, addUsage, NO_MODEL } from '../turn/model-call.js';
import { RunWaits } from '../turn/run-waits.js';
import { runLedger } from '../turn/spend-steps.js';
import type { Usage } from '../types/model.js';
import type { ModelRequest } from '../types/request.js';
import type { SessionEvent, SessionSnapshot, ToolAnswer, Turn } from '../types/session.js';
import type { SpawnCost, SubagentRun } from '../types/subagents.js';
import { bindRunJournal } from './durable-run.js';
import { takeSlot } from './limit.js';
import { type Finished, mountRun } from './mount-run.js';
import type { Lane } from './rounds.js';
import { keepRunState } from './run-state.js';

/** The default of `maxSubagentDepth`. */
export const DEFAULT_DEPTH = 3;

/** The error a run ends with, as the parent's tool result reads it: it names the subagent and the cause. */
export class SubagentError extends Error {
  override name = 'SubagentError';
}

function depthLimit(state: SessionState): number {
  const given = state.options.maxSubagentDepth;
  return typeof given === 'number' && Number.isFinite(given) && given >= 1 ? Math.floor(given) : DEFAULT_DEPTH;
}

/** The task text the run's conversation starts with: the `task`, or the input as JSON. */
export function taskText(input: unknown): string {
  const task = (input as { task?: unknown } | null)?.task;
  const keys = input !== null && typeof input === 'object' ? Object.keys(input) : [];
  return typeof task === 'string' && keys.length === 1 ? task : JSON.stringify(input ?? {});
}

/** A new run's record, added to the chat's list (an id taken already gets a suffix). */
function newRun(parent: SessionState, props: SubagentProps, toolCallId: string, depth: number): SubagentRun {
  const list = runsOf(parent);
  let id = `run_${toolCallId}`;
  for (let n = 2; list.some((r) => r.id === id); n++) id = `run_${toolCallId}_${n}`;
  const run: SubagentRun = {
    id,
    name: props.name,
    toolCallId,
    depth,
    context: props.context === 'fork' ? 'fork' : 'isolated',
    status: 'running',
    transcript: [],
    usage: {},
  };
  const parentRun = runSelf(parent)?.run;
  if (parentRun) run.parentRunId = parentRun.id;
  list.push(run);
  return run;
}

/** Adds `used` (a model call of `self`'s run) to its run and every run above it, and to the turn of every state above it. */
function charge(self: RunSelf, used: Usage): void {
  let at: RunSelf | null = self;
  while (at) {
    at.run.usage = addUsage(at.run.usage, used) ?? {};
    setTurnUsage(at.parent, addUsage(turnUsage(at.parent), used));
    at = runSelf(at.parent);
  }
}

/** What the run's first request costs: its tokens, of them the parent's prefix (a fork's), which the parent's request cached. */
export function spawnCost(request: ModelRequest, fork: ModelRequest | null): SpawnCost {
  const inputTokens = estimateRequestTokens(request);
  const inherited = fork ? Math.min(inputTokens, estimateRequestTokens(fork)) : 0;
  return {
    inputTokens,
    inheritedTokens: inherited,
    cachedTokens: fork?.appendOnly && request.appendOnly ? inherited : 0,
  };
}

/** Forwards the run's events to the parent (as `subagent-event`), charging its usage and reporting its spawn cost. */
function forward(child: SessionState, self: RunSelf, props: SubagentProps): void {
  const { run, parent } = self;
  let spawned = false;
  child.listeners.set(
    'event',
    new Set([
      (event: SessionEvent) => {
        if (event.type === 'step-finish' && event.usage) charge(self, event.usage);
        if (event.type === 'request' && !spawned) {
          spawned = true;
          const cost = spawnCost(event.request, self.fork);
          run.spawn = cost;
          annotateTurnSpan(child, {
            'skilltree.subagent.name': run.name,
            'skilltree.subagent.context': run.context,
            'skilltree.subagent.spawn.input_tokens': cost.inputTokens,
            'skilltree.subagent.spawn.inherited_tokens': cost.inheritedTokens,
            'skilltree.subagent.spawn.cached_tokens': cost.cachedTokens,
          });
          const info = { name: run.name, toolCallId: run.toolCallId, cost: { ...cost } };
          props.onSpawn?.(info);
          parent.options.onSpawn?.(info);
        }
        emit(parent, { type: 'subagent-event', runId: run.id, name: run.name, event });
      },
    ]),
  );
}

/** The run's `finish` result, its last reply, or the error that says why it has neither. */
function resultOf(props: SubagentProps, finished: Finished, turn: Turn): unknown {
  if (finished.value) return finished.value.result;
  if (props.result) {
    throw new SubagentError(
      `Subagent "${props.name}" ended without calling finish: it must end by calling finish with its result. Its last reply: ${JSON.stringify(turn.text.slice(0, 200))}`,
    );
  }
  return turn.text;
}

/** Why a run failed, in words that name the subagent and say what to change. */
function failure(props: SubagentProps, error: unknown, maxSteps: number): string {
  if (error instanceof SubagentError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('maxSteps reached')) {
    return `Subagent "${props.name}" reached its maxSteps (${maxSteps}) without a final reply: raise <Subagent maxSteps> or narrow its task.`;
  }
  return `Subagent "${props.name}" failed: ${message}`;
}

/** A run in progress: its record, the state that spawned it, and (a fork) the request it starts from. */
interface Start {
  self: RunSelf;
  props: SubagentProps;
  /** The task (a new run), or answers to its waiting calls (a run resumed). */
  input: string | readonly ToolAnswer[];
  /** The run's own state to go on from (a run resumed), else none. */
  restore?: SessionSnapshot;
  /** Its lane, when it runs in a round of a durable turn (see `rounds.ts`): its slot and its journal. */
  lane?: Lane;
}

/**
 * Runs one call of `props` (a `<Subagent>` rendered in `parent`'s tree) with its validated input,
 * and returns its result: the parent's tool result, or {@link RunWaits} when a call inside it waits
 * (then its calls are the chat's waiting calls). A run that fails, is aborted or reaches its
 * `maxSteps` throws a {@link SubagentError} naming the subagent (the call's error result). With
 * `lane` (a run of a round, in a durable turn) it takes its slot and records its steps through it.
 */
export async function runSubagent(
  parent: SessionState,
  props: SubagentProps,
  input: unknown,
  toolCallId: string,
  signal: AbortSignal,
  install: (child: SessionState) => void,
  lane?: Lane,
): Promise<unknown> {
  const depth = (runSelf(parent)?.run.depth ?? 0) + 1;
  const run = newRun(parent, props, toolCallId, depth);
  const fork = run.context === 'fork' ? (lastRequestOf(parent) ?? null) : null;
  emit(parent, { type: 'subagent-start', run });
  const limit = depthLimit(parent);
  const refusal =
    depth > limit
      ? `Subagent "${props.name}" cannot run: it would be ${depth} runs deep, and maxSubagentDepth is ${limit}. Do the task here, or raise createSession(…, { maxSubagentDepth }).`
      : null;
  return drive(
    { self: { run, parent, fork }, props, input: taskText(input), ...(lane ? { lane } : {}) },
    signal,
    install,
    refusal,
  );
}

/** Runs (or resumes) a run's turn to its end: its result, its waits, or a {@link SubagentError}. */
export async function drive(
  start: Start,
  signal: AbortSignal,
  install: (child: SessionState) => void,
  refusal: string | null = null,
): Promise<unknown> {
  const { self, props } = start;
  const { run, parent } = self;
  const finished: Finished = {};
  let child: SessionState | null = null;
  let release = () => {};
  const model = props.model ?? parent.options.model ?? NO_MODEL;
  run.status = 'running';
  try {
    if (refusal) throw new SubagentError(refusal);
    // A run of a round takes its slot from the round (in an order that replays), any other from the limiter.
    if (start.lane) await start.lane.admitted();
    else release = await takeSlot(parent, signal);
    child = mountRun(self, props, finished, start.restore);
    // Its own `<Subagent>`s run too, one level deeper.
    install(child);
    // On a durable turn, the run's steps are recorded in the turn's journal, under its call's scope.
    const journal = bindRunJournal(parent, child, run.toolCallId, start.lane?.journal);
    run.transcript = transcriptOf(child).messages;
    forward(child, self, props);
    if (signal.aborted) throw abortError(signal);
    // The run's turn span nests under its own call's `execute_tool {name}` span (several may be open
    // at once); a resumed run's call has none open, so the parent's innermost open span.
    const traceContext = callTraceContext(parent, run.toolCallId) ?? modelCallTrace(parent).traceContext;
    const scope = { ...(turnScope(parent) as TurnScope) };
    // Its charges of the owner's spend are steps of its own scope, numbered by the run.
    if (journal) scope.ledger = runLedger(scope.ledger, journal.engine);
    const turns = runTurn(child, model, start.input, signal, { traceContext }, scope, false);
    let next = await turns.next();
    while (!next.done) next = await turns.next();
    const waits = next.value.waiting;
    if (waits?.length && !finished.value) {
      run.status = 'waiting';
      keepRunState(run, child, self.fork);
      return new RunWaits(waits.map((w) => ({ ...w, path: [run.name, ...(w.path ?? [w.name])] })));
    }
    const result = resultOf(props, finished, next.value);
    run.status = 'done';
    run.result = result;
    return result;
  } catch (error) {
    run.status = signal.aborted ? 'aborted' : 'failed';
    run.error = signal.aborted
      ? `Subagent "${props.name}" was aborted: the parent's turn was aborted.`
      : failure(props, error, child ? config(child).maxSteps : 0);
    // A recovered run that does not replay stops the whole turn: the parent must not go on live.
    if (error instanceof DurableReplayError) throw error;
    throw new SubagentError(run.error);
  } finally {
    if (child) {
      run.transcript = [...transcriptOf(child).messages];
      unmount(child);
      dropListeners(child);
    }
    release();
    if (run.status !== 'waiting') {
      delete run.state;
      emit(parent, { type: 'subagent-finish', run });
    }
  }
}
