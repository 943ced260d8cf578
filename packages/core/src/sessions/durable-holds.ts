/**
 * Leases a recovering process holds for the turns its engine is about to move here. An engine
 * finds a turn abandoned (its chat's lease free on two looks), then takes it over; the run that
 * follows takes the chat's lease only once it starts, which on a busy machine can be after the next
 * look of another process, which would find the lease free and take the turn again (the model call
 * in flight asked twice). So the lease is taken before the takeover, and the turn's run adopts it
 * (the same holder takes a lease it holds already: `SessionStore.acquire`).
 */
import type { DurableTurnInput, LeaseHold } from '../types/engine.js';
import { resolveChat } from './chat.js';
import type { SessionStore } from './session-store.js';

interface Held {
  key: string;
  holder: string;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The holds of one `createSessions`, by turn id. */
export interface LeaseHolds {
  hold(input: DurableTurnInput, turnId: string): Promise<LeaseHold | null>;
  /** The holder turn `turnId`'s run takes over when it takes lease `key`, once (then the run owns it). */
  adopt(turnId: string, key: string): string | undefined;
}

/** Holds leases on `store` for `leaseTtl` ms (the sessions' own: a hold lasts as a lease does). */
export function leaseHolds(store: SessionStore, leaseTtl: number): LeaseHolds {
  const holds = new Map<string, Held>();
  const forget = (turnId: string, held: Held) => {
    if (holds.get(turnId) !== held) return false;
    clearTimeout(held.timer);
    holds.delete(turnId);
    return true;
  };
  return {
    async hold(input, turnId) {
      const chat = await resolveChat(store, input.id, input.owner ?? undefined);
      const holder = `recovery:${crypto.randomUUID()}`;
      if (!(await store.acquire(chat.key, holder, leaseTtl))) return null;
      const earlier = holds.get(turnId);
      if (earlier) forget(turnId, earlier);
      const held: Held = { key: chat.key, holder, timer: undefined };
      // Not adopted within its time to live, the lease has expired in the store: nothing to adopt.
      held.timer = setTimeout(() => forget(turnId, held), leaseTtl);
      held.timer.unref?.();
      holds.set(turnId, held);
      return {
        async release() {
          if (forget(turnId, held)) await store.release(held.key, held.holder).catch(() => {});
        },
      };
    },
    adopt(turnId, key) {
      const held = holds.get(turnId);
      if (!held || held.key !== key) return undefined;
      forget(turnId, held);
      return held.holder;
    },
  };
}
