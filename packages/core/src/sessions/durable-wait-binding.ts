/**
 * Binds a durable turn, and the wait it signals, to its chat. The chat's committed state names the
 * wait its answering turn signals (`StoredState.wait`), and a durable turn's input names it again
 * (`DurableTurnInput.follows`): both come back from outside the process (the store, the engine's
 * database), so both are treated as hostile. Every turn id begins with a tag of its chat (a digest
 * of the chat's store key, which holds the owner), and a wait is followed only when its turn, and
 * any turn its wait id names, carry this chat's tag: a state copied from (or forged to name)
 * another chat's waiting turn is ignored, and the turn that answers runs as a turn of its own chat,
 * signalling nothing. The waiting side checks too: an outcome from another chat's turn (a wait id
 * the engine makes at random, which carries no turn, named in a forged state) ends the wait
 * without keeping that chat's reply.
 */
import type { DurableWaitState } from '../types/engine.js';

/** What every turn id of `createSessions(…, { engine })` begins with, before its chat's tag. */
export const TURN_PREFIX = 'skilltree-turn-';

/**
 * The longest turn or wait id a chat's state may name. Every turn id has a fixed size (~100
 * characters: an answering turn's is a SHA-256, however many waits came before it; a retried
 * answer's adds one UUID), a DBOS wait id is a turn id and a topic, Restate's are ~100 characters.
 * The limit stays where it was when answer ids grew with each round, so a chat that waits under
 * such an id (stored before ids were hashed) is still followed.
 */
const MAX_ID = 8_192;

/**
 * The tag of the chat kept under store key `key`: 16 hex digits of its SHA-256 (the key holds the
 * owner's digest and the chat id, so two chats, or one id of two owners, get two tags).
 */
export async function chatTag(key: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`chat:${key}`)));
  return Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether `id` is a turn id of the chat tagged `tag`. */
function turnOfChat(id: string, tag: string): boolean {
  return id.startsWith(`${TURN_PREFIX}${tag}-`);
}

/** Whether `id` is a well-formed id a state may name: a short string of printable characters. */
function plainId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_ID && !/\p{Cc}/u.test(id);
}

/**
 * The wait `value` names, when it is a wait of the chat tagged `tag`, else null: its turn is a
 * turn of this chat, and every turn its wait id names (DBOS: `<turn>#wait:answers`) is too.
 * Anything else (another chat's wait, an id of the wrong shape, not an object) is not followed.
 */
export function followsOf(value: unknown, tag: string): DurableWaitState | null {
  if (value === null || typeof value !== 'object') return null;
  const { turn, wait } = value as Partial<Record<keyof DurableWaitState, unknown>>;
  if (!plainId(turn) || !plainId(wait) || !turnOfChat(turn, tag)) return null;
  for (let at = wait.indexOf(TURN_PREFIX); at >= 0; at = wait.indexOf(TURN_PREFIX, at + 1)) {
    if (!turnOfChat(wait.slice(at), tag)) return null;
  }
  return { turn, wait };
}

/**
 * What a waiting turn's workflow ends with, given the value its wait received: the outcome when a
 * turn of its own chat sent it; null (keeping nothing of it) when anything else did.
 */
export function ownOutcome(value: unknown, tag: string): unknown {
  const continuation = (value as { continuation?: unknown } | null)?.continuation;
  return typeof continuation === 'string' && turnOfChat(continuation, tag) ? value : null;
}
