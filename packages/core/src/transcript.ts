/**
 * The transcript a session holds in memory: every message, or (for a session loaded from a store)
 * the newest part of it, from `start` on. Appending keeps the user-message index and the tool-call
 * ids that make the window and id checks O(1)/O(log n) per request.
 */
import type { Message, ToolCall } from './types.js';
import { chooseWindow, type WindowRules } from './window.js';

export interface Transcript {
  /** Index, in the whole transcript, of `messages[0]`. 0 unless older messages live only in a store. */
  start: number;
  messages: Message[];
  /** Positions in `messages` of the user messages, ascending. */
  userIndices: number[];
  /** Tool call ids of the messages in memory. */
  callIds: Set<string>;
  /** The highest `N` of a `call_N` id seen or assigned, so assigned ids never repeat. */
  lastCallNumber: number;
}

const CALL_ID = /^call_(\d+)$/;

export function createTranscript(messages: readonly Message[] = [], start = 0, lastCallNumber = 0): Transcript {
  const transcript: Transcript = { start, messages: [], userIndices: [], callIds: new Set(), lastCallNumber };
  for (const message of messages) appendMessage(transcript, message);
  return transcript;
}

/** The number of messages in the whole transcript, stored ones included. */
export function transcriptLength(t: Transcript): number {
  return t.start + t.messages.length;
}

export function appendMessage(t: Transcript, message: Message): void {
  if (message.role === 'user') t.userIndices.push(t.messages.length);
  if (message.role === 'assistant') for (const call of message.toolCalls ?? []) noteCallId(t, call.id);
  t.messages.push(message);
}

function noteCallId(t: Transcript, id: string): void {
  t.callIds.add(id);
  const n = CALL_ID.exec(id)?.[1];
  if (n) t.lastCallNumber = Math.max(t.lastCallNumber, Number(n));
}

/** A fresh `call_N` id, never equal to an id the transcript has. */
export function freshCallId(t: Transcript): string {
  let id: string;
  do id = `call_${++t.lastCallNumber}`;
  while (t.callIds.has(id));
  return id;
}

/** `id` when it is a non-empty string not used before in this transcript (or in `taken`), else a fresh one. */
export function uniqueCallId(t: Transcript, id: unknown, taken?: Set<string>): string {
  if (typeof id === 'string' && id !== '' && !t.callIds.has(id) && !taken?.has(id)) return id;
  let fresh = freshCallId(t);
  while (taken?.has(fresh)) fresh = freshCallId(t);
  return fresh;
}

/** The request window by `rules` (see `chooseWindow`); `previousStart` is an index in the whole transcript. */
export function windowOf(t: Transcript, rules: WindowRules): { start: number; messages: Message[] } {
  const previousStart = rules.previousStart === undefined ? undefined : rules.previousStart - t.start;
  const local = chooseWindow(t.messages, t.userIndices, { ...rules, previousStart });
  return { start: t.start + local, messages: t.messages.slice(local) };
}

/** Drops messages before the absolute index `index` from memory (they stay in the store). */
export function forgetBefore(t: Transcript, index: number): void {
  const drop = Math.min(t.messages.length, Math.max(0, index - t.start));
  if (drop === 0) return;
  for (const message of t.messages.slice(0, drop)) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) t.callIds.delete(call.id);
  }
  t.messages = t.messages.slice(drop);
  t.userIndices = t.userIndices.filter((i) => i >= drop).map((i) => i - drop);
  t.start += drop;
}

/**
 * The tool calls of the last assistant message that have no result after it: what a process that
 * died mid-turn left behind.
 */
export function unansweredCalls(t: Transcript): ToolCall[] {
  for (let i = t.messages.length - 1; i >= 0; i--) {
    const message = t.messages[i];
    if (message.role !== 'assistant') continue;
    const answered = new Set<string>();
    for (const later of t.messages.slice(i + 1)) if (later.role === 'tool') answered.add(later.toolCallId);
    return (message.toolCalls ?? []).filter((call) => !answered.has(call.id));
  }
  return [];
}
