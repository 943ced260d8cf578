/**
 * `Session`: the public API over one mounted agent. Every method delegates to the modules below it
 * (state, skills, calls, loop, snapshot, view); this file holds no logic of its own.
 */

import type { ReactNode } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { type AgentStoreDef, newGeneration, storeOf, storeStates } from '../host/agent-store.js';
import type { SessionHandle, SkillState } from '../host/runtime.js';
import { traceToolCall } from '../observe/telemetry.js';
import { cleanContent } from '../parts/message-parts.js';
import { buildRequest } from '../request/request.js';
import { buildView, type SessionView } from '../request/view.js';
import { config, developerProblems } from '../state/config.js';
import type { SessionChat } from '../state/create.js';
import { assertLive, dropListeners, warn } from '../state/events.js';
import { activeSkill, isBusy, loadedSkills, mountCount, shownWaiting, transcriptOf, usageOf } from '../state/reads.js';
import { pushMessage } from '../state/record.js';
import { flush, render, unmount } from '../state/render.js';
import { runsOf } from '../state/runs.js';
import { type Listener, type SessionState, skillState, tree } from '../state/state.js';
import { settle, sync } from '../state/sync.js';
import { freshCallId, repairCalls } from '../transcript/transcript.js';
import { executeCall } from '../turn/calls.js';
import { abortable, runTurn } from '../turn/loop.js';
import { NO_MODEL } from '../turn/model-call.js';
import { checkSkills, loadSkill } from '../turn/skills.js';
import { denyArguments, splitBinding } from '../turn/waiting.js';
import type { AssistantMessage, AssistantPart, Message, ToolCall, ToolMessage } from '../types/messages.js';
import type { Model, Usage } from '../types/model.js';
import type { SendOptions, SessionOptions } from '../types/options.js';
import type { ModelRequest } from '../types/request.js';
import type {
  AnswerBinding,
  ReadResult,
  SessionConfig,
  SessionEvent,
  SessionEventType,
  SessionSnapshot,
  ToolAnswer,
  Turn,
  WaitingCall,
  Warning,
} from '../types/session.js';
import type { SubagentRun } from '../types/subagents.js';
import { mountState } from './mount.js';
import { parseSnapshot, takeSnapshot } from './snapshot.js';

type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;

const states = new WeakMap<Session, SessionState>();

/** @internal The state behind a session, for `chat-session.ts` alone (not exported from the package). */
export function stateOf(session: Session): SessionState {
  const state = states.get(session);
  if (!state) throw new Error('Not a skilltree Session.');
  return state;
}

type DenyOptions = SendOptions & AnswerBinding;
/** A mounted agent. Create one with {@link createSession} or {@link restoreSession}. */
export class Session implements SessionHandle {
  #state: SessionState;

  /** @internal Use {@link createSession} or {@link restoreSession}. */
  constructor(element: ReactNode, options: SessionOptions, restore?: SessionSnapshot, chat?: SessionChat) {
    this.#state = mountState(element, options, this, restore, chat, (state) => {
      this.#state = state;
      states.set(this, state);
    });
  }

  // ───────────────────────────── reading (getters never change state) ─────────────────────────────

  /** Every message in memory, oldest first (for a session loaded from a store, the newest part). Nothing is summarised or deleted. */
  get transcript(): readonly Message[] {
    return transcriptOf(this.#state).messages;
  }

  /** Index, in the whole transcript, of `transcript[0]`: 0 unless older messages live only in a store. */
  get transcriptStart(): number {
    return transcriptOf(this.#state).start;
  }

  /** The loaded skills in LRU order: least recently read first, the active skill last. */
  get loadedSkills(): string[] {
    return [...loadedSkills(this.#state)];
  }

  /** The skill read last, or null when none is loaded. */
  get activeSkill(): string | null {
    return activeSkill(this.#state);
  }

  /** The catalog: every `<Skill>` in the tree, in tree order, with its state and mount count. */
  get skills(): { name: string; description: string; state: SkillState; mounts: number }[] {
    return tree(this.#state).skills.map((s) => ({
      name: s.name,
      description: s.description,
      state: skillState(this.#state, s.name),
      mounts: mountCount(this.#state, s.name),
    }));
  }

  /** The lifecycle settings in effect. */
  get config(): SessionConfig {
    return config(this.#state);
  }

  /** The model this session calls. */
  get model(): Model {
    return this.#state.options.model ?? NO_MODEL;
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return isBusy(this.#state);
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#state.disposed;
  }

  /** Token usage summed over every model call of this session, where the model reports it (cache reads and writes included). */
  get usage(): Usage | undefined {
    return usageOf(this.#state) ? { ...usageOf(this.#state) } : undefined;
  }

  /** The chat's subagent runs, oldest first (SPEC §19): id, name, status, transcript, usage, result. */
  get subagentRuns(): SubagentRun[] {
    return runsOf(this.#state);
  }

  /** Every warning reported so far, oldest first. */
  get warnings(): readonly Warning[] {
    return this.#state.warnings;
  }

  /** The next request, exactly as the model will receive it. Commits pending updates first. */
  request(): ModelRequest {
    this.#act();
    return buildRequest(this.#state);
  }

  /** What the model receives and why, as JSON data: lines with owners, tools, skills, problems, stores. */
  view(): SessionView {
    assertLive(this.#state);
    if (!this.#state.crashed) this.#act();
    return buildView(this.#state);
  }

  /** The store instance of `def` in this session, created on first use. */
  store<T>(def: AgentStoreDef<T>): StoreApi<T> {
    return storeOf(this.#state.stores, def);
  }

  /** The state of every store, as JSON data, by name. */
  storeStates(): Record<string, unknown> {
    return storeStates(this.#state.stores);
  }

  // ───────────────────────────── acting ─────────────────────────────

  /** Reports a warning: a `warning` event, once per distinct message. See {@link warnings}. */
  warn(message: string, source?: string): void {
    warn(this.#state, message, source);
  }

  /**
   * Loads `name` (mounting it) or, when loaded, makes it active, as the model's read does; the
   * change is recorded with the next user or tool message. Throws when the skill is unknown or the
   * read is refused.
   */
  async readSkill(name: string): Promise<ReadResult> {
    this.#act();
    const outcome = await loadSkill(this.#state, name);
    if (!outcome.ok) throw new Error(outcome.error);
    const reasons = checkSkills(this.#state);
    if (reasons.length > 0) throw new Error(reasons.join('\n'));
    return { name: outcome.name, mounted: outcome.mounted, unloaded: outcome.unloaded };
  }

  /**
   * Runs one tool call as if the model had made it, and appends its result to the transcript.
   * `send` does this for every call the model makes.
   */
  async callTool(call: ToolCall, opts: SendOptions = {}): Promise<ToolMessage> {
    this.#act();
    return executeCall(this.#state, call, opts.signal, (c) => traceToolCall(this.#state, c));
  }

  /**
   * Appends an assistant message (e.g. a scripted tool call in a test), with tool call ids made
   * unique and safe, as a model's are. Throws for an entry that is not a tool call with a name.
   */
  addAssistantMessage(
    message: Omit<AssistantMessage, 'role' | 'content'> & { content?: string | AssistantPart[] },
  ): AssistantMessage {
    assertLive(this.#state);
    const { calls: toolCalls, dropped } = repairCalls(transcriptOf(this.#state), message.toolCalls);
    if (dropped.length > 0) {
      throw new Error(`addAssistantMessage: toolCalls[${dropped[0].index}] cannot be recorded: ${dropped[0].reason}.`);
    }
    const content = message.content ?? '';
    const out: AssistantMessage = {
      role: 'assistant',
      content: cleanContent(typeof content === 'string' ? { text: content } : { text: '', content }),
    };
    if (toolCalls.length > 0) out.toolCalls = toolCalls;
    pushMessage(this.#state, out);
    return out;
  }

  /** A fresh tool-call id, unique within this session's transcript. */
  nextCallId(): string {
    return freshCallId(transcriptOf(this.#state));
  }

  /**
   * Sends a user message and runs the loop: model → tools → model, until the model replies without
   * tool calls. Rejects on a model error or when `maxSteps` is exceeded; the transcript stays valid.
   */
  async send(text: string, opts: SendOptions = {}): Promise<Turn> {
    const turn = this.#turn(text, opts);
    for (;;) {
      const next = await turn.next();
      if (next.done) return next.value;
    }
  }

  /**
   * The turn as an async iterable of its events (the same loop as `send`). Leaving the `for await`
   * early aborts the turn, as an abort signal does; the transcript stays valid.
   */
  stream(text: string, opts: SendOptions = {}): AsyncIterable<SessionEvent> {
    return { [Symbol.asyncIterator]: () => this.#turn(text, opts, true) };
  }

  /** Calls waiting for approval or for the client's result, in call order (see `Turn.waiting`). */
  get waiting(): readonly WaitingCall[] {
    return shownWaiting(this.#state);
  }

  /**
   * Answers waiting calls and goes on with the turn they ended: an approved call's tool runs (with
   * the input the model gave), a denial is the result the model reads, a client's result is the
   * tool's result. Once no call waits, the model is asked again, as in `send`. Throws a
   * `ToolAnswerError` (nothing runs) for a call that does not wait, or an answer of the wrong kind.
   */
  async answer(answers: readonly ToolAnswer[], opts: SendOptions = {}): Promise<Turn> {
    const turn = this.#turn(answers, opts);
    for (;;) {
      const next = await turn.next();
      if (next.done) return next.value;
    }
  }

  /** {@link answer} as an async iterable of the turn's events, like `stream`. */
  answerStream(answers: readonly ToolAnswer[], opts: SendOptions = {}): AsyncIterable<SessionEvent> {
    return { [Symbol.asyncIterator]: () => this.#turn(answers, opts, true) };
  }

  /**
   * Approves a call that waits for approval; its tool runs and the turn goes on (see {@link answer}).
   * With `input` (the input the person saw), it is refused unless the call still waits with it.
   */
  approve(toolCallId: string, opts: SendOptions & AnswerBinding = {}): Promise<Turn> {
    const [binding, rest] = splitBinding(opts);
    return this.answer([{ toolCallId, type: 'approve', ...binding }], rest);
  }

  /** Denies a waiting call (the model reads `reason`); the reason as a string or `{ reason }`, as `Sessions.deny`. */
  async deny(callId: string, given?: string | (DenyOptions & { reason?: string }), more?: DenyOptions): Promise<Turn> {
    const { reason, options } = denyArguments<DenyOptions>(given, more);
    const [binding, rest] = splitBinding(options);
    const answer = { toolCallId: callId, type: 'deny' as const, ...(reason === undefined ? {} : { reason }) };
    return this.answer([{ ...answer, ...binding }], rest);
  }

  /** Gives a client tool's result (a tool without `run`); the turn goes on (see {@link answer}). */
  addToolResult(toolCallId: string, output: unknown, opts: SendOptions & { isError?: boolean } = {}): Promise<Turn> {
    const { isError, ...rest } = opts;
    return this.answer([{ toolCallId, type: 'result', output, ...(isError ? { isError } : {}) }], rest);
  }

  #turn(
    input: string | readonly ToolAnswer[],
    opts: SendOptions,
    stopOnReturn = false,
  ): AsyncGenerator<SessionEvent, Turn> {
    assertLive(this.#state);
    // `send` and `answer` read only the result: their turn hands no events out (`stream` is the one that leaves early).
    return abortable(
      (inner) => runTurn(this.#state, this.model, input, inner, opts, {}, stopOnReturn),
      opts.signal,
      stopOnReturn,
    );
  }

  /**
   * Resolves once React has nothing left to do: sync work, passive effects and the updates they
   * schedule. Tool calls and `send` settle by themselves; call this after changing state from
   * outside (a timer, caller code) to read a fresh request.
   */
  async settled(): Promise<void> {
    this.#act();
    await settle(this.#state);
  }

  /** Subscribes to events: `'event'` for all of them, or one type. Returns the unsubscribe function. */
  on(type: 'event', listener: (event: SessionEvent) => void): () => void;
  on<T extends SessionEventType>(type: T, listener: (event: EventOf<T>) => void): () => void;
  on(type: string, listener: (event: never) => void): () => void {
    const { listeners } = this.#state;
    let set = listeners.get(type);
    if (!set) {
      set = new Set();
      listeners.set(type, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  /**
   * Re-renders the tree with a new element (new props, new code), keeping transcript, skills and
   * stores. Store definitions re-created by new code find their state by name. Also recovers an
   * agent that crashed.
   */
  async rerender(element: ReactNode): Promise<void> {
    assertLive(this.#state);
    const state = this.#state;
    state.element = element;
    newGeneration(state.stores);
    render(state);
    const problems = developerProblems(state);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    await settle(state);
    for (const reason of checkSkills(state)) warn(state, reason, 'rerender');
  }

  /**
   * The transcript, loaded skills (LRU order), store state, pending `contextChanged` lines and usage,
   * as JSON data. With `since`, only the messages from that transcript index on (the state is whole).
   */
  snapshot(options: { since?: number } = {}): SessionSnapshot {
    assertLive(this.#state);
    return takeSnapshot(this.#state, options.since);
  }

  /** Unmounts the tree (effects clean up) and ends the session. */
  dispose(): void {
    const state = this.#state;
    if (state.disposed) return;
    state.disposed = true;
    unmount(state);
    dropListeners(state);
  }

  /** Commits pending sync work and brings the session in step with the tree. */
  #act(): void {
    assertLive(this.#state);
    flush(this.#state);
    sync(this.#state);
  }
}

/**
 * Mounts an agent and returns its session. Mistakes in the tree (duplicate names, host components
 * outside `<Agent>`, a tool without `run`) fail here, with every component involved named.
 *
 * @example
 * const session = createSession(<ShopAgent />, { model: scriptedModel([{ text: 'Hi!' }]) });
 * const turn = await session.send('hello');
 */
export function createSession(element: ReactNode, options: SessionOptions = {}): Session {
  return new Session(element, options);
}

/**
 * Mounts an agent from a snapshot (the object or its JSON text): the transcript, the loaded skills
 * in LRU order (they mount from their initial state), the stores, and the pending `contextChanged`
 * lines. Refuses an unknown version or a tool result without its call; drops duplicate or unknown
 * loaded skills; answers calls left without results as interrupted.
 */
export function restoreSession(
  element: ReactNode,
  snapshot: SessionSnapshot | string,
  options: SessionOptions = {},
): Session {
  return new Session(element, options, parseSnapshot(snapshot));
}
