/**
 * How a subagent run's turn ends when its `finish` call ended it (SPEC §19): the calls after it in
 * the step read that they did not run, and the turn finishes with an empty reply (its result is
 * `finish`'s input, which the run took).
 */
import { drainTurn, emit, hasEvents } from '../state/events.js';
import { transcriptOf } from '../state/reads.js';
import { turnUsage } from '../state/runs.js';
import type { SessionState } from '../state/state.js';
import type { ToolCall } from '../types/messages.js';
import type { SessionEvent, Turn } from '../types/session.js';
import { recordResult } from './calls.js';

/** Ends a run's turn that its `finish` call ended: calls after it read that they did not run. */
export async function* endFinished(
  state: SessionState,
  unanswered: readonly ToolCall[],
  first: number,
  steps: number,
  outcome: { turn?: Turn },
): AsyncGenerator<SessionEvent, Turn, undefined> {
  for (const call of unanswered) recordResult(state, call, 'Not run: the run ended with finish before it.', 'not-run');
  const turn: Turn = {
    text: '',
    steps,
    messages: transcriptOf(state).messages.slice(first - transcriptOf(state).start),
  };
  const usage = turnUsage(state);
  if (usage) turn.usage = usage;
  outcome.turn = turn;
  emit(state, { type: 'finish', turn });
  if (hasEvents(state)) yield* drainTurn(state);
  return turn;
}
