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
