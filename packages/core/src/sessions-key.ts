/**
 * Where `createSessions` keeps a chat in its store: chats without an owner under their own id (as
 * always), and owned chats under a key made of a digest of the owner, a separator and the id. One
 * mapping, in one place: Alice's `x` and Bob's `x` are two chats, and no unowned id can equal an
 * owned key, because ids cannot hold the separator (a control character, see `checkSessionId`).
 */
import { checkSessionId } from './session-store.js';

/** U+001F (unit separator): a control character, which `checkSessionId` refuses in ids. */
const SEPARATOR = '\u001f';

/** The store key of chat `id` of `owner` (no owner: the id itself). */
export async function chatKey(id: string, owner: string | undefined): Promise<string> {
  checkSessionId(id);
  const checked = checkOwner(owner);
  if (checked === undefined) return id;
  return `${await digest(checked)}${SEPARATOR}${id}`;
}

/** Owners are strings (an app's user ids); anything else is a bug in the caller. */
export function checkOwner(owner: unknown): string | undefined {
  if (owner === undefined || typeof owner === 'string') return owner;
  throw new Error(`Invalid owner ${String(owner)}: pass the user's id as a string, or no owner at all.`);
}

/** The SHA-256 of the owner in hex: a fixed-length name with no separator in it, whatever the owner holds. */
async function digest(owner: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(owner)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
