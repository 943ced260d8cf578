/**
 * A durable turn that is not over though its run here failed: fenced because another process took
 * its chat's lease, or cut off by a store outage. A process starved past the
 * lease's TTL (a long pause, a machine under load) loses the lease; the engine, taking the process
 * for dead, recovers the turn in another process, which takes the lease and goes on with it. When
 * the starved process wakes, its turn is fenced (`fencedError`, or a commit the store refuses). That
 * turn is not over: it runs elsewhere, exactly as a handed-over one does (see durable-handover.ts).
 * A chat deleted, or started again, while the turn ran is another matter: that turn is over.
 */

import { errorMessage } from '../state/state.js';
import type { ResolvedChat } from './chat.js';
import type { Opened } from './chat-turn.js';
import { leaseIsFree } from './lease.js';
import { SessionConflictError, type SessionStore } from './session-store.js';

/**
 * Whether `error` fenced a turn of `chat` (which opened `session`) because another process has the
 * chat now: the chat is the same incarnation (not deleted, not started again), and another holder
 * has its lease, or has committed since this turn's last commit. A lease that merely lapsed, with
 * nobody on the chat, is not taken over: that turn fails as before.
 */
export async function takenOver(
  ctx: { store: SessionStore },
  chat: ResolvedChat,
  session: Opened['entry'],
  error: unknown,
): Promise<boolean> {
  if (!(error instanceof SessionConflictError)) return false;
  try {
    const record = await ctx.store.record(chat.key);
    if (!record || String(record.epoch) !== session.epoch) return false;
    if (record.version > session.version) return true;
    // Nobody committed since: someone holds the lease (the probe cannot take it), or nobody does.
    return !(await leaseIsFree(ctx.store, chat.key, 'takeover-probe'));
  } catch {
    // The store cannot say: the turn fails as before, its caller hears why.
    return false;
  }
}

/**
 * Whether a begun turn of `chat` whose run failed with `error` met a store outage: the store cannot
 * even read the chat now. Such a turn is not failed (its failure would be recorded for good, and
 * the store would never get its recorded reply): it is left pending, as a crash leaves it, and
 * once the store is back and the chat's lease has expired, another process with the same engine
 * recovers it and commits what it recorded without asking or running anything again. A store that
 * answers says the failure was the turn's own: it fails as before.
 */
export async function storeOutage(ctx: { store: SessionStore }, chat: ResolvedChat): Promise<boolean> {
  try {
    await ctx.store.record(chat.key);
    return false;
  } catch {
    return true;
  }
}

/** What the caller of a turn left pending by a store outage hears: the store's error, and that the turn goes on. */
export function outageError(chatId: string, error: unknown): Error {
  return Object.assign(
    new Error(
      `The session store failed while the turn of chat "${chatId}" ran (${errorMessage(error)}). The turn was not failed: once the ` +
        "store is back and the chat's lease has expired, another process with the same engine finishes it from its " +
        'recorded steps (read it with sessions.messages or GET /chat/:id/stream).',
      { cause: error },
    ),
    { name: 'StoreOutageError' },
  );
}
