/**
 * `createSessions`: many conversations on a `SessionStore`, served by any number of processes. A
 * turn takes the chat's lease, loads its small record and the window's tail (never the whole
 * transcript), runs, and commits every message as it happens, fenced by incarnation (epoch),
 * version and lease. The parts are named modules: where a chat is kept (`sessions-key`), its lease
 * (`sessions-lease`), the sessions kept mounted (`sessions-cache`) and the running turns
 * (`sessions-turns`).
 */
import type { ReactNode } from 'react';
import { abortable } from './loop.js';
import { memoryStore } from './memory-store.js';
import { createSession, restoreSession, type Session, stateOf } from './session.js';
import {
  SessionConflictError,
  SessionNotFoundError,
  type SessionRecord,
  type SessionStore,
  snapshotFromStore,
  storedState,
} from './session-store.js';
import { type Mounted, MountedCache, matches } from './sessions-cache.js';
import { chatKey, checkOwner } from './sessions-key.js';
import { keepLease, type LeasePolicy, takeLease } from './sessions-lease.js';
import { type RunningTurn, RunningTurns } from './sessions-turns.js';
import { currentWindow } from './state.js';
import { forgetBefore, transcriptLength } from './transcript.js';
import type { Message, SendOptions, SessionEvent, SessionOptions, ToolMessage, Turn, Usage } from './types.js';

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
   * Who is sending. Chats are namespaced by owner: the same id names another chat for each owner
   * (and one more for no owner), so a sender always reaches their own chat (new and empty the
   * first time), can never reach or claim another's, and never learns whether another owner used
   * the id. Without an owner, the turn is on the chat of that id that has no owner.
   */
  owner?: string;
}

/** Options of the reading methods. */
export interface SessionReadOptions {
  /**
   * Whose chat to read or delete (see {@link SessionTurnOptions.owner}): with an owner, only that
   * owner's chat of that id; without one, only the chat of that id that has no owner.
   */
  owner?: string;
}

/** Options of `sessions.close()`. */
export interface SessionsCloseOptions {
  /**
   * Milliseconds the running turns get to finish by themselves. Then they are stopped: each
   * records its calls in flight as interrupted, commits, and gives its lease up, and `close()`
   * waits for that before it closes the store. Default 5 000.
   */
  timeout?: number;
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
  /** Loads the session (or starts it), runs one turn, and commits it. Fails once `close()` was called. */
  send(id: string, text: string, options?: SessionTurnOptions): Promise<Turn>;
  /** The same turn as an async iterable of its events. Leaving it early aborts the turn; what happened is committed. */
  stream(id: string, text: string, options?: SessionTurnOptions): AsyncIterable<SessionEvent>;
  /** The session as JSON data, or null when there is none. */
  get(id: string, options?: SessionReadOptions): Promise<SessionInfo | null>;
  /** A page of the transcript: up to `limit` (default 50, at most 1 000) messages from index `from` (default 0). */
  messages(id: string, page?: { from?: number; limit?: number } & SessionReadOptions): Promise<Message[]>;
  /**
   * Deletes the session: its record, messages and lease at once. A turn still running on it, here
   * or in another process, stops without writing anything more. True when there was one.
   */
  delete(id: string, options?: SessionReadOptions): Promise<boolean>;
  /**
   * Stops taking turns (new ones fail), lets the running ones finish for `timeout` ms, stops the
   * rest and waits until each has committed what it did and released its lease, disposes the
   * mounted sessions, then closes the store. Calling it again returns the same promise.
   */
  close(options?: SessionsCloseOptions): Promise<void>;
  /** The store in use. */
  readonly store: SessionStore;
}

type Cached = Mounted<Session>;

let turns = 0;

/** The error a turn ends with when its chat was deleted (or taken over) while it ran. */
const fencedError = (id: string) =>
  new SessionConflictError(id, 'the chat was deleted or taken over while this turn ran');

/** A store error names the store key; the caller knows the chat by its id. */
function named(error: unknown, key: string, id: string): unknown {
  if (key !== id && error instanceof SessionConflictError && error.sessionId === key) {
    return new SessionConflictError(id, error.detail);
  }
  return error;
}

/**
 * What the stream says of a call that ran but whose result the commit after it did not save: its
 * own result when a later commit saved it after all, else that the result could not be saved (the
 * store's error is the turn's; its text may name servers, so it stays out of the result).
 */
function unsavedResult(message: ToolMessage, saved: boolean): SessionEvent {
  if (saved) return { type: 'tool-result', message };
  const content =
    `Tool "${message.name}" ran, but its result could not be saved. ` +
    'It may have taken effect; check before calling it again.';
  return { type: 'tool-result', message: { ...message, content, isError: true } };
}

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
  const sessionOptions: SessionOptions = { ...options };
  for (const key of ['store', 'onBusy', 'busyTimeout', 'leaseTtl', 'cacheSize'] as const) {
    delete (sessionOptions as Record<string, unknown>)[key];
  }
  const policy: LeasePolicy = { onBusy, busyTimeout, leaseTtl };
  const element = (id: string) => (typeof agent === 'function' ? (agent as (id: string) => ReactNode)(id) : agent);
  const cache = new MountedCache<Session>(cacheSize);
  const running = new RunningTurns();
  let closing: Promise<void> | null = null;

  /**
   * The store key of the chat `owner` means by `id`, and its record. A chat this owner created
   * before chats were namespaced by owner is kept under its bare id, and stays theirs.
   */
  async function locate(id: string, owner: string | undefined): Promise<{ key: string; record: SessionRecord | null }> {
    const key = await chatKey(id, owner);
    const record = await store.record(key);
    if (record || key === id) return { key, record };
    const legacy = await store.record(id);
    return legacy && legacy.owner === owner ? { key: id, record: legacy } : { key, record: null };
  }

  /** The chat `owner` may read or delete, or null: with an owner only theirs, without one only unowned ones. */
  async function find(id: string, owner: unknown): Promise<{ key: string; record: SessionRecord } | null> {
    const checked = checkOwner(owner);
    const { key, record } = await locate(id, checked);
    return record && record.owner === (checked ?? null) ? { key, record } : null;
  }

  /** The session for a turn: the cached one when it is the store's incarnation and version, else restored from the store. */
  async function open(key: string, id: string, owner: string | undefined): Promise<Cached> {
    const record = await store.record(key);
    if (record && record.owner !== (owner ?? null)) throw new SessionNotFoundError(id);
    const cached = cache.take(key);
    if (cached && record && matches(cached, record)) return cached;
    cached?.session.dispose();
    if (!record) {
      const session = createSession(element(id), sessionOptions);
      return { session, epoch: crypto.randomUUID(), version: 0, committed: 0 };
    }
    const window = Math.max(record.state.window?.max ?? 0, sessionOptions.maxTranscriptMessages ?? 60);
    const loaded = await store.load(key, window);
    if (!loaded) throw new SessionNotFoundError(id);
    const session = restoreSession(element(id), snapshotFromStore(loaded), sessionOptions);
    return { session, epoch: loaded.epoch, version: loaded.version, committed: loaded.length };
  }

  /** Writes what the session has that the store has not: new messages and the state. */
  async function commit(key: string, id: string, holder: string, entry: Cached, owner: string | undefined) {
    const state = stateOf(entry.session);
    const length = transcriptLength(state.transcript);
    const from = entry.committed - state.transcript.start;
    const snapshot = entry.session.snapshot({ since: transcriptLength(state.transcript) });
    const max = entry.session.config.maxTranscriptMessages;
    const window = currentWindow(state);
    const stored = storedState(snapshot, { start: window.start, size: window.messages.length, max });
    try {
      entry.version = await store.commit(key, {
        holder,
        version: entry.version,
        epoch: entry.epoch,
        append: state.transcript.messages.slice(from),
        state: stored,
        owner: entry.version === 0 ? (owner ?? null) : undefined,
        leaseTtl,
      });
    } catch (error) {
      throw named(error, key, id);
    }
    entry.committed = length;
  }

  async function* turn(
    id: string,
    text: string,
    opts: SessionTurnOptions,
    signal: AbortSignal,
    self: { it?: AsyncGenerator<SessionEvent, Turn> },
  ): AsyncGenerator<SessionEvent, Turn> {
    if (closing) {
      throw new Error(
        'These sessions are closed (sessions.close() was called): create them again with createSessions().',
      );
    }
    const owner = checkOwner(opts.owner);
    // The turn's own signal: the caller's, a close() that stops it, or a delete that fences it.
    const stop = new AbortController();
    const follow = () => stop.abort(signal.reason);
    if (signal.aborted) follow();
    else signal.addEventListener('abort', follow, { once: true });
    let fenced: Error | null = null;
    let ended = () => {};
    // True while the turn waits at a `yield` for its consumer to pull the next event.
    let parked = false;
    const me: RunningTurn = {
      key: null,
      stop(reason) {
        stop.abort(reason);
        // A consumer that stopped pulling leaves the turn parked, where no abort reaches it: end it there.
        if (parked) void self.it?.return(undefined as never).catch(() => {});
      },
      fence(error) {
        fenced ??= error;
        stop.abort(error);
      },
      done: new Promise<void>((resolve) => (ended = resolve)),
    };
    running.add(me);
    try {
      const { key } = await locate(id, owner);
      const holder = `${globalThis.process?.pid ?? 0}:${++turns}:${Math.random().toString(36).slice(2)}`;
      await takeLease(store, key, id, holder, policy, stop.signal);
      me.key = key;
      const stopRenewing = keepLease(store, key, holder, leaseTtl, () => me.fence(fencedError(id)));
      let entry: Cached | null = null;
      let finished = false;
      /**
       * Commits what is left (nothing once fenced), keeps the session warm, gives the lease up.
       * Returns whether the commit landed; throws only a commit error of a turn that succeeded.
       */
      const finish = async (failure: unknown): Promise<boolean> => {
        finished = true;
        stopRenewing();
        try {
          if (entry && !fenced && !(failure !== null && entry.version === 0 && entry.committed === 0)) {
            await commit(key, id, holder, entry, owner);
            const state = stateOf(entry.session);
            forgetBefore(state.transcript, currentWindow(state).start);
            cache.put(key, entry);
            return true;
          }
          // Fenced, or a new session whose first turn failed before anything was written: nothing to keep.
          entry?.session.dispose();
        } catch (error) {
          entry?.session.dispose();
          if (failure === null) throw error;
        } finally {
          await store.release(key, holder).catch(() => {});
        }
        return false;
      };
      try {
        let failure: unknown = null;
        let result: Turn | undefined;
        // A tool result the commit after it did not save: the call ran, the store does not know.
        let unsaved: ToolMessage | null = null;
        try {
          entry = await open(key, id, owner);
          const current = entry;
          // Results a process that died mid-turn left unanswered were answered on restore: write them first.
          if (transcriptLength(stateOf(current.session).transcript) > current.committed) {
            await commit(key, id, holder, current, owner);
          }
          for await (const event of current.session.stream(text, { signal: stop.signal })) {
            // Each message is durable before the turn goes on: a crash loses at most the step in flight.
            if (event.type === 'message') {
              if (fenced) throw fenced;
              try {
                await commit(key, id, holder, current, owner);
              } catch (error) {
                if (event.message.role === 'tool') unsaved = event.message;
                throw error;
              }
            }
            if (event.type === 'finish') result = event.turn;
            parked = true;
            yield event;
            parked = false;
          }
          if (!result) throw new Error('The turn ended without a reply.');
        } catch (error) {
          // A commit refused by the store means the chat moved on without this turn: write nothing more.
          if (error instanceof SessionConflictError) fenced ??= error;
          failure = error;
        }
        if (fenced) failure = fenced;
        const saved = await finish(failure);
        if (unsaved) yield unsavedResult(unsaved, saved);
        if (failure !== null) throw failure;
        return result as Turn;
      } finally {
        // Left early (the consumer stopped iterating): the aborted turn's messages are still written.
        if (!finished) await finish(new Error('left early')).catch(() => {});
      }
    } finally {
      signal.removeEventListener('abort', follow);
      ended();
    }
  }

  /** One turn as an iterator, known to `close()` so that it can be stopped even while its consumer is not pulling. */
  function start(id: string, text: string, opts: SessionTurnOptions, stopOnReturn: boolean) {
    const self: { it?: AsyncGenerator<SessionEvent, Turn> } = {};
    self.it = abortable((signal) => turn(id, text, opts, signal, self), opts.signal, stopOnReturn);
    return self.it;
  }

  return {
    store,
    async send(id, text, opts = {}) {
      const it = start(id, text, opts, false);
      for (;;) {
        const next = await it.next();
        if (next.done) return next.value;
      }
    },
    stream(id, text, opts = {}) {
      return { [Symbol.asyncIterator]: () => start(id, text, opts, true) };
    },
    async get(id, opts = {}) {
      const found = await find(id, opts.owner);
      if (!found) return null;
      const { record } = found;
      return {
        id,
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
      const found = await find(id, page.owner);
      if (!found) return [];
      const from = Math.max(0, Math.floor(page.from ?? 0));
      const limit = Math.min(1_000, Math.max(0, Math.floor(page.limit ?? 50)));
      return store.messages(found.key, from, limit);
    },
    async delete(id, opts = {}) {
      const found = await find(id, opts.owner);
      if (!found) return false;
      cache.forget(found.key);
      // A turn of this process on the chat stops now; one elsewhere when its lease renewal fails.
      running.fence(found.key, fencedError(id));
      return store.delete(found.key);
    },
    close(opts = {}) {
      closing ??= (async () => {
        const timeout = opts.timeout ?? 5_000;
        await running.drain(
          Number.isNaN(timeout) ? 0 : timeout,
          new Error(
            'Interrupted: the sessions were closed (sessions.close()) while this turn ran; what it did is saved.',
          ),
        );
        cache.close();
        await store.close();
      })();
      return closing;
    },
  };
}
