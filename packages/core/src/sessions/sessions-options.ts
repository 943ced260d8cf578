/**
 * The options `createSessions` takes: the model, the store, how a busy chat answers, the lease, the
 * cache and the engine — beside every option of one session.
 */
import type { TurnEngine } from '../types/engine.js';
import type { Model } from '../types/model.js';
import type { SessionOptions } from '../types/options.js';
import type { SessionCacheOptions } from './cache.js';
import type { SessionStore } from './session-store.js';

/** Options of {@link createSessions}: a store, what to do when a session is busy, and every session option. */
export interface SessionsOptions extends Omit<SessionOptions, 'model'> {
  /**
   * The model every session calls, or a function of the chat id (and its owner) that returns one.
   * The function is called each time a process mounts a chat's session (its first turn there, or
   * after the cache let it go), so a model with its own state (a scripted demo) gives each
   * conversation its own copy.
   */
  model?: Model | ((id: string, owner: string | undefined) => Model);
  /** Where sessions live. Default: `memoryStore()` (lost when the process exits). */
  store?: SessionStore;
  /** A second turn on a busy session waits for the first (`'wait'`, default) or fails at once (`'reject'`). */
  onBusy?: 'wait' | 'reject';
  /** Milliseconds a turn waits for a busy session before `SessionBusyError`. Default 30 000. */
  busyTimeout?: number;
  /**
   * Milliseconds a turn's lease lasts without renewal (it is renewed every third of it while the turn
   * runs); a process that dies frees its chats after at most this. Default 6 000: after a crash, the
   * next message on the chat is answered within about 6 seconds.
   */
  leaseTtl?: number;
  /** Sessions kept mounted in this process between turns (their `useState` survives while cached). Default 100. */
  cacheSize?: number;
  /**
   * A durable-execution engine (`dbosEngine(…)` from `@skilltree/durable/dbos`, or your own
   * `TurnEngine` from `@skilltree/core/provider`): each turn runs as a workflow of it, each model call and tool
   * run a recorded step, so a turn whose process dies is finished by another process (the model is
   * not asked again for a recorded call; a tool gets `ctx.idempotencyKey`). Without one, a crash
   * leaves the call in flight interrupted (§8, §17). docs/durable.md says what is recorded.
   */
  engine?: TurnEngine;
  /** The session cache bounded by count and by memory: `{ maxChats, maxBytes }` (`maxChats` wins over `cacheSize`). */
  cache?: SessionCacheOptions;
}
