/**
 * Creating the session, resuming it from `--session <name>`, and saving it after each turn, in the
 * store `--store` names (any backend `@skilltree/store` takes; default {@link DEFAULT_STORE}), in the
 * same format `createSessions` uses.
 */
import type { Session, SessionOptions, SessionStore } from '@skilltree/core';
import {
  readStoredMessages,
  snapshotFromStore,
  storedState,
  type UnreadableRecord,
  unreadableText,
} from '@skilltree/core/provider';
import { CliError, errorMessage } from './errors.js';
import type { AgentModule } from './load-module.js';
import { count } from './print.js';

/** Where `--session` keeps sessions when `--store` is not given (relative to the working directory). */
export const DEFAULT_STORE = 'sqlite:.skilltree/sessions.db';

/** How to build sessions for one CLI invocation. */
export interface SessionSetup {
  agent: AgentModule;
  options: SessionOptions;
  /** `--session <name>`: the session's id in the store, if any. */
  session?: string;
  /** The open store that keeps it (with `--session`). */
  store?: SessionStore;
}

/** A window that holds any transcript, and that every backend takes (Postgres counts in int4). */
const WHOLE_TRANSCRIPT = 2 ** 31 - 1;

/** What the store has of a session this process holds: the version it read and the messages it has. */
const saved = new WeakMap<Session, { version: number; epoch: string; committed: number }>();

function mount(setup: SessionSetup): Session {
  try {
    return setup.agent.core.createSession(setup.agent.element(), setup.options);
  } catch (error) {
    throw new CliError(`The agent failed to mount: ${errorMessage(error)}`);
  }
}

/** What `chat` and `run` say on stderr when `--session` resumed a stored session. */
export function resumedLine(session: Session, name: string): string {
  const loaded = session.loadedSkills.join(', ') || 'none';
  return `Resumed ${count(session.transcript.length, 'message')} from ${name} (loaded: ${loaded}).`;
}

/** An opened session: whether it was resumed, and the stored records that could not be read. */
export interface OpenedSession {
  session: Session;
  resumed: boolean;
  /**
   * The stored messages that could not be read (written by hand, by a broken tool), each naming the
   * chat and its index; each stands in the transcript as a placeholder, so the chat stays usable.
   */
  unreadable: UnreadableRecord[];
}

/** What `chat` and `run` say on stderr for each stored record that could not be read. */
export function unreadableLines(opened: Pick<OpenedSession, 'unreadable'>): string[] {
  return opened.unreadable.map((record) => `Warning: ${unreadableText(record)}`);
}

/**
 * Opens the session: resumed from the store when `--session` names one it has, fresh otherwise.
 * `resumed` tells which, so the caller can say so. `fresh` starts over (for `/reset`): the stored
 * session is deleted. A stored message that cannot be read does not refuse the chat: core's
 * `readStoredMessages` puts a placeholder in its place (the record is left as it is), and
 * `unreadable` names it, as `createSessions` does.
 */
export async function openSession(setup: SessionSetup, fresh = false): Promise<OpenedSession> {
  const { agent, options, session: id, store } = setup;
  if (id === undefined || store === undefined) return { session: mount(setup), resumed: false, unreadable: [] };
  const path = store.name;
  let loaded: Awaited<ReturnType<SessionStore['load']>>;
  try {
    if (fresh) await store.delete(id);
    // The whole transcript: the CLI shows it (/transcript, --json), not only the window.
    loaded = fresh ? null : await store.load(id, WHOLE_TRANSCRIPT);
  } catch (error) {
    throw new CliError(`Could not read session "${id}" from ${path}: ${errorMessage(error)}`);
  }
  if (!loaded) {
    const session = mount(setup);
    saved.set(session, { version: 0, epoch: crypto.randomUUID(), committed: 0 });
    return { session, resumed: false, unreadable: [] };
  }
  // A bad record (hand-edited, or written by a broken tool) stands as a placeholder: the chat goes on.
  const { messages, problems } = readStoredMessages(loaded.messages, loaded.start, id);
  try {
    const session = agent.core.restoreSession(agent.element(), snapshotFromStore({ ...loaded, messages }), options);
    saved.set(session, { version: loaded.version, epoch: loaded.epoch, committed: loaded.length });
    return { session, resumed: true, unreadable: problems };
  } catch (error) {
    throw new CliError(`Could not resume session "${id}" from ${path}: ${errorMessage(error)}`);
  }
}

/**
 * Commits what the session has that the store has not: the new messages and the state (loaded
 * skills, stores). Fails when another process wrote the session since this one loaded it.
 */
export async function saveSession(session: Session, setup: SessionSetup): Promise<void> {
  const { session: id, store } = setup;
  const at = saved.get(session);
  if (id === undefined || store === undefined || !at) return;
  const path = store.name;
  const holder = `skilltree-cli:${process.pid}:${Math.random().toString(36).slice(2)}`;
  try {
    if (!(await store.acquire(id, holder, 30_000))) {
      throw new CliError(`Session "${id}" is busy in another process; its last turn here was not saved.`);
    }
    const snapshot = session.snapshot({ since: at.committed });
    const version = await store.commit(id, {
      holder,
      version: at.version,
      epoch: at.epoch,
      append: snapshot.transcript,
      state: storedState(snapshot),
      owner: null,
      leaseTtl: 30_000,
    });
    saved.set(session, { version, epoch: at.epoch, committed: at.committed + snapshot.transcript.length });
  } catch (error) {
    if (error instanceof CliError) throw error;
    const changed = (error as Error)?.name === 'SessionConflictError';
    throw new CliError(
      changed
        ? `Session "${id}" changed in another process since this one loaded it; this turn was not saved. Run the command again to continue from the saved session.`
        : `Could not save session "${id}" to ${path}: ${errorMessage(error)}`,
    );
  } finally {
    await store.release(id, holder).catch(() => {});
  }
}
