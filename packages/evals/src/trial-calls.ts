/**
 * The reads and tool calls of a trial, from its transcript: each call with its result, what became
 * of it (ran, failed, denied, never ran, still waiting) and whether it waited for an answer.
 */
import type { Message } from '@skilltree/core';
import type { ToolErrorKind } from '@skilltree/core/provider';
import { textOf } from './text.js';
import type { CallStatus, SkillRead, ToolCallRecord } from './types.js';

/** Error kinds whose call never started: the tool did not run. */
const NEVER_RAN: ReadonlySet<ToolErrorKind> = new Set(['unknown-tool', 'unknown-skill', 'invalid-input', 'not-run']);

/** What a call's result (or its absence) says became of it. */
function statusOf(result: (Message & { role: 'tool' }) | undefined, waitingNow: boolean): CallStatus {
  if (!result) return waitingNow ? 'waiting' : 'not-run';
  if (result.isError !== true) return 'ok';
  if (result.errorKind === 'denied') return 'denied';
  return result.errorKind && NEVER_RAN.has(result.errorKind) ? 'not-run' : 'error';
}

/** What the trial saw of calls that waited: what each waited for, and how it was answered. */
export interface WaitLog {
  waited: Map<string, 'approval' | 'client'>;
  answered: Map<string, 'approve' | 'deny' | 'result'>;
  /** Ids of the calls still waiting at the end. */
  waitingNow: Set<string>;
}

/** Reads and other tool calls, from the transcript (a call and its result, by id). */
export function callsOf(
  transcript: readonly Message[],
  readTool: string,
  log: WaitLog,
): { reads: SkillRead[]; toolCalls: ToolCallRecord[] } {
  const results = new Map<string, Message & { role: 'tool' }>();
  for (const m of transcript) if (m.role === 'tool') results.set(m.toolCallId, m);
  const reads: SkillRead[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let turn = 0;
  for (const m of transcript) {
    if (m.role === 'user') turn++;
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const result = results.get(call.id);
      const ok = result !== undefined && result.isError !== true;
      if (call.name === readTool) {
        const name = (call.input as { name?: unknown } | null)?.name;
        reads.push({ name: typeof name === 'string' ? name : '', ok, turn });
        continue;
      }
      const record: ToolCallRecord = {
        name: call.name,
        input: call.input,
        ok,
        status: statusOf(result, log.waitingNow.has(call.id)),
        result: result ? textOf(result) : '',
        turn,
      };
      if (result?.isError && result.errorKind) record.errorKind = result.errorKind;
      const waited = log.waited.get(call.id);
      if (waited) record.waited = waited;
      const answer = log.answered.get(call.id);
      if (answer) record.answer = answer;
      toolCalls.push(record);
    }
  }
  return { reads, toolCalls };
}

/** Whether a call's tool ran (it succeeded or failed while running); a record without a status reads `ok`. */
export function ran(call: ToolCallRecord): boolean {
  const status = call.status ?? (call.ok ? 'ok' : 'error');
  return status === 'ok' || status === 'error';
}

/** Why a call did not run, in words, for notes. */
export function whyNotRun(call: ToolCallRecord): string {
  switch (call.status) {
    case 'waiting':
      return `it still waits for ${call.waited === 'client' ? "the client's result" : 'approval'}`;
    case 'denied':
      return 'it was denied';
    case 'not-run':
      return call.errorKind === 'invalid-input'
        ? 'its input was refused'
        : call.errorKind === 'unknown-tool'
          ? 'the tool was not offered'
          : 'it never started';
    default:
      return 'it did not run';
  }
}
