/**
 * `@skilltree/store/testing`: the conformance suite every `SessionStore` passes, for vitest. Run it
 * on your own store to check it keeps the contract `createSessions` relies on.
 *
 * @packageDocumentation
 * @example
 * // sessions-store.test.ts
 * import { memoryStore } from '@skilltree/core';
 * import { sessionStoreConformance } from '@skilltree/store/testing';
 * const store = memoryStore();
 * sessionStoreConformance('memoryStore', { open: () => store });
 */
import {
  Agent,
  createAgentStore,
  createSessions,
  type Message,
  type ModelRequest,
  memoryStore,
  SessionBusyError,
  SessionConflictError,
  type SessionStore,
  type Sessions,
  type SessionsOptions,
  Skill,
  Text,
  Tool,
  textOf,
  useAgentStore,
} from '@skilltree/core';
import {
  type Commit,
  estimateTokens,
  fromBase64,
  lifecycleProblems,
  ownerKey,
  parseMessage,
  periodOf,
  type StoredState,
  tailStart,
  textContent,
} from '@skilltree/core/provider';
import { createElement as h } from 'react';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  bumpModel,
  cameraAgent,
  counterAgent,
  hooks,
  lastUserText,
  opaque,
  PNG,
  reasoningParts,
  thinkingModel,
} from './fixture.js';

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
 * Problems with a transcript, or an empty list when it is valid: every tool result answers a call
 * of the assistant message before it, no call is left without its result when the next user or
 * assistant message comes, and tool-call ids are unique.
 */
export function checkTranscript(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let open = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!open.delete(m.toolCallId)) problems.push(`#${i}: result for ${m.toolCallId}, which no open call made`);
      return;
    }
    if (open.size > 0) problems.push(`#${i}: ${m.role} message while ${[...open].join(', ')} had no result`);
    open = new Set();
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) {
        if (seen.has(call.id)) problems.push(`#${i}: tool call id ${call.id} used twice`);
        seen.add(call.id);
        open.add(call.id);
      }
    }
  });
  if (open.size > 0) problems.push(`the last calls (${[...open].join(', ')}) have no result`);
  return problems;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The methods of a `SessionStore`, for the wrappers below. */
const METHODS = [
  'record',
  'load',
  'messages',
  'acquire',
  'renew',
  'release',
  'commit',
  'delete',
  'spent',
  'addSpend',
  'reserveSpend',
  'settleSpend',
  'close',
] as const;

/** How long a lease of {@link simulatedProcess} lasts in the store, whatever the turn asks: far past any test. */
const HELD = 600_000;

/**
 * A handle that can die (every call fails from then on) or stall (calls wait until it resumes),
 * like a process. Its leases last {@link HELD} in the store whatever TTL its turns ask for (they
 * still renew on their own schedule), so a machine too busy to renew in time never lets one lapse
 * by accident: a test lets a lease lapse with `expire`, as the passing of its TTL would. It
 * remembers each chat's holder, and reports every renewal's answer to `onRenew`.
 */
function simulatedProcess(store: SessionStore) {
  let dead = false;
  let stalled: Promise<void> | null = null;
  let resume = () => {};
  const holders = new Map<string, string>();
  const events: { onRenew?: (id: string, held: boolean) => void } = {};
  const direct = (key: (typeof METHODS)[number], args: unknown[]) =>
    (store[key] as (...a: unknown[]) => Promise<unknown>).apply(store, args);
  const wrapped = {} as SessionStore;
  for (const key of METHODS) {
    (wrapped as unknown as Record<string, unknown>)[key] = async (...args: unknown[]) => {
      if (stalled) await stalled;
      if (dead) throw new Error('this process died');
      if (key === 'acquire') {
        const [id, holder] = args as [string, string];
        const held = (await store.acquire(id, holder, HELD)) as boolean;
        if (held) holders.set(id, holder);
        return held;
      }
      if (key === 'renew') {
        const [id, holder] = args as [string, string];
        const held = await store.renew(id, holder, HELD);
        events.onRenew?.(id, held);
        return held;
      }
      if (key === 'commit') return store.commit(args[0] as string, { ...(args[1] as Commit), leaseTtl: HELD });
      return direct(key, args);
    };
  }
  Object.defineProperty(wrapped, 'name', { value: store.name });
  return {
    store: wrapped,
    events,
    kill: () => {
      dead = true;
    },
    stall: () => {
      stalled = new Promise((r) => (resume = r));
    },
    resume: () => {
      stalled = null;
      resume();
    },
    /** Lets this process's lease on `id` lapse now, as its TTL running out would (a free lease stays free). */
    async expire(id: string) {
      const holder = holders.get(id);
      if (holder !== undefined) await store.renew(id, holder, 1);
      await sleep(5);
    },
  };
}

/** `store` with `acquire` reporting each answer to `onAcquire`. */
function watchAcquires(store: SessionStore, onAcquire: (held: boolean) => void): SessionStore {
  const wrapped = {} as SessionStore;
  for (const key of METHODS) {
    (wrapped as unknown as Record<string, unknown>)[key] = (...args: unknown[]) =>
      (store[key] as (...a: unknown[]) => Promise<unknown>).apply(store, args);
  }
  wrapped.acquire = async (...args) => {
    const held = await store.acquire(...args);
    onAcquire(held);
    return held;
  };
  Object.defineProperty(wrapped, 'name', { value: store.name });
  return wrapped;
}

/**
 * Runs `attempt` with a lease TTL of `ttl` ms, doubled each time `attempt` says the machine was
 * slower than the TTL (it returns `'late'`: a step that had to come before the lease expired came
 * after). A busy machine gets a longer TTL instead of a failed test; an idle one runs once.
 */
async function withTtl(ttl: number, attempt: (ttl: number) => Promise<'late' | undefined>): Promise<void> {
  for (let tries = 0; tries < 8; tries++, ttl *= 2) if ((await attempt(ttl)) !== 'late') return;
  throw new Error(`the machine stayed slower than a lease of ${ttl / 2} ms in 8 tries`);
}

const state = (stores: Record<string, unknown> = {}): StoredState => ({ loadedSkills: [], stores });

/** A user message of one text part, as core records one. */
const user = (text: string): Message => ({ role: 'user', content: textContent(text) });
/** An assistant message of one text part (none for empty text). */
const reply = (text: string): Message => ({ role: 'assistant', content: textContent(text) });

/** A deferred: a promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Sends to chat `id` (through `sessions`) until its record reaches `version`: a `say` turn adds
 * three versions (the user message, the reply, the closing commit), a failed turn two.
 */
async function reachVersion(sessions: Sessions, store: SessionStore, id: string, version: number): Promise<void> {
  for (let i = 0; ; i++) {
    const left = version - ((await store.record(id))?.version ?? 0);
    if (left === 0) return;
    if (left < 2) throw new Error(`chat ${id} cannot reach version ${version} exactly`);
    if (left % 3 === 0) await sessions.send(id, `say new ${i}`);
    else await sessions.send(id, `fail ${i}`).catch(() => {});
  }
}

/**
 * Registers the conformance suite in a vitest `describe` block: round trips (reasoning and file
 * parts byte for byte, and a turn in another process sending them as the writing one would have),
 * records written before messages had parts read upgraded, paging, the window's tail, leases and fencing, deletion and the incarnations of a chat, concurrent sends from several
 * processes, a crash mid-turn, schema evolution of the agent, and 1 000 sessions. Every rule is a
 * test named after it.
 */
export function sessionStoreConformance(name: string, options: ConformanceOptions): void {
  describe(`SessionStore conformance: ${name}`, { timeout: options.timeout ?? 30_000 }, () => {
    const run = `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    let n = 0;
    const newId = (label: string) => `${run}-${label}-${++n}`;
    const opened: SessionStore[] = [];
    const open = async () => {
      const store = await options.open();
      opened.push(store);
      return store;
    };
    let a!: SessionStore;
    let b!: SessionStore;
    let c!: SessionStore;
    const commit = (store: SessionStore, id: string, partial: Partial<Commit> & { holder: string }) =>
      store.commit(id, { version: 0, epoch: 'e', append: [], state: state(), leaseTtl: 5_000, ...partial });
    /** Creates a session with `messages` (in one commit) and returns its version. */
    const seed = async (id: string, messages: Message[], store = a) => {
      expect(await store.acquire(id, 'seed', 5_000)).toBe(true);
      const version = await commit(store, id, { holder: 'seed', append: messages });
      await store.release(id, 'seed');
      return version;
    };
    const sessions = (store: SessionStore, extra: SessionsOptions = {}) =>
      createSessions(counterAgent(), { store, model: bumpModel(), ...extra });

    beforeAll(async () => {
      a = await open();
      b = await open();
      c = await open();
    });
    afterAll(async () => {
      hooks.onBump = undefined;
      for (const store of opened) await store.close().catch(() => {});
    });

    test('round trip: a committed session comes back exactly (record, load, messages), from any process', async () => {
      const id = newId('round-trip');
      const messages: Message[] = [
        user('Ünïcödé, emoji 🦊, quotes " and \\ and a\nnew line'),
        {
          role: 'assistant',
          content: [],
          toolCalls: [
            { id: 'call_1', name: 'look_up', input: { zeta: 1, alpha: { b: [1, 2, { y: null, x: true }] } } },
          ],
        },
        {
          role: 'tool',
          toolCallId: 'call_1',
          name: 'look_up',
          content: [
            { type: 'text', text: 'failed' },
            { type: 'context-changed', lines: ['contextChanged counter loaded'] },
          ],
          isError: true,
          errorKind: 'threw',
        },
        reply('x'.repeat(20_000)),
      ];
      const stored: StoredState = {
        loadedSkills: ['b', 'a'],
        stores: { cart: { zeta: [1, 2], alpha: 'ä', nested: { n: 1.5, flag: false } } },
        pendingContextChanges: ['contextChanged: something'],
        lastCallNumber: 1,
        usage: { inputTokens: 10, outputTokens: 2 },
        window: { start: 0, size: 4, max: 60 },
      };
      const before = Date.now();
      expect(await a.acquire(id, 'h', 5_000)).toBe(true);
      expect(await commit(a, id, { holder: 'h', append: messages, state: stored, owner: 'alice' })).toBe(1);
      for (const store of [a, b]) {
        const record = await store.record(id);
        expect(record).toMatchObject({ id, owner: 'alice', epoch: 'e', version: 1, length: 4 });
        expect(JSON.stringify(record?.state)).toBe(JSON.stringify(stored));
        expect(record!.createdAt).toBeGreaterThanOrEqual(before - 2_000);
        expect(record!.createdAt).toBeLessThanOrEqual(Date.now() + 2_000);
        expect(record!.updatedAt).toBeGreaterThanOrEqual(record!.createdAt);
        const loaded = await store.load(id, 60);
        expect(loaded).toMatchObject({ id, epoch: 'e', version: 1, length: 4, start: 0 });
        // Byte for byte, key order included: a restored transcript serialises as it did.
        expect(JSON.stringify(loaded?.messages)).toBe(JSON.stringify(messages));
        expect(JSON.stringify(await store.messages(id, 0, 10))).toBe(JSON.stringify(messages));
      }
    });

    test('reasoning and file parts come back byte-exact (signatures, redacted and encrypted reasoning, file bytes and URLs), from any process', async () => {
      const id = newId('parts');
      const [thinking, redacted, encrypted] = reasoningParts(7);
      const messages: Message[] = [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is on these? "quoted" \\ 🦊' },
            { type: 'file', mediaType: 'image/png', data: PNG, filename: 'dot 🦊 "1".png' },
            { type: 'file', mediaType: 'application/pdf', url: 'https://files.example/report.pdf?a=1&b=2' },
            {
              type: 'context-changed',
              lines: ['contextChanged agent added: Cart: 2 items', 'contextChanged camera loaded'],
            },
          ],
        },
        {
          role: 'assistant',
          content: [thinking, redacted, { type: 'text', text: 'Let me look.' }],
          toolCalls: [{ id: 'call_1', name: 'snap', input: { zoom: 2 } }],
        },
        {
          role: 'tool',
          toolCallId: 'call_1',
          name: 'snap',
          content: [
            { type: 'text', text: 'the picture:' },
            { type: 'file', mediaType: 'image/png', data: PNG, filename: 'snap.png' },
            { type: 'file', mediaType: 'text/csv', data: opaque(3, 50_000) },
          ],
        },
        { role: 'assistant', content: [encrypted, { type: 'text', text: 'A dot.' }] },
      ];
      const version = await seed(id, messages.slice(0, 2));
      expect(await b.acquire(id, 'h', 5_000)).toBe(true);
      await commit(b, id, { holder: 'h', version, append: messages.slice(2) });
      await b.release(id, 'h');
      const written = JSON.stringify(messages);
      for (const store of [a, b, c]) {
        expect(JSON.stringify((await store.load(id, 60))?.messages)).toBe(written);
        expect(JSON.stringify(await store.messages(id, 0, 10))).toBe(written);
        expect(JSON.stringify(await store.messages(id, 1, 2))).toBe(JSON.stringify(messages.slice(1, 3)));
      }
      // What a session reads back is today's shape as it is: nothing to upgrade, nothing lost.
      const read = await c.messages(id, 0, 10);
      expect(read.map((m, i) => parseMessage(m, `messages[${i}]`))).toEqual(messages);
    });

    test('a turn in another process sends the reasoning and files the chat holds byte for byte, as the process that wrote them would have', async () => {
      const alone = memoryStore();
      const reference: ModelRequest[] = [];
      const one = createSessions(cameraAgent(), { store: alone, model: thinkingModel(reference) });
      await converse(one, one, 'chat');
      const id = newId('parts-turn');
      const seen: ModelRequest[] = [];
      await converse(
        createSessions(cameraAgent(), { store: a, model: thinkingModel(seen) }),
        createSessions(cameraAgent(), { store: b, model: thinkingModel(seen) }),
        id,
      );
      expect(JSON.stringify(seen)).toBe(JSON.stringify(reference));
      expect(JSON.stringify(await c.messages(id, 0, 100))).toBe(JSON.stringify(await alone.messages('chat', 0, 100)));
      // The second turn's first request carries what the first turn recorded: the user's file, each
      // call's reasoning and the tool's picture, as they were.
      const [first, read, , , snapped, answer] = seen[3].messages;
      expect(first.content).toContainEqual({ type: 'file', mediaType: 'image/png', data: PNG, filename: 'dot 🦊.png' });
      expect(JSON.stringify(read.content)).toBe(JSON.stringify(reasoningParts(1)));
      expect(snapped.content).toContainEqual({ type: 'file', mediaType: 'image/png', data: PNG, filename: 'snap.png' });
      expect(JSON.stringify(answer.content)).toBe(
        JSON.stringify([...reasoningParts(3), { type: 'text', text: 'A dot, call 3.' }]),
      );
    });

    test('a file is written once, with its message: no later commit carries its bytes, and deleting the chat deletes them', async () => {
      const id = newId('file-once');
      const commits: string[] = [];
      // The store as the sessions see it, with every commit's payload kept for inspection.
      const watched: SessionStore = Object.assign(Object.create(Object.getPrototypeOf(a)), a, {
        commit: (key: string, change: Commit) => {
          commits.push(JSON.stringify(change));
          return a.commit(key, change);
        },
      });
      for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(a))) {
        const value = (a as unknown as Record<string, unknown>)[name];
        if (name !== 'constructor' && name !== 'commit' && typeof value === 'function') {
          (watched as unknown as Record<string, unknown>)[name] = value.bind(a);
        }
      }
      const chats = createSessions(cameraAgent(), { store: watched, model: thinkingModel([]) });
      await converse(chats, chats, id);
      const count = (text: string) => text.split(PNG).length - 1;
      // Restored in another process, every file is there: the user's photo and each picture the tool took.
      const messages = await b.messages(id, 0, 100);
      const files = messages.flatMap((m) => m.content.filter((p) => p.type === 'file' && p.data === PNG));
      expect(files.length).toBeGreaterThanOrEqual(2);
      expect(count(JSON.stringify(messages))).toBe(files.length);
      // Across every commit of both turns, each file's bytes were written exactly once, with its message.
      expect(commits.reduce((sum, payload) => sum + count(payload), 0)).toBe(files.length);
      expect(commits.filter((payload) => count(payload) > 0).length).toBeLessThan(commits.length);
      expect(await chats.delete(id)).toBe(true);
      for (const store of [a, b]) {
        expect(await store.record(id)).toBeNull();
        expect(await store.load(id, 100)).toBeNull();
        expect(await store.messages(id, 0, 100)).toEqual([]);
      }
      // Not closed: closing the sessions would close the shared store the other tests use.
    });

    test('append-only: a turn in another process sends the previous request plus what is new, byte for byte as the writing process would have', async () => {
      const reference: ModelRequest[] = [];
      const one = createSessions(cameraAgent(), { store: memoryStore(), model: thinkingModel(reference, true) });
      await converse(one, one, 'chat');
      const id = newId('append-only');
      const tested: ModelRequest[] = [];
      await converse(
        createSessions(cameraAgent(), { store: a, model: thinkingModel(tested, true) }),
        createSessions(cameraAgent(), { store: b, model: thinkingModel(tested, true) }),
        id,
      );
      expect(tested.every((req) => req.appendOnly !== undefined)).toBe(true);
      expect(JSON.stringify(tested.map((req) => req.appendOnly))).toBe(
        JSON.stringify(reference.map((req) => req.appendOnly)),
      );
      // Each request is the previous one plus appended items, across the two processes too.
      for (let i = 1; i < tested.length; i++) {
        const before = tested[i - 1].appendOnly!;
        const now = tested[i].appendOnly!;
        expect(now.system).toBe(before.system);
        expect(JSON.stringify(now.tools)).toBe(JSON.stringify(before.tools));
        expect(JSON.stringify(now.items.slice(0, before.items.length))).toBe(JSON.stringify(before.items));
      }
    });

    test('a record written before messages had parts is read upgraded, and the chat goes on', async () => {
      const id = newId('legacy');
      // One turn as @skilltree/store wrote it before messages had parts (the store's layout did not
      // change, only the messages' JSON): string content, contextChanged lines appended to a tool
      // result's text, and an error result without an error kind.
      const legacy = [
        { role: 'user', content: 'first' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'counter' } }],
        },
        {
          role: 'tool',
          toolCallId: 'call_1',
          name: 'read_skill',
          content: 'Loaded skill "counter".\ncontextChanged counter loaded',
        },
        { role: 'assistant', content: 'Counting.', toolCalls: [{ id: 'call_2', name: 'zap', input: {} }] },
        {
          role: 'tool',
          toolCallId: 'call_2',
          name: 'zap',
          content: 'Unknown tool: zap. Tools offered now: read_skill, bump.',
          isError: true,
        },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_3', name: 'bump', input: {} }] },
        { role: 'tool', toolCallId: 'call_3', name: 'bump', content: 'bumped\ncontextChanged counter added: count 1' },
        { role: 'assistant', content: 'done: first' },
      ];
      expect(await a.acquire(id, 'old', 5_000)).toBe(true);
      await commit(a, id, {
        holder: 'old',
        append: legacy as unknown as Message[],
        state: { loadedSkills: ['counter'], stores: { tally: { count: 1 } }, lastCallNumber: 3 },
      });
      await a.release(id, 'old');
      // The store hands back what it holds, unchanged; sessions read it upgraded.
      expect(JSON.stringify(await b.messages(id, 0, 100))).toBe(JSON.stringify(legacy));
      const upgraded = await sessions(b).messages(id);
      expect(upgraded.map(textOf)).toEqual(legacy.map((m) => m.content));
      expect(upgraded[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'first' }] });
      expect(upgraded[1]).toEqual({
        role: 'assistant',
        content: [],
        toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'counter' } }],
      });
      expect(upgraded[4]).toMatchObject({ isError: true, errorKind: 'unknown-tool' });
      expect(upgraded[6].content).toEqual([
        { type: 'text', text: 'bumped' },
        { type: 'context-changed', lines: ['contextChanged counter added: count 1'] },
      ]);
      // The next turn, in another process, goes on from it: the model reads the old messages as it
      // did, and the new ones are written with parts after the old ones, which stay as they were.
      const seen: Message[][] = [];
      const next = createSessions(counterAgent(), {
        store: c,
        model: bumpModel((req) => void seen.push(req.messages)),
      });
      expect((await next.send(id, 'second')).text).toBe('done: second');
      expect(seen[0].slice(0, legacy.length).map(textOf)).toEqual(legacy.map((m) => m.content));
      for (const m of seen.flat()) expect(Array.isArray(m.content)).toBe(true);
      const stored = await a.messages(id, 0, 100);
      expect(JSON.stringify(stored.slice(0, legacy.length))).toBe(JSON.stringify(legacy));
      for (const m of stored.slice(legacy.length)) expect(Array.isArray(m.content)).toBe(true);
      expect(checkTranscript(stored)).toEqual([]);
      expect(stored.slice(legacy.length).map(textOf)).toEqual([
        'second',
        '',
        'bumped\ncontextChanged counter added: count 2',
        'done: second',
      ]);
      expect((await a.record(id))?.state.stores).toEqual({ tally: { count: 2 } });
    });

    test('a missing session: record and load are null, messages empty, delete false', async () => {
      const id = newId('missing');
      expect(await a.record(id)).toBeNull();
      expect(await a.load(id, 60)).toBeNull();
      expect(await a.messages(id, 0, 10)).toEqual([]);
      expect(await a.delete(id)).toBe(false);
    });

    test('commits append after what is there; each bumps the version and replaces the state', async () => {
      const id = newId('append');
      expect(await a.acquire(id, 'h', 5_000)).toBe(true);
      let version = await commit(a, id, {
        holder: 'h',
        append: [user('one')],
        state: state({ s: 1 }),
      });
      const created = (await a.record(id))!.createdAt;
      version = await commit(b, id, {
        holder: 'h',
        version,
        append: [reply('two'), user('three')],
        state: state({ t: 2 }),
      });
      version = await commit(a, id, { holder: 'h', version, append: [], state: state({ u: 3 }) });
      expect(version).toBe(3);
      const record = await c.record(id);
      expect(record).toMatchObject({ version: 3, length: 3, createdAt: created, state: { stores: { u: 3 } } });
      expect(record!.state.stores).toEqual({ u: 3 });
      expect((await c.messages(id, 0, 10)).map(textOf)).toEqual(['one', 'two', 'three']);
    });

    test("load reads only the window's tail, from the user message tailStart names", async () => {
      const id = newId('tail');
      const messages: Message[] = [];
      const users: number[] = [];
      for (let i = 0; i < 40; i++) {
        const isUser = i % 7 === 0 || i % 11 === 3;
        if (isUser) users.push(i);
        messages.push(isUser ? user(`m${i}`) : reply(`m${i}`));
      }
      // Appended in three commits, so positions continue across commits.
      expect(await a.acquire(id, 'h', 5_000)).toBe(true);
      let version = await commit(a, id, { holder: 'h', append: messages.slice(0, 13) });
      version = await commit(a, id, { holder: 'h', version, append: messages.slice(13, 14) });
      await commit(a, id, { holder: 'h', version, append: messages.slice(14) });
      // A window past any transcript ("everything") is a whole transcript, however large the number.
      for (const window of [0, 1, 2, 3, 5, 10, 17, 26, 39, 40, 41, 1_000, 2 ** 31, Number.MAX_SAFE_INTEGER, Infinity]) {
        const start = tailStart(40, users, window);
        const loaded = await b.load(id, window);
        expect({ window, start: loaded?.start }).toEqual({ window, start });
        expect(loaded?.messages.map(textOf)).toEqual(messages.slice(start).map(textOf));
      }
      // Without any user message, the window is the last `window` messages.
      const bare = newId('tail-bare');
      await seed(bare, [reply('a'), reply('b'), reply('c')]);
      const loaded = await b.load(bare, 2);
      expect(loaded?.start).toBe(1);
      expect((await b.messages(id, 38, Number.MAX_SAFE_INTEGER)).map(textOf)).toEqual(['m38', 'm39']);
      expect(loaded?.messages.map(textOf)).toEqual(['b', 'c']);
    });

    test('messages pages through the transcript in order: from, limit, past the end', async () => {
      const id = newId('paging');
      const messages: Message[] = Array.from({ length: 25 }, (_, i) => user(`p${i}`));
      await seed(id, messages);
      const pages: string[] = [];
      for (let from = 0; from < 30; from += 10) pages.push(...(await b.messages(id, from, 10)).map(textOf));
      expect(pages).toEqual(messages.map(textOf));
      expect((await b.messages(id, 24, 10)).map(textOf)).toEqual(['p24']);
      expect(await b.messages(id, 25, 10)).toEqual([]);
      expect(await b.messages(id, 3, 0)).toEqual([]);
    });

    test('one lease holder at a time: others are refused until it is released or expires; the holder renews', async () => {
      const id = newId('lease');
      expect(await a.acquire(id, 'first', 5_000)).toBe(true);
      expect(await b.acquire(id, 'second', 5_000)).toBe(false);
      expect(await a.acquire(id, 'first', 5_000)).toBe(true);
      await b.release(id, 'second'); // not the holder: nothing happens
      expect(await c.acquire(id, 'third', 5_000)).toBe(false);
      await a.release(id, 'first');
      expect(await b.acquire(id, 'second', 60_000)).toBe(true);
      expect(await c.acquire(id, 'third', 5_000)).toBe(false);
      await b.release(id, 'second');
      // A lease that expires frees the chat without a release (waiting longer than its TTL is always safe).
      expect(await b.acquire(id, 'second', 150)).toBe(true);
      await sleep(400);
      expect(await c.acquire(id, 'third', 5_000)).toBe(true);
      await c.release(id, 'third');
    });

    test('a commit needs the live lease: without it, or after it expired, it is refused and writes nothing', async () => {
      const id = newId('no-lease');
      await expect(commit(a, id, { holder: 'nobody', append: [user('x')] })).rejects.toBeInstanceOf(
        SessionConflictError,
      );
      expect(await a.record(id)).toBeNull();
      expect(await a.acquire(id, 'brief', 100)).toBe(true);
      await sleep(300);
      await expect(commit(a, id, { holder: 'brief', append: [user('x')] })).rejects.toThrow(/lease/);
      expect(await b.record(id)).toBeNull();
      expect(await b.messages(id, 0, 10)).toEqual([]);
    });

    test('fencing: a stalled holder whose lease was taken over cannot commit, even at the right version', async () => {
      const id = newId('takeover');
      const version = await seed(id, [user('start')]);
      expect(await a.acquire(id, 'stalled', 150)).toBe(true);
      await sleep(400);
      expect(await b.acquire(id, 'fresh', 5_000)).toBe(true);
      const next = await commit(b, id, { holder: 'fresh', version, append: [user('fresh')] });
      await expect(commit(a, id, { holder: 'stalled', version, append: [user('stale')] })).rejects.toBeInstanceOf(
        SessionConflictError,
      );
      // The stalled holder takes the lease back once it is free: the version still fences it out.
      await b.release(id, 'fresh');
      expect(await a.acquire(id, 'stalled', 5_000)).toBe(true);
      await expect(commit(a, id, { holder: 'stalled', version, append: [user('stale')] })).rejects.toThrow(
        `version ${next}, this turn read ${version}`,
      );
      expect((await c.messages(id, 0, 10)).map(textOf)).toEqual(['start', 'fresh']);
      expect(await c.record(id)).toMatchObject({ version: next, length: 2 });
      await a.release(id, 'stalled');
    });

    test('commits race at one version: exactly one lands; creating an existing session is refused', async () => {
      const id = newId('race');
      const version = await seed(id, [user('start')]);
      expect(await a.acquire(id, 'h', 5_000)).toBe(true);
      const results = await Promise.allSettled(
        [a, b, c, a, b, c].map((store, i) => commit(store, id, { holder: 'h', version, append: [user(`r${i}`)] })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SessionConflictError);
      expect(await c.record(id)).toMatchObject({ version: version + 1, length: 2 });
      await expect(commit(b, id, { holder: 'h', version: 0, append: [] })).rejects.toThrow(/created it first/);
      await a.release(id, 'h');
    });

    test('a commit extends the lease by its leaseTtl', async () => {
      await withTtl(150, async (ttl) => {
        const id = newId('extend');
        const taken = Date.now();
        expect(await a.acquire(id, 'h', ttl)).toBe(true);
        const landed = await commit(a, id, { holder: 'h', append: [user('x')], leaseTtl: 600_000 })
          .then(() => true)
          .catch((error: unknown) => {
            if (error instanceof SessionConflictError && Date.now() - taken >= ttl) return false;
            throw error;
          });
        if (!landed) return 'late';
        // Past the lease the acquire asked for: only the commit's extension still holds it.
        await sleep(taken + ttl + 100 - Date.now());
        expect(await b.acquire(id, 'other', 5_000)).toBe(false);
        await a.release(id, 'h');
        expect(await b.acquire(id, 'other', 5_000)).toBe(true);
        await b.release(id, 'other');
      });
    });

    test('delete removes the session, its messages and its lease; the id can start over', async () => {
      const id = newId('delete');
      const version = await seed(id, [user('old'), reply('old reply')]);
      expect(await a.acquire(id, 'running', 5_000)).toBe(true);
      expect(await b.delete(id)).toBe(true);
      expect(await a.record(id)).toBeNull();
      expect(await a.load(id, 60)).toBeNull();
      expect(await a.messages(id, 0, 10)).toEqual([]);
      expect(await b.delete(id)).toBe(false);
      expect(await a.renew(id, 'running', 5_000)).toBe(false);
      await expect(commit(a, id, { holder: 'running', version, append: [] })).rejects.toBeInstanceOf(
        SessionConflictError,
      );
      expect(await c.acquire(id, 'new', 5_000)).toBe(true);
      await commit(c, id, { holder: 'new', append: [user('new')] });
      expect(await a.record(id)).toMatchObject({ version: 1, length: 1 });
      expect((await a.messages(id, 0, 10)).map(textOf)).toEqual(['new']);
      await c.release(id, 'new');
    });

    test("renew extends only the holder's own running lease: never a free, expired, released or deleted one", async () => {
      const id = newId('renew');
      expect(await a.renew(id, 'h', 5_000)).toBe(false);
      expect(await b.acquire(id, 'other', 60_000)).toBe(true);
      expect(await a.renew(id, 'h', 5_000)).toBe(false);
      expect(await b.renew(id, 'other', 60_000)).toBe(true);
      // Renewed to 150 ms from now, then left to expire (waiting longer than a TTL is always safe).
      expect(await b.renew(id, 'other', 150)).toBe(true);
      await sleep(400);
      expect(await b.renew(id, 'other', 5_000)).toBe(false);
      // A renewal that failed took nothing: the lease is free for anyone.
      expect(await c.acquire(id, 'third', 5_000)).toBe(true);
      await c.release(id, 'third');
      expect(await c.renew(id, 'third', 5_000)).toBe(false);
      // A renewal extends a running lease past the expiry it had.
      await withTtl(150, async (ttl) => {
        const taken = Date.now();
        expect(await a.acquire(id, 'h', ttl)).toBe(true);
        if (!(await a.renew(id, 'h', 600_000))) {
          if (Date.now() - taken >= ttl) return 'late';
          throw new Error('renew refused the running lease of its own holder');
        }
        await sleep(taken + ttl + 100 - Date.now());
        expect(await b.acquire(id, 'other', 5_000)).toBe(false);
        await a.release(id, 'h');
      });
    });

    test('a renewal marks the record as updated (a turn that renews reads as running between commits); a refused one marks nothing', async () => {
      const id = newId('renew-updates');
      expect(await a.acquire(id, 'h', 60_000)).toBe(true);
      // No record yet (a new chat's first turn): the renewal renews, and creates nothing.
      expect(await a.renew(id, 'h', 60_000)).toBe(true);
      expect(await b.record(id)).toBeNull();
      await commit(a, id, { holder: 'h', append: [user('hi')] });
      const committed = (await b.record(id))!;
      // Renewed until the store's clock has moved past the commit (a renewal in the same millisecond moves nothing).
      let renewed = committed;
      for (let tries = 0; renewed.updatedAt <= committed.updatedAt; tries++) {
        if (tries === 100) throw new Error("100 renewals over 500 ms never moved the record's updatedAt");
        await sleep(5);
        expect(await a.renew(id, 'h', 60_000)).toBe(true);
        renewed = (await b.record(id))!;
      }
      // Only the time: the version, the state and the messages are the commit's.
      expect({ ...renewed, updatedAt: 0 }).toEqual({ ...committed, updatedAt: 0 });
      await sleep(5);
      expect(await c.renew(id, 'other', 60_000)).toBe(false);
      expect((await b.record(id))!.updatedAt).toBe(renewed.updatedAt);
      await a.release(id, 'h');
      await sleep(5);
      expect(await a.renew(id, 'h', 60_000)).toBe(false);
      expect((await b.record(id))!.updatedAt).toBe(renewed.updatedAt);
    });

    test('every incarnation has its own epoch: a commit of a deleted one is refused in the new one, even at its version', async () => {
      const id = newId('epoch');
      expect(await a.acquire(id, 'old', 5_000)).toBe(true);
      let old = await commit(a, id, {
        holder: 'old',
        epoch: 'first',
        append: [user('old one')],
        state: state({ secret: 1 }),
      });
      old = await commit(a, id, { holder: 'old', version: old, epoch: 'first', append: [] });
      expect((await b.record(id))?.epoch).toBe('first');
      expect((await b.load(id, 60))?.epoch).toBe('first');
      await expect(commit(a, id, { holder: 'old', version: old, epoch: 'other', append: [] })).rejects.toThrow(
        /deleted and created again/,
      );
      expect(await b.delete(id)).toBe(true);
      expect(await c.acquire(id, 'new', 5_000)).toBe(true);
      let version = await commit(c, id, { holder: 'new', epoch: 'second', append: [user('new')] });
      version = await commit(c, id, { holder: 'new', version, epoch: 'second', append: [] });
      expect(version).toBe(old);
      await c.release(id, 'new');
      // The old incarnation's holder, even holding the lease again, cannot write into the new one.
      expect(await a.acquire(id, 'old', 5_000)).toBe(true);
      await expect(
        commit(a, id, {
          holder: 'old',
          version: old,
          epoch: 'first',
          append: [user('stale')],
          state: state({ secret: 2 }),
        }),
      ).rejects.toThrow(/deleted and created again/);
      await expect(commit(a, id, { holder: 'old', version: 0, epoch: 'third', append: [] })).rejects.toThrow(
        /created it first/,
      );
      await a.release(id, 'old');
      expect(await b.record(id)).toMatchObject({ epoch: 'second', version: old, length: 1, state: { stores: {} } });
      expect((await b.messages(id, 0, 10)).map(textOf)).toEqual(['new']);
      // A commit without an epoch is a caller's bug: refused with an error that says so, nothing written.
      const bare = newId('no-epoch');
      expect(await a.acquire(bare, 'h', 5_000)).toBe(true);
      await expect(
        commit(a, bare, {
          holder: 'h',
          epoch: undefined as unknown as string,
          append: [user('x')],
        }),
      ).rejects.toThrow(/epoch/);
      expect(await b.record(bare)).toBeNull();
      await a.release(bare, 'h');
    });

    test('a turn running when its chat is deleted in another process stops, writes nothing more, and nothing of it reaches the new chat under that id', async () => {
      const id = newId('deleted-mid-turn');
      const entered = gate();
      const go = gate();
      const refused = gate();
      // Process A: its turn has bumped, and waits in the model call before its reply. It renews
      // its lease every 200 ms (a lease that never lapses by itself: see simulatedProcess).
      const proc = simulatedProcess(a);
      proc.events.onRenew = (renewed, held) => {
        if (renewed === id && !held) refused.open();
      };
      const first = createSessions(counterAgent(), {
        store: proc.store,
        leaseTtl: 600,
        model: bumpModel(async (req) => {
          if (req.messages.some((m) => m.role === 'tool' && m.name === 'bump')) {
            entered.open();
            await go.opened;
          }
        }),
      });
      const running = first.send(id, 'old').then(
        () => null,
        (error: unknown) => error,
      );
      await entered.opened;
      const before = (await b.record(id))!.version;
      // Process B deletes the chat and starts a new one under the same id, up to the same version.
      const second = sessions(b);
      expect(await second.delete(id)).toBe(true);
      await reachVersion(second, b, id, before);
      const created = await c.messages(id, 0, 100);
      // A's next renewal is refused (the lease went with the chat) before its model answers.
      await refused.opened;
      go.open();
      const error = await running;
      expect(error).toBeInstanceOf(SessionConflictError);
      expect(String(error)).toMatch(/deleted or taken over while this turn ran/);
      expect(await c.messages(id, 0, 100)).toEqual(created);
      expect((await c.record(id))?.state.stores).toEqual({});
      // Any process goes on with the new chat.
      expect((await sessions(c).send(id, 'say after')).text).toBe('ok: say after');
      const messages = await c.messages(id, 0, 100);
      expect(checkTranscript(messages)).toEqual([]);
      expect(messages.some((m) => textOf(m) === 'old' || m.role === 'tool')).toBe(false);
    });

    test('a process that cached the deleted chat never reuses it for the new chat under that id, even at the same version', async () => {
      const id = newId('stale-cache');
      const seen: Message[][] = [];
      const cached = createSessions(counterAgent(), {
        store: a,
        model: bumpModel((req) => {
          seen.push(req.messages);
        }),
      });
      await cached.send(id, 'secret');
      const version = (await a.record(id))!.version;
      const other = sessions(b);
      expect(await other.delete(id)).toBe(true);
      await reachVersion(other, b, id, version);
      seen.length = 0;
      expect((await cached.send(id, 'say what do you know?')).text).toBe('ok: say what do you know?');
      expect(seen.flat().some((m) => textOf(m) === 'secret' || m.role === 'tool')).toBe(false);
      expect((await c.record(id))?.state).toMatchObject({ loadedSkills: [], stores: {} });
      expect((await c.messages(id, 0, 100)).some((m) => textOf(m) === 'secret' || m.role === 'tool')).toBe(false);
    });

    test('a turn commits each model step as it happens', async () => {
      const id = newId('per-step');
      const seen: number[] = [];
      const model = bumpModel(async () => {
        seen.push((await b.record(id))?.length ?? 0);
      });
      const s = createSessions(counterAgent(), { store: a, model });
      await s.send(id, 'go');
      // Before each model call, the store already has every message so far.
      expect(seen).toEqual([1, 3, 5]);
      expect((await b.record(id))?.length).toBe(6);
    });

    test("a stalled process's turn cannot overwrite the newer turn of the process that took over", async () => {
      const id = newId('stalled-turn');
      const slow = simulatedProcess(await open());
      const entered = gate();
      const go = gate();
      const first = createSessions(counterAgent(), {
        store: slow.store,
        leaseTtl: 300,
        model: bumpModel(async (req) => {
          if (req.messages.length === 1) {
            entered.open();
            await go.opened;
          }
        }),
      });
      const stalledTurn = first.send(id, 'one');
      await entered.opened;
      slow.stall(); // the process freezes: no lease renewals reach the store
      await slow.expire(id); // and its lease runs out
      const second = sessions(b);
      expect((await second.send(id, 'two')).text).toBe('done: two');
      slow.resume();
      go.open();
      await expect(stalledTurn).rejects.toBeInstanceOf(SessionConflictError);
      const messages = await c.messages(id, 0, 100);
      expect(checkTranscript(messages)).toEqual([]);
      expect(messages.filter((m) => m.role === 'user').map(textOf)).toEqual(['one', 'two']);
      expect(messages.filter((m) => m.role === 'assistant' && m.toolCalls === undefined).map(textOf)).toEqual([
        'done: two',
      ]);
      expect((await c.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
    });

    test("onBusy: 'reject' fails at once with SessionBusyError; 'wait' queues behind the running turn, up to busyTimeout", async () => {
      const id = newId('busy');
      const entered = gate();
      const go = gate();
      const first = createSessions(counterAgent(), {
        store: a,
        model: bumpModel(async () => {
          entered.open();
          await go.opened;
        }),
      });
      const running = first.send(id, 'first');
      await entered.opened;
      // Refused while the first turn still runs (it waits for `go`): one that waited would wait 10 minutes.
      const rejecting = sessions(b, { onBusy: 'reject', busyTimeout: 600_000 });
      await expect(rejecting.send(id, 'rejected')).rejects.toBeInstanceOf(SessionBusyError);
      const impatient = sessions(c, { busyTimeout: 200 });
      await expect(impatient.send(id, 'timed out')).rejects.toBeInstanceOf(SessionBusyError);
      const asked = gate();
      const waiting = sessions(
        watchAcquires(c, (held) => {
          if (!held) asked.open();
        }),
      );
      const queued = waiting.send(id, 'queued');
      // It asked for the lease and was refused: it waits behind the running turn.
      await asked.opened;
      go.open();
      expect((await running).text).toBe('done: first');
      expect((await queued).text).toBe('done: queued');
      const users = (await a.messages(id, 0, 100)).filter((m) => m.role === 'user').map(textOf);
      expect(users).toEqual(['first', 'queued']);
    });

    test('concurrent sends from several processes: each lands exactly once, whole, one turn at a time', async () => {
      const ids = [newId('concurrent'), newId('concurrent'), newId('concurrent')];
      const handles = [a, b, c];
      const procs = handles.map((store) => sessions(store, { leaseTtl: 5_000 }));
      const sent: Record<string, string[]> = Object.fromEntries(ids.map((id) => [id, []]));
      await Promise.all(
        procs.map(async (proc, p) => {
          for (let i = 0; i < 6; i++) {
            const id = ids[(p + i * 2) % ids.length];
            const text = `p${p}-${i}`;
            expect((await proc.send(id, text)).text).toBe(`done: ${text}`);
            sent[id].push(text);
          }
        }),
      );
      for (const id of ids) {
        const messages = await a.messages(id, 0, 1_000);
        expect(checkTranscript(messages)).toEqual([]);
        const users = messages.filter((m) => m.role === 'user').map(textOf);
        expect([...users].sort()).toEqual([...sent[id]].sort());
        // Turns never interleave: each user message is followed by its own turn, ending in its reply.
        let current = '';
        for (const m of messages) {
          if (m.role === 'user') current = textOf(m);
          else if (m.role === 'assistant' && !m.toolCalls) expect(textOf(m)).toBe(`done: ${current}`);
        }
        const bumps = messages.filter((m) => m.role === 'tool' && m.name === 'bump' && !m.isError).length;
        expect((await a.record(id))?.state.stores).toEqual({ tally: { count: bumps } });
      }
    });

    test('close() mid-turn loses nothing: the call in flight is committed as interrupted, and the next send from another process runs at once', async () => {
      const id = newId('close');
      const inBump = gate();
      const never = gate();
      const stopping = createSessions(counterAgent(), { store: await open(), model: bumpModel() });
      hooks.onBump = () => {
        inBump.open();
        return never.opened; // the tool runs until it is stopped
      };
      const turn = stopping.send(id, 'stop me').then(
        () => null,
        (error: unknown) => error,
      );
      await inBump.opened;
      hooks.onBump = undefined;
      await stopping.close({ timeout: 50 });
      expect(String(await turn)).toMatch(/Interrupted/);
      const left = await b.messages(id, 0, 100);
      expect(left.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
      expect(left[4]).toMatchObject({ role: 'tool', name: 'bump', isError: true });
      expect(textOf(left[4])).toMatch(/Interrupted/);
      expect(checkTranscript(left)).toEqual([]);
      // No lease is left behind: another process that may not wait answers at once.
      expect((await sessions(b, { onBusy: 'reject' }).send(id, 'after')).text).toBe('done: after');
      expect((await c.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
      never.open();
    });

    test('a crash mid-turn loses at most the step in flight; the next send answers its call as interrupted', async () => {
      const id = newId('crash');
      const dying = simulatedProcess(await open());
      const crashed = createSessions(counterAgent(), { store: dying.store, model: bumpModel(), leaseTtl: 300 });
      hooks.onBump = () => dying.kill(); // dies while `bump` runs, after the call was committed
      await expect(crashed.send(id, 'crash')).rejects.toThrow(/died/);
      hooks.onBump = undefined;
      await dying.expire(id); // the dead process's lease runs out
      const left = await b.messages(id, 0, 100);
      expect(left.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(left[3]).toMatchObject({ toolCalls: [{ name: 'bump' }] });
      const next = sessions(b);
      expect((await next.send(id, 'after')).text).toBe('done: after');
      const messages = await c.messages(id, 0, 100);
      expect(checkTranscript(messages)).toEqual([]);
      expect(messages[4]).toMatchObject({ role: 'tool', name: 'bump', isError: true });
      expect(textOf(messages[4])).toMatch(/^Interrupted/);
      // The interrupted bump never counted; the next one did.
      expect((await c.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
    });

    test('schema evolution: a loaded skill the agent no longer has is dropped, with a recorded line', async () => {
      const id = newId('renamed-skill');
      await sessions(a).send(id, 'bump');
      expect((await a.record(id))?.state.loadedSkills).toEqual(['counter']);
      // The next deploy renamed the skill `counter` to `tally`.
      const renamed = h(Agent, null, h(Skill, { name: 'tally', description: 'Counts.' }, h(Text, null, 'renamed')));
      const seen: Message[][] = [];
      const s = createSessions(renamed, {
        store: b,
        model: {
          async generate(req) {
            seen.push(req.messages);
            return { text: 'ok', toolCalls: [] };
          },
        },
      });
      expect((await s.send(id, 'still there?')).text).toBe('ok');
      expect((await b.record(id))?.state.loadedSkills).toEqual([]);
      const last = seen[0][seen[0].length - 1];
      expect(last).toMatchObject({ role: 'user' });
      expect(textOf(last)).toMatch(/counter.*unloaded/);
      expect(checkTranscript(await b.messages(id, 0, 100))).toEqual([]);
    });

    test('schema evolution: saved store state is merged over the new initial state', async () => {
      const id = newId('store-fields');
      await sessions(a).send(id, 'bump');
      expect((await a.record(id))?.state.stores).toEqual({ tally: { count: 1 } });
      // The next deploy added a field to the store with the same name.
      const agent = h(Agent, null, h(Skill, { name: 'counter', description: 'Counts.' }, h(Show)));
      const s = createSessions(agent, {
        store: b,
        model: {
          async generate(req) {
            const last = req.messages[req.messages.length - 1];
            if (last.role === 'user') return { text: '', toolCalls: [{ id: '', name: 'show', input: {} }] };
            return { text: last.role === 'tool' ? textOf(last) : '?', toolCalls: [] };
          },
        },
      });
      expect((await s.send(id, 'show')).text).toBe('1/new field');
      expect((await b.record(id))?.state.stores).toEqual({ tally: { count: 1, label: 'new field' } });
    });

    test('a stored lifecycle log that breaks a rule (a tool removal of a tool never added) is never sent: the session states its skills again', async () => {
      const id = newId('forged-log');
      await sessions(a).send(id, 'bump');
      const loaded = (await a.load(id, 60))!;
      const log = loaded.state.lifecycle!;
      expect(log.records.length).toBeGreaterThan(0);
      // Message 4 is the bump's result: a place where a record may sit, with a removal never added.
      const forged = {
        ...log,
        records: [
          ...log.records,
          { at: 4, entries: [{ type: 'tools' as const, skill: 'counter', added: [], removed: ['forged_tool'] }] },
        ],
      };
      expect(await a.acquire(id, 'forger', 5_000)).toBe(true);
      await commit(a, id, {
        holder: 'forger',
        version: loaded.version,
        epoch: loaded.epoch,
        append: [],
        state: { ...loaded.state, lifecycle: forged },
      });
      await a.release(id, 'forger');
      const seen: ModelRequest[] = [];
      const next = createSessions(counterAgent(), { store: b, model: bumpModel((req) => void seen.push(req)) });
      expect((await next.send(id, 'say again')).text).toBe('ok: say again');
      expect(JSON.stringify(seen[0].lifecycle)).not.toContain('forged_tool');
      expect(lifecycleProblems(seen[0])).toEqual([]);
      expect(seen[0].lifecycle?.deltas.at(-1)?.entries).toContainEqual(
        expect.objectContaining({ type: 'loaded', skill: 'counter' }),
      );
      // What the store keeps now is the log of the statement, not the forged one.
      expect(JSON.stringify((await c.record(id))?.state.lifecycle)).not.toContain('forged_tool');
    });

    test("an owner's spend: zero at first, adds up from every process at once, kept apart per owner and period, forgotten after it expires", async () => {
      // Quotes, separators, emoji: an owner key is any well-formed string without control characters.
      const owner = `${run}-spender "'*:{}/\\ 🦊 中`;
      const other = `${owner}-other`;
      const future = Date.now() + 3_600_000;
      expect(await a.spent(owner, '2025-11-03')).toEqual({ tokens: 0, dollars: 0 });
      // 60 charges at once from three processes: none is lost.
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          [a, b, c][i % 3].addSpend(owner, '2025-11-03', { tokens: 7, dollars: 0.25 }, future),
        ),
      );
      for (const store of [a, b, c])
        expect(await store.spent(owner, '2025-11-03')).toEqual({ tokens: 420, dollars: 15 });
      expect(await a.addSpend(owner, '2025-11-03', { tokens: 1, dollars: 0.5 }, future)).toEqual({
        tokens: 421,
        dollars: 15.5,
      });
      // Another period and another owner (whose name extends this one's) start from zero.
      expect(await b.spent(owner, '2025-11-04')).toEqual({ tokens: 0, dollars: 0 });
      expect(await b.spent(other, '2025-11-03')).toEqual({ tokens: 0, dollars: 0 });
      // Hostile amounts add nothing: a spend never refunds or poisons the total.
      await a.addSpend(owner, '2025-11-03', { tokens: -100, dollars: Number.NaN }, future);
      await a.addSpend(owner, '2025-11-03', { tokens: Number.POSITIVE_INFINITY, dollars: -1 }, future);
      expect(await c.spent(owner, '2025-11-03')).toEqual({ tokens: 421, dollars: 15.5 });
      // A period that is over reads as zero (stores may round its end up to the second).
      await withTtl(200, async (ttl) => {
        const period = `ms:${ttl}:1`;
        const expiresAt = Date.now() + ttl;
        await a.addSpend(owner, period, { tokens: 5, dollars: 1 }, expiresAt);
        const read = await a.spent(owner, period);
        if (Date.now() >= expiresAt) return 'late';
        expect(read).toEqual({ tokens: 5, dollars: 1 });
        await sleep(expiresAt + 1_100 - Date.now());
        expect(await b.spent(owner, period)).toEqual({ tokens: 0, dollars: 0 });
      });
      // Deleting a session refunds nothing.
      const id = newId('spend');
      await seed(id, [user('hi')]);
      await a.delete(id);
      expect(await a.spent(owner, '2025-11-03')).toEqual({ tokens: 421, dollars: 15.5 });
    });

    test("per-owner budgets hold across processes: two createSessions over one store stop the owner's turns once the period's limit is spent", async () => {
      const owner = `${run}-budget-owner`;
      // Every model call reports 10 000 tokens (a turn is read, bump, reply: three calls).
      let calls = 0;
      const reporting = () => {
        const model = bumpModel();
        return {
          name: model.name,
          async generate(...args: Parameters<typeof model.generate>) {
            const response = await model.generate(...args);
            calls++;
            return { ...response, usage: { inputTokens: 9_000, outputTokens: 1_000 } };
          },
        };
      };
      const budget = { perOwner: { tokens: 50_000, period: 'day' as const } };
      const one = sessions(a, { model: reporting(), budget });
      const two = sessions(b, { model: reporting(), budget });
      // Four turns at once, two per process, on four chats of one owner: they need 120 000 tokens.
      const results = await Promise.allSettled(
        [one, two, one, two].map((s, i) => s.send(newId('owner-turn'), `turn ${i}`, { owner })),
      );
      const stopped = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
      expect(stopped.length).toBeGreaterThan(0);
      for (const error of stopped) expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner', owner });
      // The store holds exactly what the model reported, whichever process charged it.
      const spent = await c.spent(await ownerKey(owner), periodOf('day').key);
      expect(spent.tokens).toBe(calls * 10_000);
      expect(spent.tokens).toBeGreaterThanOrEqual(50_000);
      // The limit is spent: the next turn, in either process, is refused before anything is recorded.
      for (const s of [one, two]) {
        const id = newId('owner-refused');
        const error = await s.send(id, 'more', { owner }).catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner', owner, unit: 'tokens', next: 0 });
        expect(await a.record(id)).toBeNull();
      }
      // Another owner is not affected.
      expect((await one.send(newId('owner-other'), 'fine', { owner: `${owner}-2` })).text).toBe('done: fine');
    });

    test('a session budget stops a runaway conversation, whichever process runs its next turn', async () => {
      const id = newId('session-budget');
      // Every call reports 10 000 tokens: the first turn takes three calls (read, bump, reply), the
      // next ones two (the skill stays loaded).
      const reporting = () => {
        const model = bumpModel();
        return {
          name: model.name,
          async generate(...args: Parameters<typeof model.generate>) {
            return { ...(await model.generate(...args)), usage: { inputTokens: 9_000, outputTokens: 1_000 } };
          },
        };
      };
      const budget = { perSession: { tokens: 35_000 } };
      const one = sessions(a, { model: reporting(), budget });
      const two = sessions(b, { model: reporting(), budget });
      expect((await one.send(id, 'first')).text).toBe('done: first');
      // The second turn runs in the other process, from what the store kept (30 000 spent): its
      // second call would go over, so it stops before it, with every call answered.
      const error = await two.send(id, 'second').catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'session', unit: 'tokens', limit: 35_000 });
      const messages = await c.messages(id, 0, 100);
      expect(checkTranscript(messages)).toEqual([]);
      expect((await c.record(id))?.state.usage).toMatchObject({ inputTokens: 36_000, outputTokens: 4_000 });
      // The limit is spent: a third turn, in the first process, is refused before anything is recorded.
      const length = (await c.record(id))?.length;
      await expect(one.send(id, 'third')).rejects.toMatchObject({ scope: 'session', next: 0 });
      expect((await c.record(id))?.length).toBe(length);
    });

    test('reserveSpend is an atomic check and reserve: from three processes at once, reservations never add up past the limit; a refusal adds nothing; settleSpend replaces a reservation by what was used', async () => {
      const owner = `${run}-reserver`;
      const period = '2025-11-03';
      const future = Date.now() + 3_600_000;
      // 30 reservations of 7 tokens at once from three processes against a limit of 100: 14 fit.
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          [a, b, c][i % 3].reserveSpend(owner, period, { tokens: 7, dollars: 0.25 }, { tokens: 100 }, future),
        ),
      );
      expect(results.filter((r) => r.reserved)).toHaveLength(14);
      for (const r of results) {
        if (r.reserved) expect(r.spent.tokens).toBeLessThanOrEqual(100);
        else expect(r.spent.tokens + 7).toBeGreaterThan(100);
      }
      expect(await b.spent(owner, period)).toEqual({ tokens: 98, dollars: 3.5 });
      // A dollar limit, alone: 3.5 + 1 does not fit 4, 3.5 + 0.5 does (up to the limit itself).
      expect(await a.reserveSpend(owner, period, { tokens: 0, dollars: 1 }, { dollars: 4 }, future)).toEqual({
        reserved: false,
        spent: { tokens: 98, dollars: 3.5 },
      });
      expect(await a.reserveSpend(owner, period, { tokens: 0, dollars: 0.5 }, { dollars: 4 }, future)).toEqual({
        reserved: true,
        spent: { tokens: 98, dollars: 4 },
      });
      // No limits: always reserved (a warned call still counts).
      expect((await c.reserveSpend(owner, period, { tokens: 2, dollars: 0 }, null, future)).spent.tokens).toBe(100);
      // Settled with what the call used: more than reserved adds, zeros release.
      expect(
        await b.settleSpend(owner, period, { tokens: 2, dollars: 0 }, { tokens: 12, dollars: 0.5 }, future),
      ).toEqual({ tokens: 110, dollars: 4.5 });
      expect(
        await c.settleSpend(owner, period, { tokens: 10, dollars: 0.5 }, { tokens: 0, dollars: 0 }, future),
      ).toEqual({ tokens: 100, dollars: 4 });
      // A settlement never takes the total below zero, nor does a hostile amount add or poison it.
      const other = `${run}-reserver-2`;
      expect(await a.settleSpend(other, period, { tokens: 50, dollars: 1 }, { tokens: 0, dollars: 0 }, future)).toEqual(
        { tokens: 0, dollars: 0 },
      );
      expect(
        (await a.reserveSpend(other, period, { tokens: Number.NaN, dollars: -1 }, { tokens: 10 }, future)).spent,
      ).toEqual({ tokens: 0, dollars: 0 });
      // A broken limit lets nothing through.
      expect(
        (await a.reserveSpend(other, period, { tokens: 1, dollars: 0 }, { tokens: Number.NaN }, future)).reserved,
      ).toBe(false);
      expect(await c.spent(other, period)).toEqual({ tokens: 0, dollars: 0 });
    });

    test('owners are exact: owners that differ only in a lone surrogate never share a chat (they are refused with the rule), and an owner with NUL is refused before anything reaches the store', async () => {
      const id = newId('exact-owner');
      const whole = 'Ann😀';
      const one = sessions(a);
      await one.send(id, 'say mine', { owner: 'Ann\uFFFD' });
      for (const owner of [whole.slice(0, 4), 'Ann\uDE00', 'Ann\uD800']) {
        await expect(sessions(b).send(id, 'say theirs', { owner })).rejects.toThrow(/lone surrogate/);
        await expect(sessions(b).messages(id, { owner })).rejects.toThrow(/lone surrogate/);
      }
      for (const owner of ['ann\u0000', 'ann\u0000x', 'a\nb']) {
        await expect(sessions(c).send(id, 'say x', { owner })).rejects.toThrow(/control characters/);
      }
      expect((await sessions(c).messages(id, { owner: 'Ann\uFFFD' })).map(textOf)).toEqual([
        'say mine',
        'ok: say mine',
      ]);
      // The whole emoji is another owner, with a chat of its own, from any process.
      expect((await sessions(b).send(id, 'say whole', { owner: whole })).text).toBe('ok: say whole');
      expect(await sessions(c).messages(id, { owner: whole })).toHaveLength(2);
      expect(await sessions(c).messages(id, { owner: 'Ann\uFFFD' })).toHaveLength(2);
      // Ids are exact too.
      await expect(one.send(`${id}\uD800`, 'say x')).rejects.toThrow(/Invalid session id/);
    });

    test("a 3,000-character owner has its chats and is charged and held to its per-owner budget, under its owner's key", async () => {
      const owner = `${run}-${'long owner '.repeat(273)}`.slice(0, 3_000);
      const budget = { perOwner: { tokens: 25_000, period: 'day' as const } };
      const one = sessions(a, { model: reporting(10_000), budget });
      const two = sessions(b, { model: reporting(10_000), budget });
      for (const s of [one, two, one])
        expect((await s.send(newId('long-owner'), 'say hi', { owner })).text).toBe('ok: say hi');
      const key = await ownerKey(owner);
      expect(await c.spent(key, periodOf('day').key)).toEqual({ tokens: 30_000, dollars: 0 });
      await expect(two.send(newId('long-owner'), 'say more', { owner })).rejects.toMatchObject({
        name: 'BudgetExceededError',
        scope: 'owner',
        owner,
        spent: 30_000,
      });
    });

    test("the owner '' has its per-owner budget like any other", async () => {
      const budget = { perOwner: { tokens: 15_000, period: 'day' as const } };
      const one = sessions(a, { model: reporting(10_000), budget });
      // Other runs on this store may have charged '' today: start from what it has spent.
      const key = await ownerKey('');
      const before = (await c.spent(key, periodOf('day').key)).tokens;
      const sends = before < 15_000 ? Math.ceil((15_000 - before) / 10_000) : 0;
      for (let i = 0; i < sends; i++) await one.send(newId('empty-owner'), 'say hi', { owner: '' });
      expect((await c.spent(key, periodOf('day').key)).tokens).toBe(before + sends * 10_000);
      await expect(sessions(b, { budget }).send(newId('empty-owner'), 'say no', { owner: '' })).rejects.toMatchObject({
        scope: 'owner',
        owner: '',
      });
    });

    test('a send refused by a budget leaves no orphan user message in the store', async () => {
      const budget = { perTurn: { tokens: 1 } };
      const owner = `${run}-orphan`;
      const fresh = newId('orphan-new');
      await expect(sessions(a).send(fresh, 'say hi', { owner, budget })).rejects.toMatchObject({ scope: 'turn' });
      expect(await sessions(b).get(fresh, { owner })).toBeNull();
      const old = newId('orphan-old');
      await sessions(a).send(old, 'say first', { owner });
      const before = await c.record(`${await ownerKey(owner)}\u001f${old}`);
      await expect(sessions(b).send(old, 'say second', { owner, budget })).rejects.toMatchObject({ scope: 'turn' });
      const after = await c.record(`${await ownerKey(owner)}\u001f${old}`);
      expect(after?.length).toBe(before?.length);
      expect((await sessions(c).messages(old, { owner })).map(textOf)).toEqual(['say first', 'ok: say first']);
    });

    test("an aborted model call is charged what it consumed (its input and what it streamed, marked estimated) on the session's usage and the owner's spend", async () => {
      const id = newId('aborted');
      const owner = `${run}-aborted`;
      const streamed = gate();
      const model = {
        name: 'stalling',
        generate: async () => ({ text: 'never', toolCalls: [] }),
        async *stream(_req: unknown, { signal }: { signal?: AbortSignal }) {
          yield { type: 'text-delta' as const, text: 'A partial reply that was cut off' };
          streamed.open();
          await new Promise<void>((_, reject) => {
            const stop = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
            if (signal?.aborted) stop();
            signal?.addEventListener('abort', stop, { once: true });
          });
        },
      };
      const s = sessions(a, { model, budget: { perOwner: { tokens: 1_000_000, period: 'day' } } });
      const controller = new AbortController();
      const turn = s.send(id, 'say go', { owner, signal: controller.signal }).catch((e: unknown) => e);
      await streamed.opened;
      controller.abort();
      expect(await turn).toMatchObject({ name: 'AbortError' });
      const usage = (await sessions(b).get(id, { owner }))?.usage;
      expect(usage).toMatchObject({
        estimated: true,
        outputTokens: estimateTokens('A partial reply that was cut off'),
      });
      expect(usage?.inputTokens).toBeGreaterThan(0);
      const spent = await c.spent(await ownerKey(owner), periodOf('day').key);
      expect(spent.tokens).toBe((usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0));
    });

    test('concurrent turns of one owner from several processes cannot all pass the same check: the reservations never add up past the limit', async () => {
      const owner = `${run}-concurrent-owner`;
      // What one first call reserves: its estimated input.
      const probe = await sessions(a, { budget: { perTurn: { tokens: 0 } } })
        .send(newId('probe'), 'say go')
        .catch((e: { next: number }) => e);
      const input = (probe as { next: number }).next;
      expect(input).toBeGreaterThan(0);
      const limit = Math.floor(input * 2.5);
      const inModel: (() => void)[] = [];
      let decided = 0;
      const all = gate();
      const decide = () => {
        if (++decided === 6) all.open();
      };
      const held = () => ({
        name: 'held',
        async generate(req: { messages: Message[] }) {
          // Held until every turn was let in or refused: the admitted ones are all in flight at once.
          await new Promise<void>((resolve) => {
            inModel.push(resolve);
            decide();
          });
          return {
            text: `ok: ${lastUserText(req.messages)}`,
            toolCalls: [],
            usage: { inputTokens: input, outputTokens: 0 },
          };
        },
      });
      const budget = { perOwner: { tokens: limit, period: 'day' as const } };
      const procs = [a, b, c].map((store) => sessions(store, { model: held(), budget }));
      const turns = Array.from({ length: 6 }, (_, i) =>
        procs[i % 3].send(newId('concurrent-owner'), 'say go', { owner }).then(
          () => null,
          (error: unknown) => {
            decide();
            return error;
          },
        ),
      );
      await all.opened;
      for (const release of inModel) release();
      const results = await Promise.all(turns);
      expect(inModel).toHaveLength(2);
      const refused = results.filter((r) => r !== null);
      expect(refused).toHaveLength(4);
      for (const error of refused) expect(error).toMatchObject({ name: 'BudgetExceededError', scope: 'owner', owner });
      expect(await a.spent(await ownerKey(owner), periodOf('day').key)).toEqual({ tokens: 2 * input, dollars: 0 });
    });

    test(`many sessions: ${options.sessions ?? 1_000} sessions each keep their own record and transcript`, async () => {
      const count = options.sessions ?? 1_000;
      const procs = [a, b, c].map((store) => createSessions(counterAgent(), { store, model: echo, cacheSize: 50 }));
      const id = (i: number) => `${run}-many-${i}`;
      const lanes = 12;
      await Promise.all(
        Array.from({ length: lanes }, async (_, lane) => {
          for (let i = lane; i < count; i += lanes)
            await procs[i % 3].send(id(i), `hello ${i}`, { owner: `u${i % 7}` });
        }),
      );
      await Promise.all(
        Array.from({ length: lanes }, async (_, lane) => {
          for (let i = lane; i < count; i += lanes) {
            const owner = `u${i % 7}`;
            const info = await procs[(i + 1) % 3].get(id(i), { owner });
            expect(info).toMatchObject({ id: id(i), owner, transcriptLength: 2 });
            const messages = await procs[(i + 2) % 3].messages(id(i), { owner });
            expect(messages.map(textOf)).toEqual([`hello ${i}`, `echo: hello ${i}`]);
          }
        }),
      );
      await Promise.all(
        Array.from({ length: lanes }, async (_, lane) => {
          for (let i = lane; i < count; i += lanes) {
            expect(await procs[i % 3].delete(id(i), { owner: `u${i % 7}` })).toBe(true);
          }
        }),
      );
      expect(await procs[0].get(id(0), { owner: 'u0' })).toBeNull();
      expect(await procs[1].get(id(count - 1), { owner: `u${(count - 1) % 7}` })).toBeNull();
    }, 120_000);
  });
}

/**
 * Two turns of {@link cameraAgent} on chat `id`: the first sends a picture (the model reads the
 * skill, snaps, answers), the second, in `second` (another process, or the same one), goes on.
 */
async function converse(first: Sessions, second: Sessions, id: string): Promise<void> {
  const picture = { data: fromBase64(PNG), mediaType: 'image/png', filename: 'dot 🦊.png' };
  expect((await first.send(id, 'What is on this picture?', { files: [picture] })).text).toBe('A dot, call 3.');
  expect((await second.send(id, 'And now?')).text).toBe('A dot, call 5.');
}

// The same store name as the fixture's `tally`, as a later deploy might define it: one field more.
const wider = createAgentStore('tally', () => ({ count: 0, label: 'new field' }));
function Show() {
  const s = useAgentStore(wider, (x) => `${x.count}/${x.label}`);
  return h(Tool, { name: 'show', description: 's', run: () => s });
}

/** The counter agent's model, reporting `tokens` input tokens per call. */
function reporting(tokens: number) {
  const model = bumpModel();
  return {
    name: model.name,
    async generate(...args: Parameters<typeof model.generate>) {
      return { ...(await model.generate(...args)), usage: { inputTokens: tokens, outputTokens: 0 } };
    },
  };
}

const echo = {
  name: 'echo',
  async generate(req: { messages: Message[] }) {
    const last = req.messages[req.messages.length - 1];
    return { text: `echo: ${last.role === 'user' ? textOf(last) : ''}`, toolCalls: [] };
  },
};
