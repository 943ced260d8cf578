/**
 * The sessions a process keeps mounted between turns (their `useState` survives while cached),
 * least recently used first. A cached session stands for exactly one state of one incarnation of a
 * chat: it is reused only when the store's record has the same epoch and version.
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
}

/** True when `entry` is the state `record` describes: same incarnation, same version. */
export function matches(entry: Mounted<{ dispose(): void }>, record: SessionRecord): boolean {
  return entry.epoch === record.epoch && entry.version === record.version;
}

/** An LRU of mounted sessions by store key. */
export class MountedCache<S extends { dispose(): void }> {
  readonly #entries = new Map<string, Mounted<S>>();
  #closed = false;

  constructor(readonly size: number) {}

  /** Takes the entry out: a turn owns its session until it puts it back, so evictions never dispose it mid-turn. */
  take(key: string): Mounted<S> | undefined {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    return entry;
  }

  /** Puts a session back after its turn (the newest last); the oldest beyond `size` are disposed. */
  put(key: string, entry: Mounted<S>): void {
    if (this.#closed) {
      entry.session.dispose();
      return;
    }
    const other = this.#entries.get(key);
    if (other && other !== entry) other.session.dispose();
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.size) this.forget(this.#entries.keys().next().value as string);
  }

  /** Disposes the cached session of `key`, if any. */
  forget(key: string): void {
    this.#entries.get(key)?.session.dispose();
    this.#entries.delete(key);
  }

  /** Disposes every cached session; sessions put back later are disposed at once. */
  close(): void {
    this.#closed = true;
    for (const key of [...this.#entries.keys()]) this.forget(key);
  }
}
