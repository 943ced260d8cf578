/**
 * A turn's journal on a durable engine (`createSessions(…, { engine })`): model calls and tool runs
 * become recorded steps. React state is not journaled: a recovered turn re-mounts the tree from the
 * chat's snapshot at turn start and goes through the turn again, getting each recorded step's value
 * back instead of asking the model or running the tool, so `useState`, stores and the lifecycle
 * come out as they were. Each model step records a digest of the request it answered: a tree that
 * renders another request on replay stops the turn with a {@link DurableReplayError}.
 */
import { subagentOf } from '../host/subagent.js';
import type { ModelCallEvents, ModelCallInfo, TurnHook } from '../observe/turn-hooks.js';
import { chatIncarnation } from '../state/reads.js';
import { runSelf } from '../state/runs.js';
import { type SessionState, tree } from '../state/state.js';
import type { TurnEngine } from '../types/engine.js';
import type { ToolCall } from '../types/messages.js';
import type { ModelResponse } from '../types/model.js';
import type { SessionEvent } from '../types/session.js';
import type { ToolOutcome } from './tool-call.js';

/**
 * Thrown when a recovered turn does not replay as it was recorded: the tree rendered a request
 * other than the one the recorded model call answered (the agent changed between the crash and the
 * recovery, or it renders from something other than its state, e.g. the clock). The turn stops
 * before anything diverges; what was committed stays.
 */
export class DurableReplayError extends Error {
  /** The chat whose turn did not replay. */
  readonly chatId: string;
  /** The recorded step that differs (`model-2`). */
  readonly step: string;
  constructor(chatId: string, step: string, detail: string) {
    super(
      `The recovered turn of chat "${chatId}" does not replay as recorded: ${detail} (step ${step}). ` +
        'The agent renders differently than when the turn began (a deploy changed it, or it renders from the clock or ' +
        'another outside value). The turn was stopped before anything diverged; what it committed stays. ' +
        'Send the message again, or deploy an agent that renders the same request for the recorded turns.',
    );
    this.name = 'DurableReplayError';
    this.chatId = chatId;
    this.step = step;
  }
}

/**
 * Ends a recovered durable turn whose chat moved on while its process was gone (the message was
 * sent again, or a later turn ran): the turn replays what it recorded and stops at the first step
 * it would have run live, so nothing the chat shows done runs twice. Engines report it through
 * `onRecovered`.
 */
export class TurnSupersededError extends Error {
  /** The chat whose turn was superseded. */
  readonly chatId: string;
  /** The step the turn would have run live (`tool-charge-pay-1`, `open`). */
  readonly step: string;
  constructor(chatId: string, step: string) {
    super(
      `A recovered turn of chat "${chatId}" was not run on: the chat moved on while its process was gone ` +
        `(the message was sent again, or a later turn ran), so step ${step} would repeat what the chat shows done. ` +
        'Nothing of it ran twice; the chat is as its later turns left it.',
    );
    this.name = 'TurnSupersededError';
    this.chatId = chatId;
    this.step = step;
  }
}

/** The engine a session's running turn records its steps on, and the chat it serves (for errors). */
export interface TurnJournal {
  readonly engine: TurnEngine;
  readonly chatId: string;
  /** The prefix `engine` gives this journal's step names (a subagent run's `sub/<callId>/`), for errors. */
  readonly scope?: string;
}

const journals = new WeakMap<SessionState, TurnJournal>();

/** Binds `journal` to the session's next turn (null unbinds it): the turn's steps are recorded on it. */
export function bindJournal(state: SessionState, journal: TurnJournal | null): void {
  if (journal) journals.set(state, journal);
  else journals.delete(state);
}

/** The journal the session's turn records on, or undefined (no engine: nothing changes). */
export function journalOf(state: SessionState): TurnJournal | undefined {
  return journals.get(state);
}

/** A model step as recorded: the digest of the request it answered, and the response. */
interface ModelRecord {
  request: string;
  response: ModelResponse;
}

/**
 * A short digest of a JSON value (FNV-1a, two 32-bit lanes): enough to tell a request that differs
 * from the recorded one, and small enough to keep beside every response.
 */
export function digest(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}:${text.length}`;
}

/**
 * The turn hook that makes each model call a step: live, the call streams its events as always and
 * its response is recorded when it ends; replayed, the recorded response is the call's answer (no
 * request goes out, nothing is billed again), once the request rendered now is checked against
 * the recorded one. Placed innermost, so traces and budgets see a replayed call like a live one.
 */
export function journalHook(state: SessionState): TurnHook | null {
  const journal = journalOf(state);
  if (!journal) return null;
  return {
    aroundModelCall: (call, inner) => recordedCall(journal, call, inner),
  };
}

async function* recordedCall(journal: TurnJournal, call: ModelCallInfo, inner: ModelCallEvents): ModelCallEvents {
  const name = `model-${call.step}`;
  const asked = digest(call.request);
  // Events of a live call go out as they come, while the step runs.
  const queue: SessionEvent[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  const done = journal.engine
    .step<ModelRecord>(name, async () => {
      for (;;) {
        const next = await inner.next();
        if (next.done) return { request: asked, response: next.value };
        queue.push(next.value);
        wake?.();
      }
    })
    .finally(() => {
      ended = true;
      wake?.();
    });
  done.catch(() => {});
  for (;;) {
    while (queue.length > 0) yield queue.shift() as SessionEvent;
    if (ended) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  const record = await done;
  if (record.request !== asked) {
    throw new DurableReplayError(
      journal.chatId,
      `${journal.scope ?? ''}${name}`,
      'the tree rendered another request than the recorded call answered',
    );
  }
  return record.response;
}

/** A tool outcome as recorded (what `run` threw stays out: it is not data). */
type ToolRecord = Omit<ToolOutcome, 'error'>;

/**
 * Runs a tool call as a step: live, `run` runs and its outcome is recorded; replayed, the recorded
 * outcome is the call's result and the tool does not run again. Without a journal, `run` runs.
 */
export async function journaledTool(
  state: SessionState,
  call: ToolCall,
  run: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const journal = journalOf(state);
  if (!journal) return run();
  const name = `tool-${call.name}-${call.id}`;
  if (callsSubagent(state, call)) {
    // A subagent run records its own steps (its scope of this journal); a step around it would
    // swallow them (engines run a step inside a step as plain code). The run goes first, replaying
    // what it recorded, and the call's outcome is recorded once it ends.
    const outcome = await run();
    // The run did not replay as recorded: the turn stops here, before the parent goes on live.
    if (outcome.error instanceof DurableReplayError) throw outcome.error;
    await journal.engine.step<ToolRecord>(name, async () => dataOf(outcome));
    return outcome;
  }
  let live: ToolOutcome | undefined;
  const record = await journal.engine.step<ToolRecord>(name, async () => {
    live = await run();
    return dataOf(live);
  });
  return live ?? record;
}

function dataOf(outcome: ToolOutcome): ToolRecord {
  const { error: _error, ...data } = outcome;
  return data;
}

/** Whether `call` names a `<Subagent>` the tree renders now. */
function callsSubagent(state: SessionState, call: ToolCall): boolean {
  const tool = tree(state).toolsByName.get(call.name);
  return tool !== undefined && subagentOf(tool.node.props) !== undefined;
}

/**
 * The key a tool with side effects passes to the service it calls: the same on every attempt of
 * this call (a recovered turn runs a call whose step was not recorded again, with the same key),
 * and different for every other call: the chat, its incarnation and the call's path (the call id;
 * inside a subagent run, the ids of the calls that spawned it first, `call_1/pay-1`: two runs
 * whose models give their calls the same id get different keys).
 */
export function idempotencyKey(state: SessionState, call: ToolCall): string {
  const chat = state.runtime.chat;
  const incarnation = chatIncarnation(state);
  const path = `${runPath(state)}${call.id}`;
  return chat ? `${chat.id}/${incarnation ?? '-'}/${path}` : `session/${path}`;
}

/** The ids of the calls that spawned `state`'s run and the runs above it, outermost first (`a/b/`). */
function runPath(state: SessionState): string {
  let path = '';
  for (let at = runSelf(state); at; at = runSelf(at.parent)) path = `${at.run.toolCallId}/${path}`;
  return path;
}
