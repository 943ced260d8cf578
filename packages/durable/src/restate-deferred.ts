/** The small promise helpers of `restateEngine`. */

/** A promise with its settlers (Promise.withResolvers, typed for ES2023). */
export interface Deferred {
  promise: Promise<unknown>;
  /** How many `run` calls of this process wait for it. */
  callers: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function deferred(): Deferred {
  let resolve!: (value: unknown) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<unknown>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => {});
  return { promise, resolve, reject, callers: 0 };
}

export function messageOf(error: unknown): string {
  return String((error as Error)?.message ?? error);
}

/**
 * The attempts of each turn this process runs. The server may start a turn's handler again while
 * an earlier attempt still runs here (a resume after a move, a retry of a stream it gave up on):
 * only the newest attempt speaks for the turn. `begin` returns whether an attempt is still it.
 */
export function attempts() {
  const newest = new Map<string, object>();
  return {
    begin(turnId: string): () => boolean {
      const mine = {};
      newest.set(turnId, mine);
      return () => newest.get(turnId) === mine;
    },
    /** The attempt ended: forgotten, unless a newer one runs. */
    end(turnId: string, current: () => boolean): void {
      if (current()) newest.delete(turnId);
    },
  };
}
