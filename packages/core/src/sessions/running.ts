/**
 * The turns running in this process, so that `sessions.close()` can let them finish (or stop them
 * and wait for their commits) before the store closes, a `delete` here fences a turn on the
 * deleted chat at once instead of at its next lease renewal, and a `stop` here reaches the turn
 * without a round trip through the store.
 */

/** What `createSessions` knows of a running turn. */
export interface RunningTurn {
  /** The chat's store key, once the turn holds the chat's lease (null while it waits for it). */
  key: string | null;
  /** Aborts the turn: it records what happened (calls in flight as interrupted), commits it and gives its lease up. */
  stop(reason: Error): void;
  /** Stops the turn without writing anything more: its chat was deleted. */
  fence(error: Error): void;
  /** Settles once the turn has ended, committed and released its lease. */
  readonly done: Promise<void>;
}

/** The running turns of one `createSessions`. */
export class RunningTurns {
  readonly #turns = new Set<RunningTurn>();

  /** Tracks `turn` until it is done. */
  add(turn: RunningTurn): void {
    this.#turns.add(turn);
    void turn.done.finally(() => this.#turns.delete(turn));
  }

  /**
   * Stops the turn of this process that holds the lease on `key` (a turn still waiting for the
   * lease is not the running one). True when there was one.
   */
  stop(key: string, reason: Error): boolean {
    let found = false;
    for (const turn of this.#turns) {
      if (turn.key !== key) continue;
      turn.stop(reason);
      found = true;
    }
    return found;
  }

  /** Fences every turn on `key`. */
  fence(key: string, error: Error): void {
    for (const turn of this.#turns) if (turn.key === key) turn.fence(error);
  }

  /**
   * Waits up to `timeout` ms for the running turns to end by themselves, then stops the others
   * with `reason` and waits until they have committed and released their leases. With `handOver`
   * (turns on a durable engine), the others are handed over instead: `handOver` runs, and each is
   * fenced with `reason` (it writes nothing more and gives its lease up for another process).
   * `handOver` runs even when no turn was left to hand over: a turn the engine recovers here
   * afterwards is left to another process, never run against a store that is closing.
   */
  async drain(timeout: number, reason: Error, handOver?: () => void): Promise<void> {
    const all = () => Promise.allSettled([...this.#turns].map((turn) => turn.done));
    if (this.#turns.size === 0) return void handOver?.();
    // Beyond setTimeout's range (Infinity included): wait for them without a deadline.
    if (timeout > 2 ** 31 - 1) {
      await all();
      return void handOver?.();
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, timeout))));
    await Promise.race([all(), expired]);
    clearTimeout(timer);
    handOver?.();
    for (const turn of this.#turns) {
      if (handOver) turn.fence(reason);
      else turn.stop(reason);
    }
    await all();
  }
}
