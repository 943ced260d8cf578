/**
 * The transcript a session holds in memory: every message, or (for a session loaded from a store)
 * the newest part of it, from `start` on. Appending keeps the user-message index and the tool-call
 * ids that make the window and id checks O(1)/O(log n) per request.
 */
import { fileBytes } from '../files/files.js';
import { nestsWithin, TOO_DEEP_INPUT } from '../parts/tool-input-depth.js';
import type { Message, ToolCall } from '../types/messages.js';
import { chooseWindow, type WindowRules } from './window.js';

export interface Transcript {
  /** Index, in the whole transcript, of `messages[0]`. 0 unless older messages live only in a store. */
  start: number;
  messages: Message[];
  /** Positions in `messages` of the user messages, ascending. */
  userIndices: number[];
  /** Tool call ids of the messages in memory. */
  callIds: Set<string>;
  /** The highest `N` of a `call_N` (or `call_<scope>_N`) id seen or assigned, so assigned ids never repeat. */
  lastCallNumber: number;
  /**
   * What the ids this transcript assigns carry besides their number: the incarnation of the chat it
   * belongs to (`call_<scope>_N`), so that a chat deleted and started again under its id never
   * assigns an id the old one had. Null for a session of its own (`call_N`, stable for snapshots).
   */
  scope: string | null;
  /**
   * Bytes of every file that entered the chat (user messages and tool results), in the whole
   * transcript: stored messages and ones forgotten from memory included. What `files.maxChatBytes`
   * counts; kept in the session's record so every process counts the same.
   */
  fileBytes: number;
}

const CALL_ID = /^call_(?:([a-z0-9]+)_)?(\d+)$/;

export function createTranscript(
  messages: readonly Message[] = [],
  start = 0,
  lastCallNumber = 0,
  scope: string | null = null,
): Transcript {
  const transcript: Transcript = {
    start,
    messages: [],
    userIndices: [],
    callIds: new Set(),
    lastCallNumber,
    scope,
    fileBytes: 0,
  };
  for (const message of messages) appendMessage(transcript, message);
  return transcript;
}

/**
 * Sets the chat's file total a record kept (`fileBytes`): never below what the messages in memory
 * hold, so a record that lost or lowered it still counts those. A record written before totals were
 * kept counts the messages it loaded.
 */
export function restoreFileBytes(t: Transcript, kept: number | undefined): void {
  if (typeof kept === 'number' && Number.isFinite(kept) && kept > t.fileBytes) {
    t.fileBytes = Math.min(Math.floor(kept), Number.MAX_SAFE_INTEGER);
  }
}

/** Bytes of the files a message brings into the chat (an assistant's message brings none). */
export function messageFileBytes(message: Message): number {
  if (message.role === 'assistant' || !Array.isArray(message.content)) return 0;
  let total = 0;
  for (const part of message.content) if (part.type === 'file') total += fileBytes(part);
  return total;
}

/** The number of messages in the whole transcript, stored ones included. */
export function transcriptLength(t: Transcript): number {
  return t.start + t.messages.length;
}

export function appendMessage(t: Transcript, message: Message): void {
  if (message.role === 'user') t.userIndices.push(t.messages.length);
  if (message.role === 'assistant') for (const call of message.toolCalls ?? []) noteCallId(t, call.id);
  t.fileBytes += messageFileBytes(message);
  t.messages.push(message);
}

function noteCallId(t: Transcript, id: string): void {
  t.callIds.add(id);
  const match = CALL_ID.exec(id);
  // Only this transcript's own kind of id counts: another scope's numbers say nothing about ours.
  if (match && (match[1] ?? null) === t.scope) t.lastCallNumber = Math.max(t.lastCallNumber, Number(match[2]));
}

/** A fresh `call_N` (or `call_<scope>_N`) id, never equal to an id the transcript has. */
export function freshCallId(t: Transcript): string {
  let id: string;
  do id = t.scope === null ? `call_${++t.lastCallNumber}` : `call_${t.scope}_${++t.lastCallNumber}`;
  while (t.callIds.has(id));
  return id;
}

/**
 * The tool-call ids a transcript keeps: 1 to 64 letters, digits, `_` or `-`. Anthropic refuses a
 * request whose `tool_use` ids do not match, and other providers' ids (`call_…`, `toolu_…`) do.
 */
const SAFE_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * True when `id` is a tool-call id every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`). Core replaces
 * any other id a model sends with a fresh one; adapters use the same rule for the ids they keep.
 */
export function isSafeToolCallId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_CALL_ID.test(id);
}

/** `id` when it is a safe id (see {@link isSafeToolCallId}) not used before in this transcript (or in `taken`), else a fresh one. */
export function uniqueCallId(t: Transcript, id: unknown, taken?: Set<string>): string {
  if (isSafeToolCallId(id) && !t.callIds.has(id) && !taken?.has(id)) return id;
  let fresh = freshCallId(t);
  while (taken?.has(fresh)) fresh = freshCallId(t);
  return fresh;
}

/** A tool call a model sent that could not be kept, and why (for a warning). */
export interface DroppedCall {
  index: number;
  reason: string;
}

/**
 * The tool calls a model sent, repaired before they reach the transcript: an entry that is not a
 * call (`null`, a string) or has no name is dropped (there is nothing to answer: no tool to name in
 * the result), and every id that is missing, unsafe or already used is replaced by a fresh `call_N`.
 * A call's name and input are kept as sent; a name no tool has is answered with `Unknown tool`.
 */
export function repairCalls(t: Transcript, raw: unknown): { calls: ToolCall[]; dropped: DroppedCall[] } {
  const calls: ToolCall[] = [];
  const dropped: DroppedCall[] = [];
  const taken = new Set<string>();
  (Array.isArray(raw) ? raw : []).forEach((entry: unknown, index) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      const what = entry === null ? 'null' : Array.isArray(entry) ? 'a list' : `a ${typeof entry}`;
      dropped.push({ index, reason: `it is ${what}, not a tool call` });
      return;
    }
    const call = entry as Partial<Record<keyof ToolCall, unknown>>;
    if (typeof call.name !== 'string' || call.name.trim() === '') {
      dropped.push({ index, reason: 'it has no tool name' });
      return;
    }
    const id = uniqueCallId(t, call.id, taken);
    taken.add(id);
    // Input nested too deep would overflow every later JSON.stringify: kept as text the call's
    // error result explains (see parts/tool-input-depth.ts).
    calls.push({ id, name: call.name, input: nestsWithin(call.input) ? call.input : TOO_DEEP_INPUT });
  });
  return { calls, dropped };
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
 * Gives the transcript's arrays their exact size (appends grow them with room to spare): for a
 * session that waits between turns, whose transcript stays in memory until its next turn.
 */
export function compactTranscript(t: Transcript): void {
  t.messages = t.messages.slice();
  t.userIndices = t.userIndices.slice();
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
