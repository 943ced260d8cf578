/**
 * What the three backends share: the schema version they write, name checks, and the errors they
 * throw when fenced out.
 */
import { createHash } from 'node:crypto';
import { type Message, SessionConflictError } from '@skilltree/core';

/**
 * The layout version every backend writes (the SQL tables or the Redis keys). A store refuses a
 * database written by a newer version of this package rather than misreading it.
 */
export const SCHEMA_VERSION = 5;

/**
 * The epoch of a Redis session written before schema version 2, which had none. Only one such
 * incarnation can exist per id (a session created since gets a random epoch), so it is an identity.
 */
export const LEGACY_EPOCH = 'v1';

/** Checks a table or key prefix: letters, digits and `_` (and `:` for Redis keys), at most 40. */
export function checkPrefix(prefix: string, allowColon = false): string {
  const pattern = allowColon ? /^[A-Za-z][A-Za-z0-9_:.-]{0,39}$/ : /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
  if (typeof prefix !== 'string' || !pattern.test(prefix)) {
    throw new Error(
      `Invalid prefix ${JSON.stringify(prefix)}: start with a letter, then letters, digits or _${allowColon ? ', :, ., -' : ''} (at most 40).`,
    );
  }
  return prefix;
}

/** The error for a database whose layout is newer than this package knows. */
export function schemaTooNew(store: string, found: number): Error {
  return new Error(
    `${store}: the database has schema version ${found}, but this @skilltree/store writes version ${SCHEMA_VERSION}. Upgrade @skilltree/store in every process that uses it.`,
  );
}

/** Why a commit was refused, as the message of a {@link SessionConflictError}. */
export const conflict = {
  lease: (id: string) => new SessionConflictError(id, 'the turn lease expired and was taken over'),
  created: (id: string) => new SessionConflictError(id, 'another turn created it first'),
  deleted: (id: string) => new SessionConflictError(id, 'it was deleted'),
  epoch: (id: string) => new SessionConflictError(id, 'it was deleted and created again'),
  version: (id: string, found: number, read: number) =>
    new SessionConflictError(id, `version ${found}, this turn read ${read}`),
};

/** What a store does with its connection's errors: one report per outage, not one per reconnection attempt. */
export interface OutageReporter {
  /** The connection failed (an `error` event): reported unless this outage was reported already. */
  report(error: unknown): void;
  /** The connection works again: the next error is a new outage. */
  recovered(): void;
}

/**
 * Reports the first error of each outage with `onError`, by default as one line on stderr. The
 * driver reconnects by itself; meanwhile the turns that need the store fail with the error.
 */
export function outageReporter(store: string, onError?: (error: Error) => void): OutageReporter {
  let down = false;
  const report =
    onError ??
    ((error: Error) => console.warn(`${store}: ${error.message}. Reconnecting; turns fail until the store is back.`));
  return {
    report(error) {
      if (down) return;
      down = true;
      try {
        report(error instanceof Error ? error : new Error(String(error)));
      } catch {
        // A reporter that throws must not turn a connection error into a crash.
      }
    },
    recovered() {
      down = false;
    },
  };
}

/**
 * Non-negative whole numbers for paging arguments, at most `max` (Postgres binds them as 32-bit
 * integers): NaN is 0, and Infinity (a window of "everything") is `max`.
 */
export const whole = (n: number, max = Number.MAX_SAFE_INTEGER): number =>
  Number.isNaN(n) ? 0 : Math.min(max, Math.max(0, Math.floor(n)));

/** Runs `init` once, on first call; a failure is not kept, so the next call tries again. */
export function once(init: () => Promise<void>): () => Promise<void> {
  let ready: Promise<void> | null = null;
  return () => {
    if (!ready) {
      ready = init();
      ready.catch(() => {
        ready = null;
      });
    }
    return ready;
  };
}

/** A spend to add: whole tokens and dollars, finite and not negative (a spend never refunds). */
export function addable(spend: { tokens: number; dollars: number }): { tokens: number; dollars: number } {
  const ok = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
  return { tokens: Math.round(ok(spend.tokens)), dollars: ok(spend.dollars) };
}

/** What settling a reservation adds to a spend: `used - reserved`, each made {@link addable} first (so it may be negative). */
export function settlement(
  reserved: { tokens: number; dollars: number },
  used: { tokens: number; dollars: number },
): { tokens: number; dollars: number } {
  const r = addable(reserved);
  const u = addable(used);
  return { tokens: u.tokens - r.tokens, dollars: u.dollars - r.dollars };
}

/**
 * A limit as the stores compare with it: null for none (left out, or Infinity), else a number from
 * 0 up; anything else (NaN, negative, not a number) is 0, so that a broken limit lets nothing through.
 */
export function limitOf(n: number | undefined): number | null {
  if (n === undefined || n === Number.POSITIVE_INFINITY) return null;
  return typeof n === 'number' && n >= 0 ? n : 0;
}

/**
 * The key schema 4 keeps an owner's spend under, from the owner schema 3 kept it under: the SHA-256
 * of the owner's UTF-8 in hex, which is what `createSessions` passes since (core's `ownerKey`, the
 * digest its owned chats' keys start with). For the migrations only.
 */
export const legacyOwnerKey = (owner: string): string => createHash('sha256').update(owner, 'utf8').digest('hex');

/**
 * A stored message body, parsed. A body that is not JSON (a record edited by hand) is handed on
 * as its text, which core reads as a record that cannot be read: the chat names it and goes on,
 * rather than failing every read of the chat.
 */
export function parseBody(body: string): Message {
  try {
    return JSON.parse(body) as Message;
  } catch {
    return body as unknown as Message;
  }
}
