/**
 * A durable turn recovered after its chat moved on. The process that ran it died, its caller heard
 * the turn fail (the stream broke), and the chat went on without it: the message was sent again,
 * or a later turn ran once the lease expired (marking the dead turn's call in flight `Interrupted`).
 * Run then, the turn would do twice what the chat already shows done once (a tool's side effect
 * under another idempotency key, a model call billed again), where nobody sees it. So such a turn
 * may replay what it recorded, never run a step live: the first step it would run ends it with a
 * `TurnSupersededError` (turn/journal.ts). What it replays still ends what it must (a waiting turn takes the
 * answer it was sent; an answer whose commits were all in sends its signal).
 */
import { TurnSupersededError } from '../turn/journal.js';
import type { DurableTurnInput, TurnEngine } from '../types/engine.js';
import type { ResolvedChat } from './chat.js';
import { guardedEngine } from './durable-children.js';
import type { SessionRecord } from './session-store.js';

/**
 * Whether a turn that never began (no session opened on record) has been overtaken since it was
 * sent: another turn committed to its chat (`input.chatVersion`, kept since turns record it; one
 * that is not a non-negative whole number counts as not kept).
 */
export function movedOnSinceSent(input: DurableTurnInput, chat: ResolvedChat): boolean {
  // The recorded input is hostile too: a version that is no count of commits says nothing (the
  // turn runs, as one recorded before turns kept it).
  const sent = input.chatVersion;
  return Number.isSafeInteger(sent) && (sent as number) >= 0 && (chat.record?.version ?? 0) > (sent as number);
}

/**
 * Whether a recovered turn that began may run live on `record`: the chat shows it running (its
 * commits' `turn` began at `length`, the length of the session it opened), or nothing was
 * committed since it opened (it died before its first commit, and no other turn ran).
 */
export function stillRunsOn(record: SessionRecord, length: number): boolean {
  const running = record.state.turn;
  return running ? running.from === length : record.length === length;
}

/** `engine` for a turn that may only replay: a step it recorded returns its record; any other ends the turn. */
export function replayOnly(engine: TurnEngine, chatId: string): TurnEngine {
  return guardedEngine(
    engine,
    (record) => (name) => record(name, () => Promise.reject(new TurnSupersededError(chatId, name))),
  );
}
