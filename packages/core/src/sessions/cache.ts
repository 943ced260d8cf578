/**
 * The sessions a process keeps mounted between turns (their `useState` survives while cached),
 * least recently used first, bounded by count and by estimated bytes (`createSessions`' `cache`
 * option). A cached session stands for exactly one state of one incarnation of a chat: it is
 * reused only when the store's record has the same epoch and version.
 */
import type { SessionRecord } from './session-store.js';

/** A mounted session and the store state it matches. */
export interface Mounted<S extends { dispose(): void }> {
  session: S;
  /** The incarnation of the chat this session belongs to (see `SessionRecord.epoch`). */
  epoch: string;
  /** The record's version the session matches; 0 for a chat not created yet. */
  version: number;
  /** Messages of the transcript the store has. */
  committed: number;
  /** While a turn runs: the index of its first message (its commits say so, for a resumed stream). */
  running?: number;
  /**
   * A recovered durable turn replaying what the store has already: commits wait until the session
   * has this many messages again (the store's length when the turn was recovered), then append only
   * what comes after.
   */
  replayTo?: number;
  /** What the session was estimated to hold when it was put back (0 when the cache counts no bytes). */
  bytes?: number;
}

/**
 * How many chats a process keeps mounted between turns (`createSessions`' `cache` option): a
 * mounted chat answers its next turn without loading from the store, and its `useState` survives.
 * Past either bound the least recently used chat is let go (its next turn reloads it from the
 * store, intact but for `useState`).
 */
export interface SessionCacheOptions {
  /** Chats kept mounted at most. Default: `cacheSize`, else 100. */
  maxChats?: number;
  /**
   * Heap the kept chats may hold, in bytes, by each chat's estimate (`estimateSessionBytes` from
   * `@skilltree/core/provider`, taken when its turn ends). Default: no bound. With 3 skills of 20
   * tools loaded a chat is about 125 KB; a process that may give its chats 256 MiB sets
   * `256 * 1024 * 1024`.
   */
  maxBytes?: number;
}

/** The bounds of a {@link MountedCache}. */
export interface MountedCacheLimits<S> {
  /** Sessions kept at most. */
  maxChats: number;
  /** Estimated bytes kept at most (Infinity: no bound). */
  maxBytes: number;
  /** A session's estimated bytes, asked when it is put back (only when `maxBytes` is finite). */
  sizeOf(session: S): number;
}

/** True when `entry` is the state `record` describes: same incarnation, same version. */
export function matches(entry: Mounted<{ dispose(): void }>, record: SessionRecord): boolean {
  return entry.epoch === record.epoch && entry.version === record.version;
}

/** An LRU of mounted sessions by store key, bounded by count and by estimated bytes. */
export class MountedCache<S extends { dispose(): void }> {
  readonly #entries = new Map<string, Mounted<S>>();
  #closed = false;
  #bytes = 0;
  readonly #limits: MountedCacheLimits<S>;

  constructor(limits: number | MountedCacheLimits<S>) {
    this.#limits = typeof limits === 'number' ? { maxChats: limits, maxBytes: Infinity, sizeOf: () => 0 } : limits;
  }

  /** Sessions kept at most. */
  get size(): number {
    return this.#limits.maxChats;
  }

  /** The estimated bytes of the sessions kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Takes the entry out: a turn owns its session until it puts it back, so evictions never dispose it mid-turn. */
  take(key: string): Mounted<S> | undefined {
    const entry = this.#entries.get(key);
    if (entry) this.#remove(key, entry);
    return entry;
  }

  /**
   * Puts a session back after its turn (the newest last); the least recently used are disposed
   * while there are more than `maxChats` or more than `maxBytes` (the one just put back too, when
   * it alone is over: the next turn loads it from the store).
   */
  put(key: string, entry: Mounted<S>): void {
    if (this.#closed) {
      entry.session.dispose();
      return;
    }
    const other = this.#entries.get(key);
    if (other && other !== entry) this.forget(key);
    else if (other) this.#remove(key, other);
    const { maxChats, maxBytes, sizeOf } = this.#limits;
    entry.bytes = Number.isFinite(maxBytes) ? sizeOf(entry.session) : 0;
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    while (this.#entries.size > maxChats || (this.#entries.size > 0 && this.#bytes > maxBytes)) {
      this.forget(this.#entries.keys().next().value as string);
    }
  }

  /** Disposes the cached session of `key`, if any. */
  forget(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#remove(key, entry);
    entry.session.dispose();
  }

  /** Disposes every cached session; sessions put back later are disposed at once. */
  close(): void {
    this.#closed = true;
    for (const key of [...this.#entries.keys()]) this.forget(key);
  }

  #remove(key: string, entry: Mounted<S>): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes ?? 0;
  }
}
