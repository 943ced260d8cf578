/**
 * How `Session`'s answer shortcuts (`approve`, `deny`, `addToolResult`) read their arguments: each
 * becomes one `ToolAnswer` (bound to what the person saw, when given) and the options of the turn
 * it goes on with. `Session.answer` runs it; nothing here touches a session.
 */
import { denyArguments, splitBinding } from '../turn/waiting.js';
import type { SendOptions } from '../types/options.js';
import type { AnswerBinding, ToolAnswer } from '../types/session.js';

/** The options of `approve` and `deny`: the turn's, and what binds the answer to the call shown. */
export type AnswerOptions = SendOptions & AnswerBinding;

/** The reason `deny` takes: a string, or inside the options (`{ reason, ...options }`). */
export type DenyReason = string | (AnswerOptions & { reason?: string });

/** The arguments of `Session.answer`: the one answer, and the options of the turn it goes on with. */
export type ReadAnswer = [answers: [ToolAnswer], options: SendOptions];

/** `approve(toolCallId, opts)`: an approval, bound by `opts.input` / `opts.incarnation` when given. */
export function approveAnswer(toolCallId: string, opts: AnswerOptions = {}): ReadAnswer {
  const [binding, options] = splitBinding(opts);
  return [[{ toolCallId, type: 'approve', ...binding }], options];
}

/** `deny(callId, reason | { reason, ...opts }, opts)`: the one shape `Sessions.deny` takes too. */
export function denyAnswer(toolCallId: string, given?: DenyReason, more?: AnswerOptions): ReadAnswer {
  const { reason, options: all } = denyArguments<AnswerOptions>(given, more);
  const [binding, options] = splitBinding(all);
  const answer = { toolCallId, type: 'deny' as const, ...(reason === undefined ? {} : { reason }) };
  return [[{ ...answer, ...binding }], options];
}

/** `addToolResult(toolCallId, output, opts)`: a client tool's result, an error when `opts.isError`. */
export function resultAnswer(
  toolCallId: string,
  output: unknown,
  opts: SendOptions & { isError?: boolean } = {},
): ReadAnswer {
  const { isError, ...options } = opts;
  return [[{ toolCallId, type: 'result', output, ...(isError ? { isError } : {}) }], options];
}
