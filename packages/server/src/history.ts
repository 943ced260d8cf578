/**
 * What `GET /chat/:id` returns: the newest `maxHistoryMessages` messages of the transcript, cut at a
 * clean point. Whole turns when the window holds a user message; when the newest turn alone is longer,
 * the window's own messages, with the assistant message whose calls its first tool results answer
 * (so no result shows without its call, and the history is never empty).
 */
import type { AssistantMessage, Message, Sessions } from '@skilltree/core';

/** A cut of the transcript: its messages and the index of the first one in the whole transcript. */
export interface HistoryCut {
  messages: Message[];
  start: number;
  /** The transcript index of `messages[0]` when it is an assistant message brought in from before `start`. */
  callsFrom?: number;
}

const PAGE = 1_000;

/** Messages `[from, to)` of a chat, read a page at a time. */
async function read(sessions: Sessions, id: string, owner: string, from: number, to: number): Promise<Message[]> {
  const out: Message[] = [];
  while (from < to) {
    const page = await sessions.messages(id, { from, limit: Math.min(PAGE, to - from), owner });
    if (page.length === 0) break;
    out.push(...page);
    from += page.length;
  }
  return out;
}

/** The assistant message before `before` whose calls the tool results just before `before` answer, and its index. */
async function callsBefore(
  sessions: Sessions,
  id: string,
  owner: string,
  before: number,
): Promise<{ message: AssistantMessage; index: number } | null> {
  // Only the same step's tool results lie between: read back a page at a time until the assistant message.
  for (let to = before; to > 0; ) {
    const from = Math.max(0, to - 100);
    const page = await read(sessions, id, owner, from, to);
    for (let i = page.length - 1; i >= 0; i--) {
      const message = page[i];
      if (message.role === 'assistant') return { message, index: from + i };
      if (message.role !== 'tool') return null;
    }
    if (page.length === 0) return null;
    to = from;
  }
  return null;
}

/**
 * The newest messages of chat `id`, at most `max` (one more when the cut falls among tool results:
 * their assistant message, with only the calls they answer).
 */
export async function historyCut(
  sessions: Sessions,
  id: string,
  owner: string,
  length: number,
  max: number,
): Promise<HistoryCut> {
  const start = Math.max(0, length - max);
  const messages = await read(sessions, id, owner, start, length);
  if (start === 0) return { messages, start };
  // Whole turns when the window holds the start of one.
  const user = messages.findIndex((m) => m.role === 'user');
  if (user !== -1) return { messages: messages.slice(user), start: start + user };
  // The newest turn alone is longer than the window: cut mid-turn, at a step.
  let results = 0;
  while (results < messages.length && messages[results].role === 'tool') results++;
  if (results === 0) return { messages, start };
  const step = await callsBefore(sessions, id, owner, start);
  if (step) {
    const answered = new Set(messages.slice(0, results).map((m) => (m.role === 'tool' ? m.toolCallId : '')));
    const calls = (step.message.toolCalls ?? []).filter((call) => answered.has(call.id));
    return {
      messages: [{ ...step.message, toolCalls: calls }, ...messages],
      start: start - 1,
      callsFrom: step.index,
    };
  }
  // Their call is not stored any more: start after them, or show them alone rather than nothing.
  return results < messages.length
    ? { messages: messages.slice(results), start: start + results }
    : { messages, start };
}
