/**
 * Subagent runs in the turn (SPEC §19): how a run's turn ends when its `finish` call ended it (the
 * calls after it in the step read that they did not run, and the turn finishes with an empty reply:
 * its result is `finish`'s input, which the run took), and how answers reach calls that wait inside
 * runs (each run resumed once; it waits again, or its end is the parent's call's result).
 */
import type { TurnHooks } from '../observe/turn-hooks.js';
import { config } from '../state/config.js';
import { drainTurn, emit, hasEvents } from '../state/events.js';
import { transcriptOf } from '../state/reads.js';
import { turnUsage } from '../state/runs.js';
import type { SessionState } from '../state/state.js';
import type { ToolCall } from '../types/messages.js';
import type { SessionEvent, ToolAnswer, Turn } from '../types/session.js';
import { recordResult } from './calls.js';
import { cutResult } from './tool-call.js';
import { announceWaiting } from './waiting.js';

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
