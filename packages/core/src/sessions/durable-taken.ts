/**
 * A durable turn fenced because another process took its chat's lease. A process starved past the
 * lease's TTL (a long pause, a machine under load) loses the lease; the engine, taking the process
 * for dead, recovers the turn in another process, which takes the lease and goes on with it. When
 * the starved process wakes, its turn is fenced (`fencedError`, or a commit the store refuses). That
 * turn is not over: it runs elsewhere, exactly as a handed-over one does (see durable-handover.ts).
 * A chat deleted, or started again, while the turn ran is another matter: that turn is over.
 */

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
