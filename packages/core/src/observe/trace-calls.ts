/**
 * The open `execute_tool {tool}` spans of a session by tool call id. A subagent run's turn span
 * nests under its own call's span, found here by the call's id: the innermost open span is the
 * wrong parent when several runs of one step run at once. The calls of such a step open their
 * spans when their runs start ("ahead"), side by side under the turn's span, and each is pushed
 * (becomes the parent of what the parent session traces next) when the loop records that call.
 */
import type { SessionState } from '../state/state.js';
import type { Open, Tracing } from '../types/telemetry.js';
import { active, end, enter, fail, tracingOf } from './tracing.js';

/** A call's open span, its context (a run's parent), and whether it waits for the loop to reach it. */
interface CallSpan {
  open: Open;
  context: unknown;
  ahead: boolean;
}

const callSpans = new WeakMap<Tracing, Map<string, CallSpan>>();

/** Keeps `open`, the span of call `callId`, until {@link forgetCallSpan}. */
export function keepCallSpan(open: Open, callId: string, context: unknown, ahead: boolean): void {
  let spans = callSpans.get(open.tracing);
  if (!spans) {
    spans = new Map();
    callSpans.set(open.tracing, spans);
  }
  spans.set(callId, { open, context, ahead });
}

/** Drops call `callId`'s span (it ended). */
export function forgetCallSpan(open: Open, callId: string): void {
  const spans = callSpans.get(open.tracing);
  if (spans?.get(callId)?.open === open) spans.delete(callId);
}

/**
 * The context of call `callId`'s open `execute_tool` span in `state`, the parent of a run that call
 * spawned; undefined when untraced or the call has no open span (a resumed run's call).
 */
export function callTraceContext(state: SessionState, callId: string): unknown {
  const tracing = active(state);
  return tracing ? callSpans.get(tracing)?.get(callId)?.context : undefined;
}

/**
 * The span call `callId` opened ahead, now pushed: the loop reached the call, and what the parent
 * traces while it records it nests under it. Null when the call opened none.
 */
export function enterAhead(state: SessionState, callId: string): Open | null {
  const tracing = active(state);
  const kept = tracing ? callSpans.get(tracing)?.get(callId) : undefined;
  if (!kept?.ahead || kept.open.ended) return null;
  kept.ahead = false;
  enter(kept.open, kept.context);
  return kept.open;
}

/**
 * At the turn's end: ends the spans opened ahead for calls the loop never reached (the turn failed,
 * was aborted, or a run's `finish` ended it first), failed with `error` when the turn failed, and
 * forgets the turn's call spans.
 */
export function endCallsLeft(state: SessionState, error: unknown): void {
  const tracing = tracingOf(state);
  const spans = tracing ? callSpans.get(tracing) : undefined;
  if (!tracing || !spans) return;
  for (const { open, ahead } of spans.values()) {
    if (!ahead || open.ended) continue;
    if (error !== undefined && open.span.isRecording()) fail(open, error, 'The tool call');
    end(open);
  }
  callSpans.delete(tracing);
}
