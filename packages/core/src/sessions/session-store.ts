/**
 * Where sessions outlive a process: the `SessionStore` interface that `createSessions` runs on, and
 * its errors. Messages are append-only and indexed by position; the rest of a session is a small
 * record rewritten on every commit. Backends: `memoryStore()` here, SQLite, Postgres and Redis in
 * `@skilltree/store`.
 */
import type { Spend, SpendLimits, SpendReservation } from '../observe/budget.js';
import { cut } from '../parts/text.js';
import type { ContextChange, Message } from '../types/messages.js';
import type { Usage } from '../types/model.js';
import type { SentLogData } from '../types/request.js';
import type { LifecycleLogData, SessionSnapshot, WaitingCall } from '../types/session.js';
import type { SubagentRun } from '../types/subagents.js';

/** What a store keeps of a session besides its messages: small, rewritten on every commit. */
export interface StoredState {
  /** Loaded skills, least recently read first. */
  loadedSkills: string[];
  /** Store state by name (JSON data). */
  stores: Record<string, unknown>;
  /**
   * Context changes not recorded yet. A record an older version wrote holds them as
   * `contextChanged` lines; a restored session reads them upgraded.
   */
  pendingContextChanges?: ContextChange[];
  /** The highest `N` of the `call_N` ids assigned so far. */
  lastCallNumber?: number;
  /** Token usage summed over the session. */
  usage?: Usage;
  /**
   * Bytes of every file that entered the chat (user messages, tool and MCP results), over the whole
   * transcript: what `files.maxChatBytes` counts, the same in every process.
   */
  fileBytes?: number;
  /** The window the last request carried: its first message's index and its size. */
  window?: { start: number; size: number; max: number };
  /** What the model was told about the skills (the request's deltas), kept so another process sends the same. */
  lifecycle?: LifecycleLogData;
  /** What was sent to a model with `appendOnly` (see `SentLogData`), so another process appends to it. */
  sent?: SentLogData;
  /** Calls waiting for approval or for a client's result (committed, so any process answers them). */
  waiting?: WaitingCall[];
  /** The chat's subagent runs (SPEC §19), with their transcripts: kept with the chat, deleted with it. */
  subagentRuns?: SubagentRun[];
  /**
   * Set while a turn runs (its commits carry it; the last one leaves it out): the index of the turn's
   * first message, so any process can follow the turn (`GET /chat/:id/stream` resumes it).
   */
  turn?: { from: number };
  /**
   * On a durable engine: the turn that ended waiting for `waiting` and waits durably for its
   * answers, with the wait to signal (the turn that answers them signals it).
   */
  wait?: { turn: string; wait: string };
  /**
   * On a durable engine: the waiting turn the chat's last turn answered (and signalled), so that
   * another process ends its workflow when the process it waited in is gone.
   */
  answered?: string;
}

/** A session's record. */
export interface SessionRecord {
  /** The key the store keeps the session under (for an owned chat of `createSessions`, not the caller's id). */
  id: string;
  /** Who created the session (see `createSessions`' `owner` option), or null. */
  owner: string | null;
  /**
   * This incarnation of the session: a random value the creating commit sets (see {@link Commit.epoch}).
   * A session deleted and created again under the same id has another epoch, so a turn, a lease or a
   * cached copy of the old one can never write into or stand for the new one. A record written
   * before stores kept epochs has one too (a store gives it one when it upgrades its schema).
   */
  epoch: string;
  /** Bumped by every commit. A commit names the version it started from and fails if another commit came first. */
  version: number;
  /** How many messages the session has. */
  length: number;
  state: StoredState;
  /** Epoch milliseconds. */
  createdAt: number;
  /**
   * Epoch milliseconds of the last commit or lease renewal: while a turn runs, its renewals keep it
   * current, so a record not updated for longer than twice the lease's time to live has no live turn.
   */
  updatedAt: number;
}

/** A record with the newest part of its transcript: the messages from index `start` on. */
export interface LoadedSession extends SessionRecord {
  start: number;
  messages: Message[];
}

/** One commit: messages to append and the state to write, fenced by version and lease. */
export interface Commit {
  /** Who holds the turn lease (see {@link SessionStore.acquire}). */
  holder: string;
  /** The version this commit starts from; 0 creates the session (and fails when there is one). */
  version: number;
  /**
   * The incarnation this commit belongs to. Creating (version 0), the new record's epoch: a fresh
   * random value, e.g. `crypto.randomUUID()`. Otherwise the epoch of the record the turn loaded:
   * the commit fails with {@link SessionConflictError} when the record has another one (the session
   * was deleted and created again), even at the same version.
   */
  epoch: string;
  /** Messages to append; the first goes to index `record.length`. */
  append: Message[];
  state: StoredState;
  /** Set on creation only. */
  owner?: string | null;
  /** The commit also extends the holder's lease by this many milliseconds. */
  leaseTtl: number;
}

/**
 * A place to keep sessions. Every method is safe to call from several processes at once: a turn
 * holds a lease with an expiry (`acquire`, kept alive with `renew`), and a commit only lands when
 * the record is still the incarnation (epoch) and version the turn read and the lease is still the
 * turn's. Ids are opaque keys of up to 300 characters: `createSessions` namespaces owned chats with
 * keys that contain U+001F, so keep them byte for byte (no trimming, no case folding).
 */
export interface SessionStore {
  /** A short name for errors and logs, e.g. `sqlite:./sessions.db`. */
  readonly name: string;
  /** The record, or null when there is no such session. */
  record(id: string): Promise<SessionRecord | null>;
  /**
   * The record and the transcript's tail: the messages a request with a window of `window`
   * messages needs (from the first user message at or after `length - window`, else from the last
   * user message on). Never the whole transcript unless the window asks for it.
   */
  load(id: string, window: number): Promise<LoadedSession | null>;
  /** Up to `limit` messages from index `from`, oldest first. */
  messages(id: string, from: number, limit: number): Promise<Message[]>;
  /** Takes the turn lease (or renews the holder's own) for `ttl` ms. False while another holder's lease runs. */
  acquire(id: string, holder: string, ttl: number): Promise<boolean>;
  /**
   * Extends the holder's own lease to `ttl` ms from now, only while it runs: false when the lease
   * expired, was released, was taken by another holder, or went with a `delete`. Never takes a
   * free lease, so a turn whose session was deleted or taken over learns it here (and stops)
   * instead of taking the new session's lease. A renewal that extends the lease also sets the
   * record's `updatedAt` to now (when there is a record): the running turn is alive, however long
   * it goes between commits.
   */
  renew(id: string, holder: string, ttl: number): Promise<boolean>;
  /** Gives the lease up (only the holder's own), and with it any stop asked of it. */
  release(id: string, holder: string): Promise<void>;
  /**
   * Asks the turn that holds the lease on `id` now, in whichever process it runs, to stop: records
   * the request with that lease, naming its holder, where the turn reads it
   * ({@link SessionStore.stopRequested}). True when a running lease was found and asked; false when
   * none runs (nothing changes). The request belongs to that lease only: it goes when the lease is
   * released, deleted or taken over, and never stops the turn that takes the lease next.
   */
  requestStop(id: string): Promise<boolean>;
  /**
   * Whether a stop was asked ({@link SessionStore.requestStop}) of `holder`'s lease on `id`. A
   * running turn asks this a few times a second, so it is one cheap read.
   */
  stopRequested(id: string, holder: string): Promise<boolean>;
  /** Appends and writes atomically; returns the new version. Throws {@link SessionConflictError} when fenced out. */
  commit(id: string, commit: Commit): Promise<number>;
  /**
   * Deletes the session, its messages and its lease (with any stop asked of it) in one atomic step,
   * so a turn still running on it is fenced (its `renew` and `commit` fail). True when there was a
   * session.
   */
  delete(id: string): Promise<boolean>;
  /**
   * What `owner` has spent in `period` (a budget period's key, e.g. `2025-11-03`): zeros when
   * nothing. The reservations of calls in flight count as spent. Owners' spend is kept apart from
   * sessions: deleting a session refunds nothing. `createSessions` passes as `owner` the owner's
   * key (the SHA-256 of the owner in hex, as in owned chats' keys), so any owner fits a key or an
   * index; keep it byte for byte.
   */
  spent(owner: string, period: string): Promise<Spend>;
  /**
   * Adds `spend` to what `owner` has spent in `period` and returns the new total, atomically: two
   * turns charging at once from any processes both count. Amounts that are negative or not finite
   * add nothing. The store may forget the total after `expiresAt` (epoch ms, when the period is over).
   */
  addSpend(owner: string, period: string, spend: Spend, expiresAt: number): Promise<Spend>;
  /**
   * Check and reserve, as one atomic step across processes: when what `owner` has spent in `period`
   * plus `amount` stays within every limit in `limits` (`tokens`, `dollars`; a missing one is no
   * limit, `null` none at all), adds `amount` to the spend and returns `{ reserved: true, spent }`
   * (the new total); else changes nothing and returns `{ reserved: false, spent }` (the total as
   * found). Concurrent turns of one owner, in any processes, can never all pass on the same spend.
   * `createSessions` reserves each model call's estimated input before the call and settles it with
   * {@link SessionStore.settleSpend} after.
   */
  reserveSpend(
    owner: string,
    period: string,
    amount: Spend,
    limits: SpendLimits | null,
    expiresAt: number,
  ): Promise<SpendReservation>;
  /**
   * Settles a reservation made with {@link SessionStore.reserveSpend}: replaces `reserved` by
   * `used` (what the call really used; zeros release it), atomically, and returns the new total.
   * The total never goes below zero.
   */
  settleSpend(owner: string, period: string, reserved: Spend, used: Spend, expiresAt: number): Promise<Spend>;
  /** Closes connections the store opened itself. */
  close(): Promise<void>;
}

/** Another turn holds the session, and waiting (`onBusy: 'wait'`, up to `busyTimeout`) did not help, or `onBusy` is `'reject'`. */
export class SessionBusyError extends Error {
  override name = 'SessionBusyError';
  constructor(
    readonly sessionId: string,
    message = `Session "${sessionId}" is busy: another turn is running. Wait for it to finish, or raise busyTimeout.`,
  ) {
    super(message);
  }
}

/**
 * A commit was fenced out: another process took the session over (its lease expired) and wrote
 * first, or the session was deleted (and maybe created again) while the turn ran.
 */
export class SessionConflictError extends Error {
  override name = 'SessionConflictError';
  constructor(
    readonly sessionId: string,
    /** Why, e.g. `it was deleted`. */
    readonly detail: string,
  ) {
    super(`Session "${sessionId}" changed under this turn (${detail}); the turn stopped without writing. Send again.`);
  }
}

/** No such session (or it belongs to another owner). */
export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError';
  constructor(readonly sessionId: string) {
    super(`No session "${sessionId}".`);
  }
}

/** What a value that is not a string is, in words (`an object`, `a number`, `null`), for errors. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'undefined';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Session ids: 1 to 200 printable characters, well-formed: no control or format characters, and no
 * lone surrogate (half of a character such as an emoji), which a store would turn into U+FFFD so
 * that two ids could name one chat.
 */
export function checkSessionId(id: unknown): string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 200 || /[\p{Cc}\p{Cf}\p{Cs}]/u.test(id)) {
    // Quoted at most in part: an id is request input, and may be 10 KB (or not a string at all).
    const given =
      typeof id === 'string' ? JSON.stringify(id.length > 80 ? `${cut(id, 80)}…` : id) : `(${describeValue(id)})`;
    throw new Error(
      `Invalid session id ${given}: use 1 to 200 printable characters (e.g. a user or conversation id), with no control characters and no lone surrogates (half of an emoji).`,
    );
  }
  return id;
}

/**
 * A commit's epoch (see {@link Commit.epoch}): a non-empty string of at most 100 characters. Every
 * store checks it, so a caller that forgot it gets this error instead of a chat nobody can write.
 */
export function checkEpoch(epoch: unknown): string {
  if (typeof epoch !== 'string' || epoch.length === 0 || epoch.length > 100) {
    throw new Error(
      `Invalid commit epoch ${JSON.stringify(epoch)}: a commit carries the epoch of the record it read, or a new random one (crypto.randomUUID()) when it creates the session.`,
    );
  }
  return epoch;
}

/**
 * Where a window of `window` messages starts, given the transcript length and the positions of
 * its user messages (ascending): the rule every store applies to load a tail.
 */
export function tailStart(length: number, userIndices: readonly number[], window: number): number {
  const earliest = Math.max(0, length - Math.max(1, window));
  for (const index of userIndices) if (index >= earliest) return index;
  return userIndices.length > 0 ? userIndices[userIndices.length - 1] : earliest;
}

/**
 * The snapshot `restoreSession` takes, from what a store loaded: the window's tail and the state
 * record. One mapping, for `createSessions` and for anyone who drives a store by hand (the CLI).
 */
export function snapshotFromStore(loaded: LoadedSession): SessionSnapshot {
  const { state } = loaded;
  const snapshot: SessionSnapshot = {
    version: 2,
    transcript: loaded.messages,
    transcriptStart: loaded.start,
    loadedSkills: state.loadedSkills,
    stores: state.stores,
  };
  if (state.pendingContextChanges) snapshot.pendingContextChanges = state.pendingContextChanges;
  if (state.lastCallNumber !== undefined) snapshot.lastCallNumber = state.lastCallNumber;
  if (state.usage) snapshot.usage = state.usage;
  if (state.fileBytes !== undefined) snapshot.fileBytes = state.fileBytes;
  if (state.window) snapshot.windowStart = state.window.start;
  if (state.lifecycle) snapshot.lifecycle = state.lifecycle;
  if (state.sent) snapshot.sent = state.sent;
  if (state.waiting) snapshot.waiting = state.waiting;
  if (state.subagentRuns) snapshot.subagentRuns = state.subagentRuns;
  return snapshot;
}

/** The state record a commit writes, from a snapshot (its messages go to `append`). */
export function storedState(snapshot: SessionSnapshot, window?: StoredState['window']): StoredState {
  const stored: StoredState = { loadedSkills: snapshot.loadedSkills, stores: snapshot.stores };
  if (snapshot.pendingContextChanges) stored.pendingContextChanges = snapshot.pendingContextChanges;
  if (snapshot.lastCallNumber) stored.lastCallNumber = snapshot.lastCallNumber;
  if (snapshot.usage) stored.usage = snapshot.usage;
  if (snapshot.fileBytes) stored.fileBytes = snapshot.fileBytes;
  if (window) stored.window = window;
  if (snapshot.lifecycle) stored.lifecycle = snapshot.lifecycle;
  if (snapshot.sent) stored.sent = snapshot.sent;
  if (snapshot.waiting?.length) stored.waiting = snapshot.waiting;
  if (snapshot.subagentRuns?.length) stored.subagentRuns = snapshot.subagentRuns;
  return stored;
}
