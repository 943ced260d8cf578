/**
 * One turn of `createSessions` on one chat: take the chat's lease (and keep it), open its session
 * (the mounted one when it is still the store's incarnation and version, else restored from the
 * store), run the turn committing every message as it happens, then commit the rest and give the
 * lease up. The turn is known to the running turns, so a `close()` or a `stop` here stops it and a
 * `delete` fences it; a lost lease fences it too, and a stop asked through the store stops it.
 */

import type { ReactNode } from 'react';
import type { SpendLedger } from '../observe/budget.js';
import { type StoreTurnTrace, startStoreTurn } from '../observe/telemetry-store.js';
import { textPart } from '../parts/message-parts.js';
import { abortable, type TurnScope } from '../turn/loop.js';
import type { ToolMessage } from '../types/messages.js';
import type { Budget, SendOptions, SessionOptions } from '../types/options.js';
import type { SessionEvent, ToolAnswer, Turn } from '../types/session.js';
import { type Mounted, type MountedCache, matches } from './cache.js';
import { ownedBy, type ResolvedChat } from './chat.js';
import { type ChatSession, chatSession } from './chat-session.js';
import { ownerKey } from './key.js';
import { keepLease, type LeasePolicy, takeLease, type UnreleasedLeases } from './lease.js';
import type { RunningTurn, RunningTurns } from './running.js';
import {
  SessionConflictError,
  SessionNotFoundError,
  type SessionStore,
  type StoredState,
  snapshotFromStore,
} from './session-store.js';
import { stoppedError, watchStop } from './stop.js';
import { readStoredMessages, type UnreadableRecord, unreadableText } from './stored-messages.js';

/** What the turns of one `createSessions` share. */
export interface TurnContext {
  store: SessionStore;
  cache: MountedCache<ChatSession>;
  running: RunningTurns;
  policy: LeasePolicy;
  /** Leases of turns that ended while the store failed, given back once it answers again. */
  unreleased: UnreleasedLeases;
  /** The element a chat's session renders. */
  element(id: string, owner: string | undefined): ReactNode;
  sessionOptions: SessionOptions;
  /** The options a chat's session is mounted with: `sessionOptions`, with the chat's own model when there is one per chat. */
  optionsFor(id: string, owner: string | undefined): SessionOptions;
  /** On a durable engine: how a turn opens its session and charges its owner (see `durable-turn.ts`). */
  durable?: DurableTurnHooks;
}

/** What a durable engine changes in a chat's turn: the session opened as recorded, the owner's spend charged as steps. */
export interface DurableTurnHooks {
  /**
   * Opens the turn's session: live (`live`, recorded) on the first run, from the record on recovery.
   * `trace` is the turn's trace: the record keeps its span's ids, and a recovered turn links to them.
   */
  open(chat: ResolvedChat, live: () => Promise<Opened>, trace?: StoreTurnTrace): Promise<Opened>;
  /** The owner's spend, each read and charge a recorded step. */
  ledger(spend: SpendLedger): SpendLedger;
  /** Adds what the engine keeps with each commit's state (the turn's durable wait, see `durable-wait.ts`). */
  state?(stored: StoredState): void;
  /** The holder of the chat's lease `key` when this process holds it for this turn already (a recovery's hold). */
  heldLease?(key: string): string | undefined;
}

/** A turn's session as `open` found it. */
export interface Opened {
  entry: Cached;
  source: Source;
  unreadable?: UnreadableRecord[];
}

type Cached = Mounted<ChatSession>;

let turns = 0;

/** The error a turn ends with when its chat was deleted (or taken over) while it ran. */
export const fencedError = (id: string) =>
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
  return {
    type: 'tool-result',
    message: { ...message, content: [textPart(content)], isError: true, errorKind: 'unsaved' },
  };
}

/** Where a turn's session came from: made new, kept mounted in this process, or restored from the store. */
type Source = 'new' | 'cache' | 'store';

/** The session for a turn: the cached one when it is the store's incarnation and version, else restored from the store. */
async function open(ctx: TurnContext, chat: ResolvedChat): Promise<Opened> {
  const { store, cache, sessionOptions } = ctx;
  const { id, owner, key } = chat;
  // Read again now that the turn holds the lease: the chat may have moved on (or been deleted and
  // started again by someone else) while it waited.
  const record = await store.record(key);
  if (record && !ownedBy(record, owner)) throw new SessionNotFoundError(id);
  const cached = cache.take(key);
  if (cached && record && matches(cached, record)) return { entry: cached, source: 'cache' };
  cached?.session.dispose();
  // The chat as the caller names it (never the store key), for useChatInfo() and ctx.chat.
  const named = { id, owner };
  if (!record) {
    // A new incarnation of the chat: its epoch fences it, and its session's call ids carry it.
    const epoch = crypto.randomUUID();
    const session = chatSession(ctx.element(id, owner), ctx.optionsFor(id, owner), named, epoch);
    return { entry: { session, epoch, version: 0, committed: 0 }, source: 'new' };
  }
  const window = Math.max(record.state.window?.max ?? 0, sessionOptions.maxTranscriptMessages ?? 60);
  const loaded = await store.load(key, window);
  if (!loaded) throw new SessionNotFoundError(id);
  // A record that cannot be read (written by hand) stands as a placeholder: the chat goes on.
  const { messages, problems } = readStoredMessages(loaded.messages, loaded.start, id);
  const snapshot = snapshotFromStore({ ...loaded, messages });
  const session = chatSession(ctx.element(id, owner), ctx.optionsFor(id, owner), named, loaded.epoch, snapshot);
  for (const problem of problems) session.session.warn(unreadableText(problem), 'store');
  return {
    entry: { session, epoch: loaded.epoch, version: loaded.version, committed: loaded.length },
    source: 'store',
    ...(problems.length > 0 ? { unreadable: problems } : {}),
  };
}

/** Writes what the session has that the store has not: new messages and the state. Returns how many messages it appended. */
async function commit(
  ctx: TurnContext,
  key: string,
  id: string,
  holder: string,
  entry: Cached,
  owner: string | undefined,
): Promise<number> {
  const length = entry.session.length();
  // A recovered turn writes nothing until it has replayed what the store has; then only what is new.
  if (entry.replayTo !== undefined) {
    if (length < entry.replayTo) return 0;
    entry.committed = entry.replayTo;
    entry.replayTo = undefined;
  }
  const { append, state: stored } = entry.session.unsaved(entry.committed);
  if (entry.running !== undefined) stored.turn = { from: entry.running };
  ctx.durable?.state?.(stored);
  try {
    entry.version = await ctx.store.commit(key, {
      holder,
      version: entry.version,
      epoch: entry.epoch,
      append,
      state: stored,
      owner: entry.version === 0 ? (owner ?? null) : undefined,
      leaseTtl: ctx.policy.leaseTtl,
    });
  } catch (error) {
    throw named(error, key, id);
  }
  const appended = length - entry.committed;
  entry.committed = length;
  return appended;
}

/**
 * An owner's spend, kept in the store (so per-owner budgets hold across processes) under the
 * owner's key, the digest its chats' keys start with: any owner, of any length, fits a key.
 */
async function ledger(store: SessionStore, owner: string): Promise<SpendLedger> {
  const key = await ownerKey(owner);
  if (typeof store.reserveSpend !== 'function' || typeof store.settleSpend !== 'function') {
    throw new Error(
      `A per-owner budget needs a store with reserveSpend and settleSpend (an atomic check and reserve), and ${store.name ?? 'this store'} has none. Update the store to the SessionStore of this @skilltree/core.`,
    );
  }
  return {
    owner,
    spent: (period) => store.spent(key, period),
    reserve: (period, amount, limits, expiresAt) => store.reserveSpend(key, period, amount, limits, expiresAt),
    settle: (period, reserved, used, expiresAt) => store.settleSpend(key, period, reserved, used, expiresAt),
  };
}

/**
 * Runs one turn on `chat` (resolved once for the request). `signal` is the caller's; `self.it` is
 * the iterator the consumer pulls, which a `close()` ends when the consumer stopped pulling. `extra`
 * carries the turn's trace parent and budget.
 */
export async function* chatTurn(
  ctx: TurnContext,
  chat: ResolvedChat,
  input: string | readonly ToolAnswer[],
  signal: AbortSignal,
  self: { it?: AsyncGenerator<SessionEvent, Turn> },
  extra: { traceContext?: unknown; budget?: Budget; files?: SendOptions['files'] } = {},
): AsyncGenerator<SessionEvent, Turn> {
  const { store, cache, running, policy } = ctx;
  const { id, owner, key } = chat;
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
  // The turn's span opens before the lease: the wait, the load and the commits are spans of the turn.
  let trace: StoreTurnTrace | undefined;
  let thrown: unknown;
  try {
    trace = await startStoreTurn(ctx.sessionOptions, id, owner, extra.traceContext);
    const steps = trace;
    // A turn moved here by a recovery takes over the lease its engine held for it (see durable-turn.ts).
    const holder =
      ctx.durable?.heldLease?.(key) ??
      `${globalThis.process?.pid ?? 0}:${++turns}:${Math.random().toString(36).slice(2)}`;
    // A turn of this process that failed with the store left its lease: it holds nothing any more.
    await ctx.unreleased.settle(key);
    await steps.step(
      'wait_lease',
      () => takeLease(store, key, id, holder, policy, stop.signal),
      (attempts) => ({ 'skilltree.lease.attempts': attempts }),
    );
    const save = (entry: Cached) =>
      steps.step(
        'commit_session',
        () => commit(ctx, key, id, holder, entry, owner),
        (appended) => ({ 'skilltree.store.messages_appended': appended, 'skilltree.session.version': entry.version }),
      );
    me.key = key;
    const stopRenewing = keepLease(store, key, holder, policy.leaseTtl, () => me.fence(fencedError(id)));
    // A stop asked in another process reaches this turn through the store (`sessions.stop`).
    const stopWatching = watchStop(store, key, holder, () => me.stop(stoppedError(id)));
    let entry: Cached | null = null;
    let finished = false;
    /**
     * Commits what is left (nothing once fenced), keeps the session warm, gives the lease up.
     * Returns whether the commit landed; throws only a commit error of a turn that succeeded.
     */
    const finish = async (failure: unknown): Promise<boolean> => {
      finished = true;
      stopRenewing();
      stopWatching();
      // The last commit of the turn says it is over.
      if (entry) entry.running = undefined;
      try {
        // A recovered turn that stopped before it replayed what the store has: the store is ahead of it.
        const behind = entry?.replayTo !== undefined && entry.session.length() < entry.replayTo;
        if (entry && !fenced && !behind && !(failure !== null && entry.version === 0 && entry.committed === 0)) {
          await save(entry);
          // What the next request may still send stays: the window, and an append-only prefix.
          entry.session.forget();
          cache.put(key, entry);
          return true;
        }
        // Fenced, or a new session whose first turn failed before anything was written: nothing to keep.
        entry?.session.dispose();
      } catch (error) {
        entry?.session.dispose();
        if (failure === null) throw error;
      } finally {
        // When the store fails now, the lease is given back as soon as it answers again.
        await ctx.unreleased.release(key, holder, policy.leaseTtl);
      }
      return false;
    };
    try {
      let failure: unknown = null;
      let result: Turn | undefined;
      // A tool result the commit after it did not save: the call ran, the store does not know.
      let unsaved: ToolMessage | null = null;
      try {
        const opened = await steps.step(
          'load_session',
          () => (ctx.durable ? ctx.durable.open(chat, () => open(ctx, chat), steps) : open(ctx, chat)),
          (found) => ({
            'skilltree.session.source': found.source,
            'skilltree.session.version': found.entry.version,
            'skilltree.transcript.length': found.entry.committed,
          }),
        );
        entry = opened.entry;
        const current = entry;
        // Each unreadable record is reported with the turn that found it, by chat and index.
        for (const problem of opened.unreadable ?? []) {
          yield { type: 'warning', message: unreadableText(problem), source: 'store' };
        }
        // Results a process that died mid-turn left unanswered were answered on restore: write them first.
        if (current.session.length() > current.committed) {
          await save(current);
        }
        current.running = current.session.length();
        current.session.identify(id, owner);
        const budget = extra.budget ?? current.session.budget;
        // The owner '' is an owner like any other: only no owner at all has no per-owner budget.
        let spend = owner !== undefined && budget?.perOwner ? await ledger(store, owner) : null;
        if (spend && ctx.durable) spend = ctx.durable.ledger(spend);
        const sendOptions = {
          signal: stop.signal,
          traceContext: extra.traceContext,
          ...(extra.files ? { files: extra.files } : {}),
        };
        // The session's own turn (as `stream` runs it), given this turn's budget, spend and span.
        const scope: TurnScope = {
          ...(extra.budget ? { budget: extra.budget } : {}),
          ledger: spend,
          ...(steps.span ? { span: steps.span } : {}),
        };
        const events = abortable(
          (inner) => current.session.turn(input, inner, sendOptions, scope),
          sendOptions.signal,
          true,
        );
        for await (const event of events) {
          // Each message is durable before the turn goes on: a crash loses at most the step in flight.
          // So is what waits: an approved call is committed as running before its tool runs (at most once).
          if (event.type === 'message' || event.type === 'waiting') {
            if (fenced) throw fenced;
            try {
              await save(current);
            } catch (error) {
              if (event.type === 'message' && event.message.role === 'tool') unsaved = event.message;
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
  } catch (error) {
    thrown = error;
    throw error;
  } finally {
    trace?.end(thrown);
    signal.removeEventListener('abort', follow);
    ended();
  }
}
