/**
 * Calls that wait for a person (`needsApproval`) or for the client (a tool without `run`): which
 * calls wait, and answering them. A waiting call is session state that snapshots and stores keep;
 * an approved one is marked running (and committed) before its tool runs, so it runs at most once.
 */
import type { ToolEntry } from '../host/serialize.js';
import type { TurnHooks } from '../observe/turn-hooks.js';
import { config } from '../state/config.js';
import { drainTurn, emit, hasEvents, warn } from '../state/events.js';
import { shownWaiting } from '../state/reads.js';
import { type StagedMessage, stageMessages } from '../state/record.js';
import { runSelf, runsOf } from '../state/runs.js';
import { type SessionState, skillState, tree } from '../state/state.js';
import type { ToolCall } from '../types/messages.js';
import type { AnswerBinding, SessionEvent, ToolAnswer, WaitingCall } from '../types/session.js';
import { recordResult, resultMessage } from './calls.js';
import { cutResult, parseInput } from './tool-call.js';

/**
 * Why an answer was refused; nothing ran and nothing was recorded. `wrong-incarnation`: the answer
 * names another incarnation of the chat (it was deleted and started again since the call was shown);
 * `input-differs`: the answer carries another input than the call waits with.
 */
export type ToolAnswerProblem = 'not-waiting' | 'wrong-answer' | 'duplicate' | 'wrong-incarnation' | 'input-differs';

/**
 * An answer to a call that does not wait for it (unknown, answered already, or of the wrong kind), or
 * that is bound to another call than the one waiting (another incarnation of the chat, another input).
 */
export class ToolAnswerError extends Error {
  override readonly name = 'ToolAnswerError';
  constructor(
    readonly code: ToolAnswerProblem,
    readonly toolCallId: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether `call` must wait, and for what: the client's result for a tool without `run`, a person's
 * approval when its `needsApproval` says so. Null for a call that runs now (the read tool, an
 * unknown tool, input that fails the schema: those get their result at once, as always).
 */
export async function waitFor(state: SessionState, call: ToolCall): Promise<WaitingCall | null> {
  if (call.name === config(state).readToolName) return null;
  const tool: ToolEntry | undefined = tree(state).toolsByName.get(call.name);
  if (!tool) return null;
  const props = tool.node.props;
  const client = typeof props.run !== 'function';
  const rule = props.needsApproval;
  if (!client && (rule === undefined || rule === false)) return null;
  const parsed = await parseInput(tool, call.input);
  if (typeof parsed === 'string') return null;
  let approval = client ? false : rule === true;
  if (!client && typeof rule === 'function') {
    try {
      approval =
        (await rule(parsed.input, {
          session: state.runtime.session,
          chat: state.runtime.chat,
          skill: tool.skill ? { name: tool.skill, active: skillState(state, tool.skill) === 'active' } : null,
          signal: new AbortController().signal,
          toolCallId: call.id,
          maxResultChars: config(state).maxToolResultChars,
        })) === true;
    } catch (error) {
      // A rule that throws cannot say "no": the call waits for a person, and the developer hears why.
      warn(
        state,
        `needsApproval of tool "${call.name}" threw (${(error as Error)?.message ?? error}); the call waits for approval.`,
        'skilltree',
      );
      approval = true;
    }
  }
  if (!client && !approval) return null;
  return {
    toolCallId: call.id,
    name: call.name,
    input: call.input ?? {},
    for: client ? 'client' : 'approval',
    skill: tool.skill,
    status: 'waiting',
    since: Date.now(),
  };
}

/**
 * Checks `answers` against the calls that wait, all before any is applied: each must answer a call
 * that waits (not one answered already), once, with an answer of its kind (approve or deny for an
 * approval; a result or a denial for a client tool). Throws a {@link ToolAnswerError} naming the call.
 */
export function checkAnswers(state: SessionState, answers: readonly ToolAnswer[]): void {
  if (!Array.isArray(answers) || answers.length === 0) {
    throw new TypeError('Pass at least one answer: { toolCallId, type: "approve" | "deny" | "result" }.');
  }
  const seen = new Set<string>();
  for (const answer of answers) {
    const id = typeof answer?.toolCallId === 'string' ? answer.toolCallId : String(answer?.toolCallId);
    checkIncarnation(state, id, answer.incarnation);
    const waiting = state.waiting.calls.find((w) => w.toolCallId === id && w.status === 'waiting');
    if (!waiting) {
      throw new ToolAnswerError(
        'not-waiting',
        id,
        `Tool call "${id.slice(0, 80)}" is not waiting for an answer (it is unknown, or was answered already).`,
      );
    }
    if (seen.has(id)) throw new ToolAnswerError('duplicate', id, `Tool call "${id}" is answered twice in one request.`);
    seen.add(id);
    const ok =
      answer.type === 'deny' ||
      (answer.type === 'approve' && waiting.for === 'approval') ||
      (answer.type === 'result' && waiting.for === 'client');
    if (!ok) {
      throw new ToolAnswerError(
        'wrong-answer',
        id,
        waiting.for === 'approval'
          ? `Tool call "${id}" (${waiting.name}) waits for approval: approve or deny it.`
          : `Tool call "${id}" (${waiting.name}) runs in the client: send its result (or deny it).`,
      );
    }
    if (answer.input !== undefined && !sameJson(answer.input, waiting.input)) {
      throw new ToolAnswerError(
        'input-differs',
        id,
        `Tool call "${id}" (${waiting.name}) waits with another input than this answer carries: nothing ran. Show the call as it waits now (its input in sessions.get(id).waiting) and answer that.`,
      );
    }
  }
}

/** Options of `approve` or `deny` split in the binding they carry (only the fields set) and the rest. */
export function splitBinding<T extends AnswerBinding>(options: T): [AnswerBinding, Omit<T, keyof AnswerBinding>] {
  const { input, incarnation, ...rest } = options;
  return [{ ...(input === undefined ? {} : { input }), ...(incarnation === undefined ? {} : { incarnation }) }, rest];
}

/**
 * The one shape of `deny` on `Session` and `Sessions`: the reason as a string (`deny(id, 'too much')`)
 * or inside the options (`deny(id, { reason: 'too much', owner })`), then options. Anything else is
 * a TypeError naming what was passed, never a reason dropped silently.
 */
export function denyArguments<T extends object>(
  reasonOrOptions: string | (T & { reason?: string }) | undefined,
  options: T | undefined,
): { reason: string | undefined; options: T } {
  const rest = (options ?? {}) as T;
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new TypeError(`deny: the options must be an object, got ${describe(options)}.`);
  }
  if (reasonOrOptions === undefined) return { reason: undefined, options: rest };
  if (typeof reasonOrOptions === 'string') {
    if ('reason' in rest && (rest as { reason?: unknown }).reason !== undefined) {
      throw new TypeError('deny: pass the reason once, as a string or as { reason }, not both.');
    }
    return { reason: reasonOrOptions, options: rest };
  }
  if (typeof reasonOrOptions !== 'object' || reasonOrOptions === null || Array.isArray(reasonOrOptions)) {
    throw new TypeError(
      `deny: the reason must be a string or { reason: string, ...options }, got ${describe(reasonOrOptions)}.`,
    );
  }
  const { reason, ...own } = reasonOrOptions as { reason?: unknown };
  if (reason !== undefined && typeof reason !== 'string') {
    throw new TypeError(`deny: reason must be a string, got ${describe(reason)}.`);
  }
  return { reason, options: { ...own, ...rest } as T };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value).slice(0, 40)}`;
}

/** An answer that names a chat incarnation must name the session's own (see `AnswerBinding`). */
function checkIncarnation(state: SessionState, id: string, named: unknown): void {
  if (named === undefined) return;
  const own = state.waiting.incarnation;
  if (own !== null && named === own) return;
  throw new ToolAnswerError(
    'wrong-incarnation',
    id,
    own === null
      ? `Tool call "${id.slice(0, 80)}" is answered for a chat incarnation, but this session serves no chat of createSessions: leave incarnation out.`
      : `Tool call "${id.slice(0, 80)}" was shown in another incarnation of this chat (it was deleted and started again since): nothing ran. Reload the chat and answer the calls it shows now.`,
  );
}

/**
 * Whether two inputs are the same JSON data: objects by their keys (in any order; a key whose value
 * is undefined is no key), arrays by position, numbers by value. Deeper than 200 levels counts as
 * different: an answer's input is hostile, and no tool input the model gave is that deep.
 */
export function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i], depth + 1));
  }
  const left = Object.entries(a).filter(([, v]) => v !== undefined);
  const right = new Map(Object.entries(b).filter(([, v]) => v !== undefined));
  return left.length === right.size && left.every(([k, v]) => right.has(k) && sameJson(v, right.get(k), depth + 1));
}

/** What the model reads for a call a new user message superseded. */
const SUPERSEDED = 'Not run: the user sent a new message instead of answering this call (superseded).';

/**
 * Answers every waiting call as superseded by a new user message (the model reads that they did
 * not run), staged: nobody is told until `announce`, which the turn calls once its first request may
 * be sent. A message refused before that (a budget) is taken back with `undo`, and then the calls
 * still wait, answerable as before. `answered` hears each superseded call as it is announced.
 */
export function stageSupersede(state: SessionState, answered: (waiting: WaitingCall) => void): StagedMessage {
  const calls = state.waiting.calls;
  if (calls.length === 0) return { announce() {}, undo() {} };
  // A call waiting inside a run is superseded with its run: the parent's call of the subagent reads it.
  const own = runSelf(state)?.run.id;
  const runs = runsOf(state).filter((r) => r.status === 'waiting' && r.parentRunId === own);
  const superseded = [
    ...calls.filter((w) => !w.path).map((w) => ({ id: w.toolCallId, name: w.name, input: w.input })),
    ...runs.map((r) => ({ id: r.toolCallId, name: r.name, input: {} })),
  ];
  const staged = stageMessages(
    state,
    superseded.map((call) => (changes) => resultMessage(call, SUPERSEDED, 'denied', [], changes)),
  );
  state.waiting.calls = [];
  return {
    announce() {
      for (const waiting of calls) answered(waiting);
      for (const run of runs) {
        run.status = 'failed';
        run.error = `Subagent "${run.name}" did not go on: a new message came while a call inside it waited.`;
        delete run.state;
      }
      staged.announce();
      announceWaiting(state);
    },
    undo() {
      staged.undo();
      state.waiting.calls = calls;
    },
  };
}

/** Tells the session's listeners (and the sessions layer, which commits it) what waits now. */
export function announceWaiting(state: SessionState): void {
  emit(state, { type: 'waiting', calls: shownWaiting(state) });
}

/** Keeps the waiting calls still open (their ids in `open`) and still waiting; the rest are dropped. */
export function keepWaiting(state: SessionState, open: ReadonlySet<string>): void {
  state.waiting.calls = state.waiting.calls.filter((w) => w.status === 'waiting' && open.has(w.toolCallId));
}

/**
 * Applies the answers to calls waiting inside runs (`path` set): each run is resumed once with the
 * answers to its calls; what it did next (waits again, or ended) is recorded as the parent's.
 */
export async function* answerRuns(
  state: SessionState,
  answers: readonly ToolAnswer[],
  signal: AbortSignal,
  hooks: TurnHooks,
): AsyncGenerator<SessionEvent, void, undefined> {
  const resume = state.runtime.resume;
  const byId = new Map(answers.map((a) => [a.toolCallId, a]));
  const answered = state.waiting.calls.filter((w) => w.path && byId.has(w.toolCallId));
  if (answered.length === 0 || !resume) return;
  for (const w of answered) hooks.answered(w, (byId.get(w.toolCallId) as ToolAnswer).type);
  state.waiting.calls = state.waiting.calls.filter((w) => !answered.includes(w));
  const given = answered.map((w) => {
    // The run checks the answer against its own call, which carries no chat incarnation.
    const { incarnation: _drop, ...answer } = byId.get(w.toolCallId) as ToolAnswer;
    return answer as ToolAnswer;
  });
  for (const outcome of await resume(given, signal)) {
    if ('waits' in outcome) state.waiting.calls = [...state.waiting.calls, ...outcome.waits];
    else {
      const text = cutResult(outcome.content, config(state).maxToolResultChars);
      recordResult(state, outcome.call, text, outcome.isError ? 'threw' : undefined);
    }
  }
  announceWaiting(state);
  if (hasEvents(state)) yield* drainTurn(state);
}
