/**
 * The resumed streams each user holds open in this process, bounded: every one polls the store until
 * its turn ends, so a user who opens many (tabs, or a script) would make the store answer for each.
 * Past the bound a resume is refused with 429 `too_many_resumers`; a stream's place is given back
 * when it ends, however it ends (the turn finished, the client went away, an error).
 */
import { HttpError } from './http.js';

/** Counts open resumed streams per user, up to `max` each. */
export class Resumers {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a place for `user`'s stream, or throws the 429 that says why and what to do. */
  take(user: string): () => void {
    const count = this.open.get(user) ?? 0;
    if (count >= this.max) {
      throw new HttpError(
        429,
        'too_many_resumers',
        `Too many resumed streams open for this user (${this.max}, limits.maxResumersPerUser): close a page that follows this chat, or raise the limit.`,
      );
    }
    this.open.set(user, count + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.open.get(user) ?? 1) - 1;
      if (left > 0) this.open.set(user, left);
      else this.open.delete(user);
    };
  }

  /** The streams `user` holds open now. */
  count(user: string): number {
    return this.open.get(user) ?? 0;
  }
}

/** `stream`, which calls `done` once when it ends: read to its end, cancelled, or failed. */
export function endingWith<T>(stream: ReadableStream<T>, done: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const { done: over, value } = await reader.read();
        if (over) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason).catch(() => {});
    },
  });
}
