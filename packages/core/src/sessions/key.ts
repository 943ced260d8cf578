/**
 * Where `createSessions` keeps a chat in its store: chats without an owner under their own id (as
 * always), and owned chats under a key made of a digest of the owner, a separator and the id. One
 * mapping, in one place: Alice's `x` and Bob's `x` are two chats, and no unowned id can equal an
 * owned key, because ids cannot hold the separator (a control character, see `checkSessionId`).
 *
 * The mapping is exact: owners and ids are well-formed strings (no lone surrogate, which UTF-8 and
 * every database would turn into U+FFFD, so that two owners could share a key) without control
 * characters (NUL breaks Postgres). Anything else is refused with the rule, never stored.
 */
import { checkSessionId } from './session-store.js';

/** U+001F (unit separator): a control character, which `checkSessionId` refuses in ids. */
const SEPARATOR = '\u001f';

/** The store key of chat `id` of `owner` (no owner: the id itself). */
export async function chatKey(id: string, owner: string | undefined): Promise<string> {
  checkSessionId(id);
  const checked = checkOwner(owner);
  if (checked === undefined) return id;
  return `${await ownerKey(checked)}${SEPARATOR}${id}`;
}

/**
 * Checks an owner (an app's user id): a string without control characters (NUL, line breaks, DEL…)
 * and without lone surrogates (half of an emoji, e.g. `'Ann😀'.slice(0, 4)`). Every such string maps
 * to its own store key; anything else is refused with an error that names the rule. `undefined`
 * (no owner) passes. `createSessions` checks every owner it is given; a server may call it to refuse
 * a user id before a turn.
 *
 * @example
 * checkOwner('user-42');      // 'user-42'
 * checkOwner('Ann\uD83D');    // throws: a lone surrogate
 */
export function checkOwner(owner: unknown): string | undefined {
  if (owner === undefined) return undefined;
  if (typeof owner !== 'string') {
    // An object is named by its type: its String() may throw, or pass itself off as a user id.
    const what =
      owner !== null && (typeof owner === 'object' || typeof owner === 'function')
        ? `(${typeof owner})`
        : String(owner);
    throw new Error(`Invalid owner ${what}: pass the user's id as a string, or no owner at all.`);
  }
  if (/\p{Cc}/u.test(owner)) {
    throw new Error(
      `Invalid owner ${JSON.stringify(owner.slice(0, 80))}: an owner may not hold control characters (NUL, line breaks, tabs, DEL…). Pass the user's id as printable text.`,
    );
  }
  if (/\p{Cs}/u.test(owner)) {
    throw new Error(
      `Invalid owner ${JSON.stringify(owner.slice(0, 80))}: it holds a lone surrogate (half of a character such as an emoji, e.g. from cutting a string), which no store can keep exactly. Pass well-formed text.`,
    );
  }
  return owner;
}

/**
 * The key an owner's data is kept under in a store (an owned chat's key starts with it; the
 * owner's spend is kept under it): the SHA-256 of the owner's UTF-8 in hex. A fixed-length name
 * with no separator in it, whatever the owner holds, and one per owner: {@link checkOwner} lets
 * only well-formed strings through, and UTF-8 encodes those exactly. For code that reads a store
 * by hand, e.g. `store.spent(await ownerKey('user-42'), periodOf('day').key)`, or over a span of
 * days, `spentSince(store, await ownerKey('user-42'), since)`.
 */
export async function ownerKey(owner: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(owner)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The incarnation of a chat as its session's call ids and its waiting calls name it: 14 hex digits
 * derived from the record's epoch (a random value each creation of the chat sets), so a chat deleted
 * and started again under its id is another incarnation. Derived rather than the epoch itself: it is
 * shown to browsers, and fits a tool-call id (`call_<incarnation>_N`). A 53-bit hash (cyrb53): two
 * incarnations of one chat share one with a chance of about 1 in 10^15, and answers are checked
 * against the waiting call's input too.
 */
export function incarnationOf(epoch: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < epoch.length; i++) {
    const c = epoch.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
