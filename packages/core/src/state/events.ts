/**
 * Events: emitting one to the listeners and the running turn, handing the turn's events out,
 * warnings (each once), and the check that the session can act.
 */

import type { SessionEvent, Warning } from '../types/session.js';
import type { SessionState } from './state.js';

/** Wakes a turn waiting in {@link drainWhile} for the next event. */
const wakers = new WeakMap<SessionState, () => void>();

export function emit(state: SessionState, event: SessionEvent): void {
  state.turn.events?.push(event);
  wakers.get(state)?.();
  for (const type of ['event', event.type]) {
    const set = state.listeners.get(type);
    if (!set) continue;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (error) {
        // A listener's bug must not break the turn or lose transcript data.
        console.error(`skilltree: a session "${type}" listener threw:`, error);
      }
    }
  }
}

/**
 * Whether the running turn has events to hand out. Checked before {@link drainTurn}: delegating to
 * even an empty generator costs an async generator a few microtask turns.
 */
export function hasEvents(state: SessionState): boolean {
  const events = state.turn.events;
  return events !== null && events.length > 0;
}

/** Hands out the running turn's events produced so far, oldest first. */
export function* drainTurn(state: SessionState): Generator<SessionEvent, void, undefined> {
  const events = state.turn.events;
  while (events && events.length > 0) yield events.shift() as SessionEvent;
}

/**
 * Waits for `work` (a step of the turn that emits events while it runs: a tool call) and hands its
 * events out as they happen, not once it is done, so that a stream's consumer sees a call's
 * `tool-call` while the tool runs. Returns (or throws) what `work` does. A turn left while `work`
 * runs (its signal aborted, which stops the work) still waits for it to settle, so that what it
 * records lands before the turn ends.
 */
export async function* drainWhile<T>(
  state: SessionState,
  work: Promise<T>,
): AsyncGenerator<SessionEvent, T, undefined> {
  let settled = false;
  const done = work.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  try {
    for (;;) {
      yield* drainTurn(state);
      if (settled) break;
      await Promise.race([done, new Promise<void>((resolve) => wakers.set(state, resolve))]);
    }
  } finally {
    wakers.delete(state);
    if (!settled) await done;
  }
  return work;
}

export function warn(state: SessionState, message: string, source?: string): void {
  if (state.warnings.some((w) => w.message === message && w.source === source)) return;
  const warning: Warning = source === undefined ? { message } : { message, source };
  state.warnings.push(warning);
  emit(state, { type: 'warning', ...warning });
}

/** Throws when the session cannot act: disposed, or its agent crashed. */
export function assertLive(state: SessionState): void {
  if (state.disposed) throw new Error('This session is disposed: create a new one with createSession().');
}

/** Drops every listener: the session's subscribers and its `<Skill>` components' (a disposed session). */
export function dropListeners(state: SessionState): void {
  state.listeners.clear();
  state.skills.listeners.clear();
  state.skills.watchers.clear();
}
