/**
 * Messages read back from a store, where anything may have been written by hand: each one that
 * cannot be read (not a message, a part no version wrote, a result without its call) is kept in
 * its place as a short placeholder that names the chat, the index and what is wrong, so the chat
 * stays readable and its next turn runs. Positions never shift: the store appends after what it
 * holds, and the placeholder stands where the bad record is (the record itself is left as it is).
 */
import { textPart } from '../parts/message-parts.js';
import { parseMessage } from '../transcript/message-parse.js';
import type { Message, ToolCall } from '../types/messages.js';

/** A stored message that could not be read, by its index in the whole transcript. */
export interface UnreadableRecord {
  /** The chat, as the caller names it. */
  chat: string;
  /** The message's index in the whole transcript. */
  index: number;
  /** What is wrong with it. */
  reason: string;
}

/** The placeholders made here, so a caller can tell one from a message that only reads like one. */
const placeholders = new WeakMap<Message, UnreadableRecord>();

/**
 * What is wrong with a stored message that could not be read, when `message` is the placeholder
 * that stands for it (a message from `sessions.messages()` or a restored chat); else null. Only
 * placeholders made by this package count: a message whose text reads the same does not.
 *
 * @example
 * for (const m of await sessions.messages('chat-1')) {
 *   const bad = unreadableRecord(m);
 *   if (bad) console.warn(`chat ${bad.chat}, message ${bad.index}: ${bad.reason}`);
 * }
 */
export function unreadableRecord(message: Message): UnreadableRecord | null {
  return placeholders.get(message) ?? null;
}

/** The sentence a placeholder holds, and the warning says. */
export function unreadableText(record: UnreadableRecord): string {
  return `Message ${record.index} of chat "${record.chat}" could not be read from the store and is left out (${record.reason}). Fix or delete that record to bring it back.`;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/** The calls of an assistant record that holds calls at all (each with a string id and name), else none. */
function callsOf(raw: Record<string, unknown>): ToolCall[] {
  if (!Array.isArray(raw.toolCalls)) return [];
  const calls = raw.toolCalls.filter((c): c is Record<string, unknown> => isObject(c));
  if (calls.length !== raw.toolCalls.length) return [];
  if (!calls.every((c) => typeof c.id === 'string' && typeof c.name === 'string')) return [];
  return calls.map((c) => ({ id: c.id as string, name: c.name as string, input: c.input ?? {} }));
}

/**
 * The placeholder for a record: a tool result when it was one and a call is still open (that call
 * keeps a result), an assistant message (with its calls, when those read) when it was one, else a user
 * message. Its text is the sentence of {@link unreadableText}.
 */
function placeholder(raw: unknown, record: UnreadableRecord, open: ReadonlySet<string>): Message {
  const content = [textPart(unreadableText(record))];
  const r = isObject(raw) ? raw : {};
  let message: Message;
  if (r.role === 'tool' && open.size > 0) {
    // A result among results: it answers its own call, or (its id unreadable) the first still open.
    const id = typeof r.toolCallId === 'string' && open.has(r.toolCallId) ? r.toolCallId : [...open][0];
    const name = typeof r.name === 'string' ? r.name : 'unknown';
    message = { role: 'tool', toolCallId: id, name, content, isError: true, errorKind: 'unsaved' };
  } else if (r.role === 'assistant') {
    const calls = callsOf(r);
    message = { role: 'assistant', content, ...(calls.length > 0 ? { toolCalls: calls } : {}) };
  } else {
    message = { role: 'user', content };
  }
  placeholders.set(message, record);
  return message;
}

/** One stored message as today's shape, or the placeholder for it (`problems` gains what is wrong). */
export function readStoredMessage(
  raw: unknown,
  index: number,
  chat: string,
  problems: UnreadableRecord[],
  open: ReadonlySet<string> = new Set(),
): Message {
  try {
    return parseMessage(raw, `messages[${index}]`);
  } catch (error) {
    const reason =
      typeof raw === 'string' ? 'the stored text is not a JSON message' : (error as Error).message.replace(/\.$/, '');
    const record = { chat, index, reason };
    problems.push(record);
    return placeholder(raw, record, open);
  }
}

/**
 * A stored transcript (from index `start`) as messages a session can restore from: each record
 * read (see {@link readStoredMessage}), then the rules a restore checks: a result answers a call
 * made before it, and a call id is used once. A record that breaks them stands as a placeholder too.
 */
export function readStoredMessages(
  raw: readonly unknown[],
  start: number,
  chat: string,
): { messages: Message[]; problems: UnreadableRecord[] } {
  const problems: UnreadableRecord[] = [];
  const ids = new Set<string>();
  let open = new Set<string>();
  const messages = raw.map((item, i) => {
    const index = start + i;
    let message = readStoredMessage(item, index, chat, problems, open);
    const bad = (reason: string) => {
      const record = { chat, index, reason };
      problems.push(record);
      return placeholder({ role: message.role }, record, open);
    };
    if (message.role === 'assistant') {
      const reused = (message.toolCalls ?? []).find((call) => ids.has(call.id));
      if (reused) message = bad(`it reuses tool call id "${reused.id}"`);
      open = new Set();
      for (const call of message.role === 'assistant' ? (message.toolCalls ?? []) : []) {
        ids.add(call.id);
        open.add(call.id);
      }
    } else if (message.role === 'tool') {
      if (!open.has(message.toolCallId)) {
        message = bad(`it answers tool call "${message.toolCallId}", which no earlier message made`);
      }
      if (message.role === 'tool') open.delete(message.toolCallId);
      else open = new Set();
    } else {
      open = new Set();
    }
    return message;
  });
  return { messages, problems };
}
