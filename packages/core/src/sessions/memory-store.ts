/**
 * `memoryStore()`: a `SessionStore` in this process's memory, with the same leases and fencing as
 * the database stores. For tests, demos, and one process that may lose its sessions on restart.
 */

import type { Spend } from '../observe/budget.js';
import type { Message } from '../types/messages.js';
import { internStoredSpecs } from './intern-spec.js';
import {
  type Commit,
  checkEpoch,
  type LoadedSession,
  SessionConflictError,
  type SessionRecord,
  type SessionStore,
  type StoredState,
  tailStart,
} from './session-store.js';

interface Entry {
  record: SessionRecord;
  messages: Message[];
  users: number[];
}

const copy = <T>(value: T): T => structuredClone(value);

/** A copy of a record's state whose tool specs are the process's shared ones (see intern-spec). */
const copyState = (state: StoredState): StoredState => {
  const out = copy(state);
  internStoredSpecs(out);
  return out;
};

/** A copy of a record, its state's tool specs shared. */
const copyRecord = ({ state, ...rest }: SessionRecord): SessionRecord => ({ ...copy(rest), state: copyState(state) });

/** A store in memory. Every read returns copies, as a database would. */
export function memoryStore(): SessionStore {
  const sessions = new Map<string, Entry>();
  const leases = new Map<string, { holder: string; expires: number }>();
  /** Stops asked, by chat: the holder of the lease each was asked of (it goes with that lease). */
  const stops = new Map<string, string>();
  /** Owners' spend by owner and period (a nested map: no key made of two user strings can collide). */
  const spends = new Map<string, Map<string, Spend & { expiresAt: number }>>();
  /** The live entry of `owner` in `period` (created at zero), forgetting the owner's periods that are over. */
  const spendEntry = (owner: string, period: string, expiresAt: number) => {
    let periods = spends.get(owner);
    if (!periods) {
      periods = new Map();
      spends.set(owner, periods);
    }
    const now = Date.now();
    for (const [key, entry] of periods) if (entry.expiresAt <= now) periods.delete(key);
    const entry = periods.get(period) ?? { ...zero(), expiresAt };
    entry.expiresAt = Math.max(entry.expiresAt, expiresAt);
    periods.set(period, entry);
    return entry;
  };
  const held = (id: string, holder: string) => {
    const lease = leases.get(id);
    return lease !== undefined && lease.holder === holder && lease.expires > Date.now();
  };
  return {
    name: 'memory',
    async record(id) {
      const entry = sessions.get(id);
      return entry ? copyRecord(entry.record) : null;
    },
    async load(id, window): Promise<LoadedSession | null> {
      const entry = sessions.get(id);
      if (!entry) return null;
      const start = tailStart(entry.messages.length, entry.users, window);
      return { ...copyRecord(entry.record), start, messages: copy(entry.messages.slice(start)) };
    },
    async messages(id, from, limit) {
      const entry = sessions.get(id);
      return entry ? copy(entry.messages.slice(Math.max(0, from), Math.max(0, from) + Math.max(0, limit))) : [];
    },
    async acquire(id, holder, ttl) {
      const lease = leases.get(id);
      if (lease && lease.holder !== holder && lease.expires > Date.now()) return false;
      leases.set(id, { holder, expires: Date.now() + ttl });
      return true;
    },
    async renew(id, holder, ttl) {
      if (!held(id, holder)) return false;
      const now = Date.now();
      leases.set(id, { holder, expires: now + ttl });
      // A turn that renews reads as running, however long it goes between commits.
      const entry = sessions.get(id);
      if (entry) entry.record.updatedAt = now;
      return true;
    },
    async release(id, holder) {
      if (leases.get(id)?.holder !== holder) return;
      leases.delete(id);
      stops.delete(id);
    },
    async requestStop(id) {
      const lease = leases.get(id);
      if (!lease || lease.expires <= Date.now()) return false;
      stops.set(id, lease.holder);
      return true;
    },
    async stopRequested(id, holder) {
      return stops.get(id) === holder && leases.get(id)?.holder === holder;
    },
    async commit(id, commit: Commit) {
      checkEpoch(commit.epoch);
      if (!held(id, commit.holder)) throw new SessionConflictError(id, 'the turn lease expired and was taken over');
      const entry = sessions.get(id);
      const now = Date.now();
      if (commit.version === 0) {
        if (entry) throw new SessionConflictError(id, 'another turn created it first');
        const fresh: Entry = {
          record: {
            id,
            owner: commit.owner ?? null,
            epoch: commit.epoch,
            version: 0,
            length: 0,
            state: commit.state,
            createdAt: now,
            updatedAt: now,
          },
          messages: [],
          users: [],
        };
        sessions.set(id, fresh);
        return append(fresh, commit, now, leases, id);
      }
      if (!entry) throw new SessionConflictError(id, 'it was deleted');
      if (entry.record.epoch !== commit.epoch) {
        throw new SessionConflictError(id, 'it was deleted and created again');
      }
      if (entry.record.version !== commit.version) {
        throw new SessionConflictError(id, `version ${entry.record.version}, this turn read ${commit.version}`);
      }
      return append(entry, commit, now, leases, id);
    },
    async delete(id) {
      leases.delete(id);
      stops.delete(id);
      return sessions.delete(id);
    },
    async spent(owner, period) {
      const entry = spends.get(owner)?.get(period);
      return entry && entry.expiresAt > Date.now() ? { tokens: entry.tokens, dollars: entry.dollars } : zero();
    },
    async addSpend(owner, period, spend, expiresAt) {
      const entry = spendEntry(owner, period, expiresAt);
      entry.tokens += Math.round(finite(spend.tokens));
      entry.dollars += finite(spend.dollars);
      return { tokens: entry.tokens, dollars: entry.dollars };
    },
    async reserveSpend(owner, period, amount, limits, expiresAt) {
      // One synchronous step: no other call of this store runs between the check and the add.
      const entry = spendEntry(owner, period, expiresAt);
      const tokens = Math.round(finite(amount.tokens));
      const dollars = finite(amount.dollars);
      const fits =
        (limits?.tokens === undefined || entry.tokens + tokens <= limits.tokens) &&
        (limits?.dollars === undefined || entry.dollars + dollars <= limits.dollars);
      if (fits) {
        entry.tokens += tokens;
        entry.dollars += dollars;
      }
      return { reserved: fits, spent: { tokens: entry.tokens, dollars: entry.dollars } };
    },
    async settleSpend(owner, period, reserved, used, expiresAt) {
      const entry = spendEntry(owner, period, expiresAt);
      entry.tokens = Math.max(0, entry.tokens + Math.round(finite(used.tokens)) - Math.round(finite(reserved.tokens)));
      entry.dollars = Math.max(0, entry.dollars + finite(used.dollars) - finite(reserved.dollars));
      return { tokens: entry.tokens, dollars: entry.dollars };
    },
    async close() {},
  };
}

const zero = (): Spend => ({ tokens: 0, dollars: 0 });
/** A count to add: finite and not negative (a spend never refunds). */
const finite = (n: number) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);

function append(
  entry: Entry,
  commit: Commit,
  now: number,
  leases: Map<string, { holder: string; expires: number }>,
  id: string,
): number {
  for (const message of copy(commit.append)) {
    if (message.role === 'user') entry.users.push(entry.messages.length);
    entry.messages.push(message);
  }
  entry.record = {
    ...entry.record,
    version: entry.record.version + 1,
    length: entry.messages.length,
    state: copyState(commit.state),
    updatedAt: now,
  };
  leases.set(id, { holder: commit.holder, expires: now + commit.leaseTtl });
  return entry.record.version;
}
