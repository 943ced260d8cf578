/**
 * `createSessions`: many conversations on a `SessionStore`, served by any number of processes. A
 * turn takes the chat's lease, loads its small record and the window's tail (never the whole
 * transcript), runs, and commits every message as it happens, fenced by incarnation (epoch),
 * version and lease. This file is the facade; the parts are named modules: one turn
 * (`sessions-turn`), where a chat is kept (`sessions-key`), its lease (`sessions-lease`), the
 * sessions kept mounted (`sessions-cache`), the turns running here (`sessions-running`) and how a
 * stop reaches a turn in any process (`stop`).
 */

import type { ReactNode } from 'react';
import { checkedFileParts } from '../files/files.js';
import { resolveFileLimits } from '../files/limits.js';
import { checkBudget } from '../observe/budget-options.js';
import { abortable } from '../turn/loop.js';
import { denyArguments, splitBinding } from '../turn/waiting.js';
import type { FileLimits, Message } from '../types/messages.js';
import type { Usage } from '../types/model.js';
import type { Budget, SendOptions, SessionOptions } from '../types/options.js';
import type { AnswerBinding, SessionEvent, ToolAnswer, Turn, WaitingCall } from '../types/session.js';
import type { SubagentRun } from '../types/subagents.js';
import { MountedCache } from './cache.js';
import { chatCacheLimits } from './cache-size.js';
import { resolveChat } from './chat.js';
import type { ChatSession } from './chat-session.js';
import { chatTurn, fencedError, type TurnContext } from './chat-turn.js';
import { durableTurns } from './durable-turn.js';
import { incarnationOf } from './key.js';
import { UnreleasedLeases } from './lease.js';
import { memoryStore } from './memory-store.js';
import { RunningTurns } from './running.js';
import { parseRuns } from './runs-parse.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import type { SessionsOptions } from './sessions-options.js';
import { stoppedError } from './stop.js';
import { readStoredMessage, type UnreadableRecord } from './stored-messages.js';

export type { SessionsOptions } from './sessions-options.js';

/** Options of one turn. */
export interface SessionTurnOptions extends SendOptions {
  /**
   * Who is sending. Chats are namespaced by owner: the same id names another chat for each owner
   * (and one more for no owner), so a sender always reaches their own chat (new and empty the
   * first time), can never reach or claim another's, and never learns whether another owner used
   * the id. Without an owner, the turn is on the chat of that id that has no owner.
   */
  owner?: string;
  /** This turn's budget instead of the sessions' `budget` (e.g. a server's budget for this owner's plan). */
  budget?: Budget;
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
   * waits for that before it closes the store. On a durable engine they are handed over instead
   * (see `Sessions.close`). Default 5 000.
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
  /**
   * This incarnation of the chat: it changes when the chat is deleted and started again under its
   * id. Each waiting call carries it too; an answer that names it (see `AnswerBinding`) never
   * reaches another incarnation's calls.
   */
  incarnation: string;
  /**
   * Calls waiting for approval or for the client's result (answer them with `approve`, `deny`,
   * `answer`, passing the call's `input` and `incarnation` so the answer lands only on the call shown).
   */
  waiting: WaitingCall[];
  /**
   * The turn running now, in any process, as its commits say: the index of its first message. Null
   * when none runs, or when the process running it stopped writing for more than twice `leaseTtl`
   * (it died; the next turn takes over).
   */
  running: { from: number } | null;
  createdAt: number;
  updatedAt: number;
}

/** Many sessions on one store. */
export interface Sessions {
  /** Loads the session (or starts it), runs one turn, and commits it. Fails once `close()` was called. */
  send(id: string, text: string, options?: SessionTurnOptions): Promise<Turn>;
  /** The same turn as an async iterable of its events. Leaving it early aborts the turn; what happened is committed. */
  stream(id: string, text: string, options?: SessionTurnOptions): AsyncIterable<SessionEvent>;
  /**
   * Answers calls of the chat that wait (approval, or a client tool's result) and goes on with the
   * turn, under the chat's lease like `send`: any process may answer, a call runs at most once, with
   * the input the model gave. Throws a `ToolAnswerError` (nothing runs) for a call that does not
   * wait, was answered already (by another tab, another worker) or gets the wrong kind of answer.
   */
  answer(id: string, answers: readonly ToolAnswer[], options?: SessionTurnOptions): Promise<Turn>;
  /** {@link Sessions.answer} as an async iterable of the turn's events. */
  answerStream(id: string, answers: readonly ToolAnswer[], options?: SessionTurnOptions): AsyncIterable<SessionEvent>;
  /**
   * Approves a waiting call (see {@link Sessions.answer}). With `input` and `incarnation` (those of
   * the waiting call shown to the person), it is refused unless the call still waits with them.
   */
  approve(id: string, toolCallId: string, options?: SessionTurnOptions & AnswerBinding): Promise<Turn>;
  /**
   * Denies a waiting call; the model reads the denial and `reason` (see {@link Sessions.answer}, and
   * `approve` for the binding). The same shape as `Session.deny`: the reason as a string, then the
   * options (`deny(id, callId, 'too much', { owner })`), or inside them (`{ reason, owner }`); a
   * reason that is not a string is a TypeError.
   */
  deny(
    id: string,
    toolCallId: string,
    reason?: string | (SessionTurnOptions & AnswerBinding & { reason?: string }),
    options?: SessionTurnOptions & AnswerBinding,
  ): Promise<Turn>;
  /** The session as JSON data, or null when there is none. */
  get(id: string, options?: SessionReadOptions): Promise<SessionInfo | null>;
  /**
   * A page of the transcript: up to `limit` (default 50, at most 1 000) messages from index `from`
   * (default 0). A stored record that cannot be read (edited by hand) is a placeholder in its place
   * whose text names the chat and the index (`unreadableRecord` from `@skilltree/core/provider` says
   * what is wrong); the chat's turns go on, each reporting it as a `warning` event.
   */
  messages(id: string, page?: { from?: number; limit?: number } & SessionReadOptions): Promise<Message[]>;
  /** The chat's subagent runs, oldest first (SPEC §19); none for a chat that does not exist or is another owner's. */
  subagentRuns(id: string, options?: SessionReadOptions): Promise<SubagentRun[]>;
  /**
   * Stops the chat's running turn, wherever it runs: at once when it runs in this process, else
   * through the store (the turn reads the request within about a quarter of a second). The turn
   * ends as an aborted one: the call in flight reads as interrupted, and what it did is committed.
   * A turn that waits for the chat behind it (`onBusy: 'wait'`) is not stopped: it runs next. True
   * when a running turn was asked to stop; false when none runs (or the chat is another owner's).
   */
  stop(id: string, options?: SessionReadOptions): Promise<boolean>;
  /**
   * Deletes the session: its record, messages and lease at once. A turn still running on it, here
   * or in another process, stops without writing anything more. True when there was one.
   */
  delete(id: string, options?: SessionReadOptions): Promise<boolean>;
  /**
   * Stops taking turns (new ones fail), lets the running ones finish for `timeout` ms, stops the
   * rest and waits until each has committed what it did and released its lease, disposes the
   * mounted sessions, then closes the store. Calling it again returns the same promise. On a
   * durable engine (`engine`), the rest are handed over instead of stopped: they record and commit
   * nothing more here, give their leases up, and another process recovers and finishes them (their
   * callers here get a `TurnHandedOverError`); a user's `stop` still stops a turn.
   */
  close(options?: SessionsCloseOptions): Promise<void>;
  /** The store in use. */
  readonly store: SessionStore;
  /**
   * The file limits every turn is checked against: the `files` option with its defaults filled in.
   * A server reads them to size what it accepts (`@skilltree/server` derives its body limit from
   * them), so the two cannot drift apart.
   */
  readonly fileLimits: Readonly<Required<FileLimits>>;
}

/**
 * Serves many sessions from one store. `agent` is the element every session renders, or a function
 * of the chat id and its owner that returns it (called when a process mounts the chat's session).
 * Inside, `useChatInfo()` and a tool's `ctx.chat` give the same id and owner.
 *
 * @example
 * const sessions = createSessions(<ShopAgent />, { store: sqliteStore({ path: './sessions.db' }), model });
 * const turn = await sessions.send('user-42', 'I need a lamp');
 */
export function createSessions(
  agent: ReactNode | ((id: string, owner: string | undefined) => ReactNode),
  options: SessionsOptions = {},
): Sessions {
  const { store = memoryStore(), onBusy = 'wait', busyTimeout = 30_000, leaseTtl = 6_000 } = options;
  checkBudget(options.budget);
  if (typeof store.renew !== 'function') {
    throw new Error(
      `createSessions: the store ${store.name ?? ''} has no renew(id, holder, ttl), which a running turn needs to keep its lease. Update the store to the SessionStore of this @skilltree/core.`,
    );
  }
  if (typeof store.requestStop !== 'function' || typeof store.stopRequested !== 'function') {
    throw new Error(
      `createSessions: the store ${store.name ?? ''} has no requestStop(id) and stopRequested(id, holder), which a stop of a turn in another process goes through. Update the store to the SessionStore of this @skilltree/core.`,
    );
  }
  const sessionOptions = { ...options } as SessionOptions;
  for (const key of ['store', 'onBusy', 'busyTimeout', 'leaseTtl', 'cacheSize', 'cache', 'engine'] as const) {
    delete (sessionOptions as Record<string, unknown>)[key];
  }
  const { model } = options;
  if (typeof model === 'function') delete sessionOptions.model;
  const fileLimits = resolveFileLimits(sessionOptions.files);
  const cache = new MountedCache<ChatSession>(chatCacheLimits(options));
  const running = new RunningTurns();
  const ctx: TurnContext = {
    store,
    cache,
    running,
    policy: { onBusy, busyTimeout, leaseTtl },
    unreleased: new UnreleasedLeases(store),
    element: (id, owner) =>
      typeof agent === 'function' ? (agent as (id: string, owner: string | undefined) => ReactNode)(id, owner) : agent,
    sessionOptions,
    optionsFor: (id, owner) =>
      typeof model === 'function' ? { ...sessionOptions, model: model(id, owner) } : sessionOptions,
  };
  let closing: Promise<void> | null = null;
  const durable = options.engine ? durableTurns(ctx, options.engine) : null;

  /** The chat `owner` may read or delete, or null: with an owner only theirs, without one only unowned ones. */
  async function find(id: string, owner: unknown): Promise<{ key: string; record: SessionRecord } | null> {
    const chat = await resolveChat(store, id, owner);
    return chat.record ? { key: chat.key, record: chat.record } : null;
  }

  /** One turn as an iterator, known to `close()` so that it can be stopped even while its consumer is not pulling. */
  function start(id: string, text: string | readonly ToolAnswer[], opts: SessionTurnOptions, stopOnReturn: boolean) {
    const self: { it?: AsyncGenerator<SessionEvent, Turn> } = {};
    self.it = abortable(
      async function* (signal) {
        if (closing) {
          throw new Error(
            'These sessions are closed (sessions.close() was called): create them again with createSessions().',
          );
        }
        checkBudget(opts.budget);
        // Files are checked before the chat is touched, once: the turn gets the checked parts and adds
        // only the chat's total, which needs the chat.
        const checked = opts.files?.length ? { ...opts, files: checkedFileParts(opts.files, fileLimits) } : opts;
        if (durable) return yield* durable.turn({ id, owner: opts.owner }, text, signal, checked);
        return yield* chatTurn(ctx, await resolveChat(store, id, opts.owner), text, signal, self, checked);
      },
      opts.signal,
      stopOnReturn,
    );
    return self.it;
  }

  return {
    store,
    fileLimits,
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
    async answer(id, answers, opts = {}) {
      checkAnswerList(answers);
      const it = start(id, answers, opts, false);
      for (;;) {
        const next = await it.next();
        if (next.done) return next.value;
      }
    },
    answerStream(id, answers, opts = {}) {
      checkAnswerList(answers);
      return { [Symbol.asyncIterator]: () => start(id, answers, opts, true) };
    },
    approve(id, toolCallId, opts = {}) {
      const [binding, rest] = splitBinding(opts);
      return this.answer(id, [{ toolCallId, type: 'approve', ...binding }], rest);
    },
    async deny(id, toolCallId, reasonOrOptions, options) {
      const { reason, options: opts } = denyArguments<SessionTurnOptions & AnswerBinding>(reasonOrOptions, options);
      const [binding, rest] = splitBinding(opts);
      return this.answer(
        id,
        [{ toolCallId, type: 'deny', ...(reason === undefined ? {} : { reason }), ...binding }],
        rest,
      );
    },
    async get(id, opts = {}) {
      const found = await find(id, opts.owner);
      if (!found) return null;
      const { record } = found;
      const incarnation = incarnationOf(String(record.epoch));
      return {
        id,
        owner: record.owner,
        incarnation,
        version: record.version,
        transcriptLength: record.length,
        loadedSkills: record.state.loadedSkills,
        stores: record.state.stores,
        window: record.state.window ?? null,
        usage: record.state.usage ?? null,
        waiting: (record.state.waiting ?? []).filter((w) => w.status === 'waiting').map((w) => ({ ...w, incarnation })),
        running:
          record.state.turn && Date.now() - record.updatedAt <= 2 * leaseTtl ? { from: record.state.turn.from } : null,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
      };
    },
    async messages(id, page = {}) {
      const found = await find(id, page.owner);
      if (!found) return [];
      const from = Math.max(0, Math.floor(page.from ?? 0));
      const limit = Math.min(1_000, Math.max(0, Math.floor(page.limit ?? 50)));
      // Records written before messages had parts are read upgraded, as a restore reads them.
      // A record that cannot be read stands as a placeholder naming the chat and its index.
      const problems: UnreadableRecord[] = [];
      const stored = await store.messages(found.key, from, limit);
      return stored.map((message, i) => readStoredMessage(message, from + i, id, problems));
    },
    async subagentRuns(id, opts = {}) {
      const found = await find(id, opts.owner);
      return found ? parseRuns(found.record.state.subagentRuns) : [];
    },
    async stop(id, opts = {}) {
      const chat = await resolveChat(store, id, opts.owner);
      // A record under the key that is not the caller's (a legacy chat of another owner): not theirs to stop.
      if (!chat.record && (await store.record(chat.key))) return false;
      // Here, at once; else the store carries it to the process whose turn holds the lease.
      if (running.stop(chat.key, stoppedError(id))) return true;
      return store.requestStop(chat.key);
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
        // On an engine, the turns still running are handed over to another process, not stopped.
        const stopped = durable
          ? new Error('Handed over: the sessions were closed (sessions.close()) while this turn ran.')
          : new Error(
              'Interrupted: the sessions were closed (sessions.close()) while this turn ran; what it did is saved.',
            );
        await running.drain(Number.isNaN(timeout) ? 0 : timeout, stopped, durable?.handOver);
        cache.close();
        await ctx.unreleased.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** Answers must be a non-empty list (checked before the chat is touched; the session checks each). */
function checkAnswerList(answers: readonly ToolAnswer[]): void {
  if (!Array.isArray(answers) || answers.length === 0) {
    throw new TypeError('Pass at least one answer: { toolCallId, type: "approve" | "deny" | "result" }.');
  }
}
