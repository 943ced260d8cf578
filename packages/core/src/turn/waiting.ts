/**
 * Calls that wait for a person (`needsApproval`) or for the client (a tool without `run`): which
 * calls wait, and answering them. A waiting call is session state that snapshots and stores keep;
 * an approved one is marked running (and committed) before its tool runs, so it runs at most once.
 */
import type { ToolEntry } from '../host/serialize.js';
import { config } from '../state/config.js';
import { emit, warn } from '../state/events.js';
import { type SessionState, skillState, tree } from '../state/state.js';
import type { ToolCall } from '../types/messages.js';
import type { ToolAnswer, WaitingCall } from '../types/session.js';
import { parseInput } from './tool-call.js';

/** Why an answer was refused; nothing ran and nothing was recorded. */
export type ToolAnswerProblem = 'not-waiting' | 'wrong-answer' | 'duplicate';

/** An answer to a call that does not wait for it: unknown, answered already, or of the wrong kind. */
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
  }
}

/** Tells the session's listeners (and the sessions layer, which commits it) what waits now. */
export function announceWaiting(state: SessionState): void {
  emit(state, { type: 'waiting', calls: state.waiting.calls.map((w) => ({ ...w })) });
}

/** Keeps the waiting calls still open (their ids in `open`) and still waiting; the rest are dropped. */
export function keepWaiting(state: SessionState, open: ReadonlySet<string>): void {
  state.waiting.calls = state.waiting.calls.filter((w) => w.status === 'waiting' && open.has(w.toolCallId));
}
