/**
 * A case's turns: its messages with the files they carry, and its answers to calls that wait
 * (approve, deny, a client's result) as core's `ToolAnswer`s.
 */
import type { ToolAnswer, WaitingCall } from '@skilltree/core';
import type { EvalCase, EvalFile, EvalMessage, WaitingAnswer } from './types.js';

/** Whether `value` is one of the answers a case may give. */
export function isWaitingAnswer(value: unknown): value is WaitingAnswer {
  if (value === 'approve' || value === 'deny') return true;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'deny') return typeof (value as { deny: unknown }).deny === 'string';
  return Object.hasOwn(value, 'result') && keys.every((k) => k === 'result' || k === 'isError');
}

const SHAPES = `'approve', 'deny', { deny: 'reason' } or { result }`;

/**
 * The answer the case gives to `call`, as a `ToolAnswer`, or undefined to leave it waiting. Throws,
 * naming the case and the call, for an answer of another shape.
 */
export async function answerFor(evalCase: EvalCase, call: WaitingCall): Promise<ToolAnswer | undefined> {
  const answers = evalCase.answers;
  if (answers === undefined) return undefined;
  const given =
    typeof answers === 'function'
      ? await answers({ ...call })
      : Object.hasOwn(answers, call.name)
        ? answers[call.name]
        : undefined;
  if (given === undefined) return undefined;
  if (!isWaitingAnswer(given)) {
    throw new Error(
      `Case "${evalCase.name}": the answer to ${call.name} (${call.toolCallId}) is not ${SHAPES} (got ${JSON.stringify(given)}).`,
    );
  }
  const id = call.toolCallId;
  if (given === 'approve') return { toolCallId: id, type: 'approve' };
  if (given === 'deny') return { toolCallId: id, type: 'deny' };
  if ('deny' in given) return { toolCallId: id, type: 'deny', reason: given.deny };
  return { toolCallId: id, type: 'result', output: given.result, ...(given.isError ? { isError: true } : {}) };
}

/** The case's messages as text and files, one per turn; the case's `files` go with the first. */
export function turnsOf(evalCase: EvalCase): { text: string; files: EvalFile[] }[] {
  const list: readonly EvalMessage[] =
    typeof evalCase.messages === 'string' || !Array.isArray(evalCase.messages)
      ? [evalCase.messages as EvalMessage]
      : evalCase.messages;
  return list.map((m, i) => {
    const own = typeof m === 'string' ? { text: m, files: [] } : { text: m.text, files: [...(m.files ?? [])] };
    return i === 0 && evalCase.files ? { ...own, files: [...evalCase.files, ...own.files] } : own;
  });
}

/** A file's name for a report: its filename, else its media type, else `file`. */
export function fileLabel(file: EvalFile): string {
  const f = file as { filename?: unknown; mediaType?: unknown };
  return typeof f.filename === 'string' && f.filename
    ? f.filename
    : typeof f.mediaType === 'string'
      ? f.mediaType
      : 'file';
}

/** The case's messages as a list of their texts. */
export function messagesOf(evalCase: EvalCase): string[] {
  return turnsOf(evalCase).map((t) => t.text);
}
