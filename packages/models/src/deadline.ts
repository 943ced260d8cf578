/**
 * `timeoutMs` for one attempt: it bounds the wait for a response and, for a stream, every wait
 * between two chunks. The SDKs' own timeouts stop at the response headers, so a server that answers
 * and then goes silent would otherwise hang a session forever. When the deadline passes, the
 * attempt's request is aborted and the attempt fails with a retryable {@link ModelError} that names
 * the model and the timeout.
 */
import { ModelError } from './errors.js';

/** Default of every adapter's `timeoutMs`: ten minutes. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** The longest delay `setTimeout` keeps; longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a deadline needs to know to fire and to say what happened. */
export interface DeadlineSettings {
  /** Milliseconds; `Infinity` switches the deadline off. */
  timeoutMs: number;
  /** The error's provider label, e.g. `anthropic` or `ai-sdk:openai.chat`. */
  provider: string;
  /** The model id, named in the error. */
  model: string;
}

/**
 * Checks a `timeoutMs` option and fills in the default.
 * @throws TypeError naming the factory when the value is not a positive number.
 */
export function resolveTimeout(value: number | undefined, factory: string): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new TypeError(
      `${factory}: timeoutMs must be a positive number of milliseconds (or Infinity for none), got ${String(value)}.`,
    );
  }
  return value;
}

/**
 * The timeout to hand an SDK (which arms it around the request up to the response headers only):
 * the same value, kept within what `setTimeout` accepts, since `Infinity` would fire at once.
 */
export function sdkTimeout(timeoutMs: number): number {
  return Math.min(timeoutMs, MAX_TIMER_MS);
}

/**
 * One attempt's abort controller and clock. The clock runs only while the adapter waits on the
 * provider (see {@link Attempt.race}); time the caller spends between chunks does not count.
 */
export class Attempt {
  readonly #settings: DeadlineSettings;
  readonly #controller = new AbortController();
  readonly #expiry: Promise<never>;
  #reject!: (error: ModelError) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expired: ModelError | undefined;
  #received = false;
  #unlink: () => void = () => {};
  readonly #onExpire: (() => void)[] = [];

  /** Starts an attempt; aborting `signal` (the caller's) aborts it too. */
  constructor(settings: DeadlineSettings, signal?: AbortSignal) {
    this.#settings = settings;
    this.#expiry = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    // Observed through race(); without a handler an expiry nobody awaits would be an unhandled rejection.
    this.#expiry.catch(() => {});
    if (signal?.aborted) this.#controller.abort(signal.reason);
    else if (signal) {
      const onAbort = () => this.#controller.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#unlink = () => signal.removeEventListener('abort', onAbort);
    }
  }

  /** The signal to hand to the provider call: aborted by the caller or when the deadline passes. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The timeout error, once the deadline has passed. */
  get expired(): ModelError | undefined {
    return this.#expired;
  }

  /** Runs `fn` when the deadline passes (after the signal is aborted), e.g. to cancel a stream reader. */
  onExpire(fn: () => void): void {
    this.#onExpire.push(fn);
  }

  /** Waits for `promise` with the clock running; rejects with the timeout error when it runs out first. */
  async race<T>(promise: PromiseLike<T>): Promise<T> {
    this.#arm();
    try {
      return await Promise.race([promise, this.#expiry]);
    } finally {
      this.#disarm();
    }
  }

  /**
   * Yields `source`'s items; each wait for the next one may last `timeoutMs`. After an expiry the
   * source is not awaited again: its pending read may never settle.
   */
  async *guard<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
    const iterator = source[Symbol.asyncIterator]();
    let finished = false;
    try {
      for (;;) {
        const next = await this.race(iterator.next());
        if (next.done) {
          finished = true;
          return;
        }
        this.#received = true;
        yield next.value;
      }
    } finally {
      if (!finished) {
        const closing = Promise.resolve(iterator.return?.()).catch(() => {});
        if (!this.#expired) await closing;
      }
    }
  }

  /** Ends the attempt: stops the clock, unlinks the caller's signal, aborts the request unless it completed. */
  end(completed: boolean): void {
    this.#disarm();
    this.#unlink();
    if (!completed && !this.#controller.signal.aborted) {
      this.#controller.abort(new Error(`${this.#settings.provider}: the attempt was abandoned`));
    }
  }

  #arm(): void {
    const { timeoutMs } = this.#settings;
    if (this.#expired || !Number.isFinite(timeoutMs)) return;
    this.#timer = setTimeout(() => this.#expire(), Math.min(timeoutMs, MAX_TIMER_MS));
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #expire(): void {
    const { provider, model, timeoutMs } = this.#settings;
    const what = this.#received
      ? `the stream from ${model} stalled: no chunk for ${timeoutMs} ms (timeoutMs: ${timeoutMs})`
      : `${model} did not answer within ${timeoutMs} ms (timeoutMs: ${timeoutMs})`;
    const error = new ModelError(
      `${provider}: ${what}, so the request was aborted. Raise timeoutMs if the model needs longer, or check the server.`,
      { provider, kind: 'network', retryable: true },
    );
    this.#expired = error;
    this.#controller.abort(error);
    for (const fn of this.#onExpire) fn();
    this.#reject(error);
  }
}

/** Runs one non-streaming attempt under a deadline that covers the whole exchange, body included. */
export async function deadlineCall<T>(
  settings: DeadlineSettings,
  signal: AbortSignal | undefined,
  call: (attempt: Attempt) => PromiseLike<T>,
): Promise<T> {
  // A stream of one item, read to its end: how an attempt ends (the timeout error wins, the request
  // is aborted unless it completed) is then ruled in one place, deadlineStream.
  let result!: T;
  for await (const value of deadlineStream(settings, signal, async function* (attempt) {
    yield await attempt.race(call(attempt));
  })) {
    result = value;
  }
  return result;
}

/**
 * Runs one streaming attempt: `open` should await the response with `attempt.race` and read the
 * chunks through `attempt.guard`. Leaving early (the caller stopped reading) aborts the request.
 */
export async function* deadlineStream<T>(
  settings: DeadlineSettings,
  signal: AbortSignal | undefined,
  open: (attempt: Attempt) => AsyncIterable<T>,
): AsyncGenerator<T> {
  const attempt = new Attempt(settings, signal);
  let completed = false;
  try {
    yield* open(attempt);
    completed = true;
  } catch (error) {
    throw attempt.expired ?? error;
  } finally {
    attempt.end(completed);
  }
}
