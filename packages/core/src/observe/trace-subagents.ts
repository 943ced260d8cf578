/**
 * Tracing subagent runs: a run's spans carry its parent's conversation id and owner, and its turn
 * span (`invoke_agent {name}`) records what its first request cost before it was sent.
 */
import type { SessionState } from '../state/state.js';
import type { TelemetryAttributeValue } from '../types/options.js';
import { tracingOf } from './tracing.js';

/** Spans of `child` (a run) name the conversation and owner its parent's name. */
export function inheritTracing(child: SessionState, parent: SessionState): void {
  if (parent.tracing.identity) child.tracing.identity = parent.tracing.identity;
}

/** Sets attributes on the running turn's span of `state` (a run's `invoke_agent {name}`), when it is traced. */
export function annotateTurnSpan(state: SessionState, attributes: Record<string, TelemetryAttributeValue>): void {
  const open = tracingOf(state)?.stack[0];
  if (!open?.span.isRecording()) return;
  open.span.setAttributes(attributes);
}
