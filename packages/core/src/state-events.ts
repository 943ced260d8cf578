/**
 * Events: emitting one to the listeners and the running turn, handing the turn's events out,
 * warnings (each once), and the check that the session can act.
 */
import type { SessionState } from './state.js';
import type { SessionEvent, Warning } from './types.js';

export function emit(state: SessionState, event: SessionEvent): void {
  state.turnEvents?.push(event);
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

/** Hands out the running turn's events produced so far, oldest first. */
export function* drainTurn(state: SessionState): Generator<SessionEvent, void, undefined> {
  const events = state.turnEvents;
  while (events && events.length > 0) yield events.shift() as SessionEvent;
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
