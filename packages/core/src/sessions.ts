/**
 * `createSessions`: many conversations on a `SessionStore`, served by any number of processes. A
 * turn takes the session's lease, loads its small record and the window's tail (never the whole
 * transcript), runs, and commits every message as it happens, fenced by version and lease.
 */
import type { ReactNode } from 'react';
import { checkBudget, type SpendLedger, setTurnBudget } from './budget.js';
import { abortable } from './loop.js';
import { memoryStore } from './memory-store.js';
import { createSession, restoreSession, type Session, stateOf } from './session.js';
import {
  checkSessionId,
  SessionBusyError,
  SessionNotFoundError,
  type SessionRecord,
  type SessionStore,
  snapshotFromStore,
  storedState,
} from './session-store.js';
import { currentWindow } from './state.js';
import { identifySession } from './telemetry.js';
import { forgetBefore, transcriptLength } from './transcript.js';
import type { Budget, Message, SendOptions, SessionEvent, SessionOptions, Turn, Usage } from './types.js';

/** Options of {@link createSessions}: a store, what to do when a session is busy, and every session option. */
export interface SessionsOptions extends SessionOptions {
  /** Where sessions live. Default: `memoryStore()` (lost when the process exits). */
  store?: SessionStore;
  /** A second turn on a busy session waits for the first (`'wait'`, default) or fails at once (`'reject'`). */
  onBusy?: 'wait' | 'reject';
  /** Milliseconds a turn waits for a busy session before `SessionBusyError`. Default 30 000. */
  busyTimeout?: number;
  /** Milliseconds a turn's lease lasts without renewal; a process that dies frees its sessions after this. Default 30 000. */
  leaseTtl?: number;
  /** Sessions kept mounted in this process between turns (their `useState` survives while cached). Default 100. */
  cacheSize?: number;
}

/** Options of one turn. */
export interface SessionTurnOptions extends SendOptions {
  /**
   * Who is sending. A new session belongs to its first sender; a session that belongs to someone
   * else is, for this sender, a session that does not exist (`SessionNotFoundError`).
   */
  owner?: string;
  /** This turn's budget instead of the sessions' `budget` (e.g. a server's budget for this owner's plan). */
  budget?: Budget;
}

/** Options of the reading methods. */
export interface SessionReadOptions {
  /** Only the owner's sessions are visible (see {@link SessionTurnOptions.owner}). */
  owner?: string;
}

/** What `sessions.get(id)` returns: JSON data. */
export interface SessionInfo {
  id: string;
  owner: string | null;
  version: number;
  /** Messages in the whole transcript. */
  transcriptLength: number;
  loadedSkills: string[];
  stores: Record<string, unknown>;
  /** The window the last request carried. */
  window: { start: number; size: number; max: number } | null;
  usage: Usage | null;
  createdAt: number;
  updatedAt: number;
}

/** Many sessions on one store. */
export interface Sessions {
  /** Loads the session (or starts it), runs one turn, and commits it. */
  send(id: string, text: string, options?: SessionTurnOptions): Promise<Turn>;
  /** The same turn as an async iterable of its events. Leaving it early aborts the turn; what happened is committed. */
  stream(id: string, text: string, options?: SessionTurnOptions): AsyncIterable<SessionEvent>;
  /** The session as JSON data, or null when there is none. */
  get(id: string, options?: SessionReadOptions): Promise<SessionInfo | null>;
  /** A page of the transcript: up to `limit` (default 50, at most 1 000) messages from index `from` (default 0). */
  messages(id: string, page?: { from?: number; limit?: number } & SessionReadOptions): Promise<Message[]>;
  /** Deletes the session. True when there was one. */
  delete(id: string, options?: SessionReadOptions): Promise<boolean>;
  /** Disposes the mounted sessions and closes the store. */
  close(): Promise<void>;
  /** The store in use. */
  readonly store: SessionStore;
}

interface Cached {
  session: Session;
  version: number;
  /** Messages of the transcript the store has. */
  committed: number;
}

let turns = 0;

/**
 * Serves many sessions from one store. `agent` is the element every session renders, or a function
 * of the session id that returns it.
 *
 * @example
 * const sessions = createSessions(<ShopAgent />, { store: sqliteStore({ path: './sessions.db' }), model });
 * const turn = await sessions.send('user-42', 'I need a lamp');
 */
export function createSessions(
  agent: ReactNode | ((id: string) => ReactNode),
  options: SessionsOptions = {},
): Sessions {
  const { store = memoryStore(), onBusy = 'wait', busyTimeout = 30_000, leaseTtl = 30_000, cacheSize = 100 } = options;
  checkBudget(options.budget);
  const sessionOptions: SessionOptions = { ...options };
  for (const key of ['store', 'onBusy', 'busyTimeout', 'leaseTtl', 'cacheSize'] as const) {
    delete (sessionOptions as Record<string, unknown>)[key];
  }
  const element = (id: string) => (typeof agent === 'function' ? (agent as (id: string) => ReactNode)(id) : agent);
  const cache = new Map<string, Cached>();
  let closed = false;

  const forget = (id: string) => {
    cache.get(id)?.session.dispose();
    cache.delete(id);
  };
  /** Puts a session back after its turn (the newest last). The oldest beyond `cacheSize` are disposed. */
  const remember = (id: string, entry: Cached) => {
    if (closed) return entry.session.dispose();
    const other = cache.get(id);
    if (other && other !== entry) other.session.dispose();
    cache.delete(id);
    cache.set(id, entry);
    while (cache.size > cacheSize) {
      const oldest = cache.keys().next().value as string;
      forget(oldest);
    }
  };

  async function lease(id: string, holder: string, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + busyTimeout;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      if (await store.acquire(id, holder, leaseTtl)) return;
      if (onBusy === 'reject') throw new SessionBusyError(id);
      if (Date.now() + wait > deadline) {
        throw new SessionBusyError(
          id,
          `Session "${id}" stayed busy for ${busyTimeout} ms (busyTimeout): another turn is still running.`,
        );
      }
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The session for a turn: the cached one when the store has not moved since, else restored from the store. */
  async function open(id: string, owner: string | undefined): Promise<{ entry: Cached; record: SessionRecord | null }> {
    const record = await store.record(id);
    if (record && owner !== undefined && record.owner !== owner) throw new SessionNotFoundError(id);
    // A turn takes its session out of the cache, so evicting other sessions never disposes it mid-turn.
    const cached = cache.get(id);
    cache.delete(id);
    if (cached && record && cached.version === record.version) return { entry: cached, record };
    cached?.session.dispose();
    if (!record)
      return { entry: { session: createSession(element(id), sessionOptions), version: 0, committed: 0 }, record };
    const window = Math.max(record.state.window?.max ?? 0, sessionOptions.maxTranscriptMessages ?? 60);
    const loaded = await store.load(id, window);
    if (!loaded) throw new SessionNotFoundError(id);
    const session = restoreSession(element(id), snapshotFromStore(loaded), sessionOptions);
    return { entry: { session, version: loaded.version, committed: loaded.length }, record: loaded };
  }

  /** Writes what the session has that the store has not: new messages and the state. */
  async function commit(id: string, holder: string, entry: Cached, owner: string | undefined): Promise<void> {
    const state = stateOf(entry.session);
    const length = transcriptLength(state.transcript);
    const from = entry.committed - state.transcript.start;
    const snapshot = entry.session.snapshot({ since: transcriptLength(state.transcript) });
    const max = entry.session.config.maxTranscriptMessages;
    const window = currentWindow(state);
    const stored = storedState(snapshot, { start: window.start, size: window.messages.length, max });
    entry.version = await store.commit(id, {
      holder,
      version: entry.version,
      append: state.transcript.messages.slice(from),
      state: stored,
      owner: entry.version === 0 ? (owner ?? null) : undefined,
      leaseTtl,
    });
    entry.committed = length;
  }

  /** An owner's spend, kept in the store (so per-owner budgets hold across processes). */
  const ledger = (owner: string): SpendLedger => ({
    owner,
    spent: (period) => store.spent(owner, period),
    charge: (period, spend, expiresAt) => store.addSpend(owner, period, spend, expiresAt),
  });

  async function* turn(
    id: string,
    text: string,
    opts: SessionTurnOptions,
    signal: AbortSignal,
  ): AsyncGenerator<SessionEvent, Turn> {
    if (closed) throw new Error('These sessions are closed: create them again with createSessions().');
    checkSessionId(id);
    checkBudget(opts.budget);
    const holder = `${globalThis.process?.pid ?? 0}:${++turns}:${Math.random().toString(36).slice(2)}`;
    await lease(id, holder, signal);
    const renew = setInterval(
      () => void store.acquire(id, holder, leaseTtl).catch(() => {}),
      Math.max(50, leaseTtl / 3),
    );
    let entry: Cached | null = null;
    let finished = false;
    /** Commits what is left, keeps the session warm, gives the lease up. Throws only a commit error of a turn that succeeded. */
    const finish = async (failure: unknown) => {
      finished = true;
      clearInterval(renew);
      try {
        if (entry && !(failure !== null && entry.version === 0 && entry.committed === 0)) {
          await commit(id, holder, entry, opts.owner);
          const state = stateOf(entry.session);
          forgetBefore(state.transcript, currentWindow(state).start);
          remember(id, entry);
        } else {
          // A new session whose first turn failed before anything was written: nothing to keep.
          entry?.session.dispose();
        }
      } catch (error) {
        entry?.session.dispose();
        if (failure === null) throw error;
      } finally {
        await store.release(id, holder).catch(() => {});
      }
    };
    try {
      let failure: unknown = null;
      let result: Turn | undefined;
      try {
        const opened = await open(id, opts.owner);
        entry = opened.entry;
        const current = entry;
        const owner = opened.record?.owner ?? opts.owner;
        identifySession(stateOf(current.session), id, owner);
        setTurnBudget(stateOf(current.session), opts.budget, owner ? ledger(owner) : null);
        // Results a process that died mid-turn left unanswered were answered on restore: write them first.
        if (transcriptLength(stateOf(current.session).transcript) > current.committed) {
          await commit(id, holder, current, opts.owner);
        }
        for await (const event of current.session.stream(text, { signal, traceContext: opts.traceContext })) {
          // Each message is durable before the turn goes on: a crash loses at most the step in flight.
          if (event.type === 'message') await commit(id, holder, current, opts.owner);
          if (event.type === 'finish') result = event.turn;
          yield event;
        }
        if (!result) throw new Error('The turn ended without a reply.');
      } catch (error) {
        failure = error;
      }
      await finish(failure);
      if (failure !== null) throw failure;
      return result as Turn;
    } finally {
      // Left early (the consumer stopped iterating): the aborted turn's messages are still written.
      if (!finished) await finish(new Error('left early')).catch(() => {});
    }
  }

  const owned = async (id: string, owner: string | undefined): Promise<SessionRecord | null> => {
    checkSessionId(id);
    const record = await store.record(id);
    if (!record || (owner !== undefined && record.owner !== owner)) return null;
    return record;
  };

  return {
    store,
    async send(id, text, opts = {}) {
      const it = abortable((signal) => turn(id, text, opts, signal), opts.signal, false);
      for (;;) {
        const next = await it.next();
        if (next.done) return next.value;
      }
    },
    stream(id, text, opts = {}) {
      return { [Symbol.asyncIterator]: () => abortable((signal) => turn(id, text, opts, signal), opts.signal, true) };
    },
    async get(id, opts = {}) {
      const record = await owned(id, opts.owner);
      if (!record) return null;
      return {
        id: record.id,
        owner: record.owner,
        version: record.version,
        transcriptLength: record.length,
        loadedSkills: record.state.loadedSkills,
        stores: record.state.stores,
        window: record.state.window ?? null,
        usage: record.state.usage ?? null,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
      };
    },
    async messages(id, page = {}) {
      if (!(await owned(id, page.owner))) return [];
      const from = Math.max(0, Math.floor(page.from ?? 0));
      const limit = Math.min(1_000, Math.max(0, Math.floor(page.limit ?? 50)));
      return store.messages(id, from, limit);
    },
    async delete(id, opts = {}) {
      if (!(await owned(id, opts.owner))) return false;
      forget(id);
      return store.delete(id);
    },
    async close() {
      closed = true;
      for (const id of [...cache.keys()]) forget(id);
      await store.close();
    },
  };
}
