/**
 * A chat's session as `createSessions` drives it: the public {@link Session}, and the few things a
 * chat's turn does beyond that API (what to write to the store, what to forget, the turn under a
 * lease). This is the one module that reaches the state behind a session; the chat's turn
 * (`chat-turn.ts`) goes through it.
 */
import type { ReactNode } from 'react';
import type { ChatInfo } from '../host/runtime.js';
import { identifySession } from '../observe/tracing.js';
import { forgetBuilt } from '../request/request.js';
import { estimateStateBytes } from '../state/bytes.js';
import { currentWindow } from '../state/config.js';
import { shedIdle } from '../state/idle.js';
import { sentPrefix, transcriptOf, waitingCalls } from '../state/reads.js';
import { compactTranscript, forgetBefore, transcriptLength } from '../transcript/transcript.js';
import { bindJournal, type TurnJournal } from '../turn/journal.js';
import { runTurn, type TurnScope } from '../turn/loop.js';
import { forgetOwnersSource } from '../turn/skills.js';
import type { Message } from '../types/messages.js';
import type { Budget, SendOptions, SessionOptions } from '../types/options.js';
import type { SessionEvent, SessionSnapshot, ToolAnswer, Turn } from '../types/session.js';
import { incarnationOf } from './key.js';
import { Session, stateOf } from './session.js';
import { type StoredState, storedState } from './session-store.js';
import { parseSnapshot } from './snapshot.js';

/** @internal A chat's session and what its turns do with it (not exported from the package). */
export interface ChatSession {
  readonly session: Session;
  /** The budget the session was made with. */
  readonly budget: Budget | undefined;
  /** Messages in the transcript, those already forgotten included. */
  length(): number;
  /** What the store lacks after its first `committed` messages: those messages, and the state to store. */
  unsaved(committed: number): { append: Message[]; state: StoredState };
  /**
   * Forgets what no request may send again (what lies before the window and the append-only
   * prefix), and what the session keeps only to make its next step cheaper: the chat waits idle.
   */
  forget(): void;
  /** What the session is estimated to hold in the heap (see {@link estimateSessionBytes}). */
  bytes(): number;
  /** Names the chat (and its owner) in the session's spans. */
  identify(id: string, owner: string | undefined): void;
  /** One turn of the session, with the budget, spend and span of the chat's turn. */
  turn(
    input: string | readonly ToolAnswer[],
    signal: AbortSignal,
    options: SendOptions,
    scope: TurnScope,
  ): AsyncGenerator<SessionEvent, Turn, undefined>;
  /** Binds the turn journal of a durable engine to the session (see `turn/journal.ts`). */
  bind(journal: TurnJournal | null): void;
  dispose(): void;
}

/**
 * @internal A chat's session for `createSessions`: new, or restored from `snapshot`, knowing the
 * chat it serves (`useChatInfo()`, `ctx.chat`) and its incarnation (from the record's `epoch`), which
 * the session's call ids and the answers to its waiting calls are bound to.
 */
export function chatSession(
  element: ReactNode,
  options: SessionOptions,
  chat: ChatInfo,
  epoch: string,
  snapshot?: SessionSnapshot,
): ChatSession {
  const session = new Session(element, options, snapshot && parseSnapshot(snapshot), {
    ...chat,
    incarnation: incarnationOf(String(epoch)),
  });
  const state = stateOf(session);
  return {
    session,
    budget: state.options.budget,
    length: () => transcriptLength(transcriptOf(state)),
    unsaved(committed) {
      const length = transcriptLength(transcriptOf(state));
      const snap = session.snapshot({ since: length });
      // An append-only conversation's prefix may start before the window: the next process loads it all.
      const sent = sentPrefix(state);
      const sentFrom = sent ? length - sent.start : 0;
      const max = Math.max(session.config.maxTranscriptMessages, sentFrom);
      const window = currentWindow(state);
      return {
        append: transcriptOf(state).messages.slice(committed - transcriptOf(state).start),
        state: storedState(snap, { start: window.start, size: window.messages.length, max }),
      };
    },
    forget() {
      forgetBefore(
        transcriptOf(state),
        Math.min(currentWindow(state).start, sentPrefix(state)?.start ?? Number.POSITIVE_INFINITY),
      );
      // A cached chat waits with what its next turn needs, not what made its last step cheap.
      compactTranscript(transcriptOf(state));
      forgetBuilt(state, waitingCalls(state).length === 0);
      shedIdle(state);
      forgetOwnersSource(state);
    },
    bytes: () => estimateStateBytes(state),
    identify: (id, owner) => identifySession(state, id, owner),
    turn: (input, signal, options, scope) => runTurn(state, session.model, input, signal, options, scope),
    bind: (journal) => bindJournal(state, journal),
    dispose: () => session.dispose(),
  };
}

/**
 * About how many bytes of heap `session` holds while it is mounted and idle, with React's
 * production build (the development build holds about twice as much): what `createSessions`'
 * `cache.maxBytes` counts. An estimate from what the session renders and the transcript it keeps,
 * not a measurement: docs/serving.md ("What one process holds") compares it with the heap.
 *
 * @example
 * const bytes = estimateSessionBytes(session); // about 125 000 with 3 skills of 20 tools loaded
 */
export function estimateSessionBytes(session: Session): number {
  return estimateStateBytes(stateOf(session));
}
