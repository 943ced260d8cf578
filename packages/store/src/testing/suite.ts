/** What each topic of the conformance suite is given: the store's options and the suite's shared handles. */
import type { Message, SessionStore, Sessions, SessionsOptions } from '@skilltree/core';
import type { Commit } from '@skilltree/core/provider';

/** What {@link sessionStoreConformance} needs to know about the store under test. */
export interface ConformanceOptions {
  /**
   * Opens a handle on the store under test. The suite calls it several times and treats each
   * handle as another process: every handle must see the same sessions (for a database, open a
   * new connection or pool on it; for an in-memory store, return the same instance). The suite
   * closes every handle it opened.
   */
  open: () => SessionStore | Promise<SessionStore>;
  /** Sessions the "many sessions" test creates. Default 1 000. */
  sessions?: number;
  /**
   * Milliseconds each test may take. Default 30 000: the lease, stall and multi-process tests wait
   * out real lease expiries, longer than vitest's 5 s default, so a project's default config works.
   */
  timeout?: number;
}

/**
 * The handles every topic of {@link ConformanceOptions | the suite} shares. `a`, `b` and `c` are three
 * handles on the store, each standing for another process; they are open from the suite's
 * `beforeAll` on, so read them inside a test, never while registering one.
 */
export interface Suite {
  /** The options the suite was registered with. */
  readonly options: ConformanceOptions;
  /** This run's prefix for chat ids, so runs over one database never meet. */
  readonly run: string;
  /** A chat id no other test of this run uses, with `label` in it to read in a failure. */
  newId(label: string): string;
  /** Opens another handle on the store (another process); the suite closes it at the end. */
  open(): Promise<SessionStore>;
  /** The first process's handle. */
  readonly a: SessionStore;
  /** The second process's handle. */
  readonly b: SessionStore;
  /** The third process's handle. */
  readonly c: SessionStore;
  /** Commits to `id` on `store` as `holder`, with defaults for every field `partial` leaves out. */
  commit(store: SessionStore, id: string, partial: Partial<Commit> & { holder: string }): Promise<number>;
  /** Creates a session with `messages` (in one commit) and returns its version. */
  seed(id: string, messages: Message[], store?: SessionStore): Promise<number>;
  /** The counter agent's sessions over `store`, with the fixture's model unless `extra` says otherwise. */
  sessions(store: SessionStore, extra?: SessionsOptions): Sessions;
}
