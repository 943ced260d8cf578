/**
 * Where a running turn's answer starts, and the id of the assistant message it is, as both
 * `GET /chat/:id` (which leaves the running answer out) and `GET /chat/:id/stream` (which sends it
 * whole) read it. The AI SDK's chat engine starts a resumed message from nothing and puts it in place
 * of the message with the id its `start` chunk names, so the resumed stream replays the whole answer
 * to the turn's user message, under `m<user + 1>`: the id the history gives that answer once it is
 * committed. A turn that answers waiting calls (an approval) is part of that answer: its stream
 * replays the steps before the approval too, then the approved call's outcome, in one message.
 */
import type { Message, SessionInfo, Sessions } from '@skilltree/core';

/** Where a running turn's answer starts. */
export interface TurnStart {
  /** Index of the first message the resumed stream reads (the turn's user message, for its context changes). */
  readFrom: number;
  /** How many messages of the transcript the history shows: up to the user message the answer answers. */
  historyEnd: number;
  /** The id of the assistant UI message of the answer (`m<index>`, as `toUIMessages` names it). */
  messageId: string;
}

/** How far back a turn's user message is looked for (a turn's steps: a page of them). */
const LOOK_BACK = 1_000;

/** Whether a turn that starts after `last` answers waiting calls (their call or a result comes just before). */
const answersCalls = (last: Message | undefined) =>
  last?.role === 'tool' || (last?.role === 'assistant' && (last.toolCalls ?? []).length > 0);

/**
 * Where the running turn (whose first message is at `from`) starts its answer. Records are read,
 * never trusted: an answer with no user message before it starts at the look-back's first message.
 */
export async function turnStart(
  sessions: Sessions,
  id: string,
  owner: string,
  info: Pick<SessionInfo, 'running'> & { running: { from: number } },
): Promise<TurnStart> {
  const { from } = info.running;
  const start = Math.max(0, from - LOOK_BACK);
  const before = await sessions.messages(id, { from: start, limit: from + 1 - start, owner });
  const first = before[from - start];
  const answers = first ? first.role !== 'user' : answersCalls(before[from - start - 1]);
  // A new message's turn: its user message is at `from`.
  let user = answers ? -1 : from;
  for (let i = Math.min(before.length, from - start) - 1; answers && i >= 0; i--) {
    if (before[i].role === 'user') {
      user = start + i;
      break;
    }
  }
  if (user === -1) return { readFrom: start, historyEnd: start, messageId: `m${start}` };
  return { readFrom: user, historyEnd: user + 1, messageId: `m${user + 1}` };
}
