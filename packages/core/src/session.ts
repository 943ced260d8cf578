/**
 * A session: one mounted agent tree, one transcript, one set of stores, and the loop that runs
 * model → tools → model until the model replies without tool calls.
 */
import { createElement, type ReactNode, StrictMode } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { captureSections, diffSections, lifecycleLine, type Sections } from './context-changes.js';
import { touch } from './lru.js';
import { escapeContext, readToolSpec, renderContext, renderSystem, toolSpec } from './prompt.js';
import { type Container, createContainer, hasPendingWork, reconciler } from './reconciler.js';
import { type Runtime, RuntimeContext, type SkillState } from './runtime.js';
import { readTree, type ToolEntry, type TreeSnapshot } from './serialize.js';
import type { AgentStoreDef } from './store.js';
import { decodeInput, runTool } from './tool-call.js';
import type {
  AssistantMessage,
  ContextPlacement,
  Message,
  Model,
  ModelRequest,
  ModelResponse,
  ToolCall,
  ToolMessage,
  ToolSpec,
  Usage,
} from './types.js';
import { windowStart } from './window.js';

/** Options of {@link createSession}. Lifecycle options override the `<Agent>` props of the same name. */
export interface SessionOptions {
  /** The model `send` and `stream` call. Default: a scripted model with no steps (it says so when called). */
  model?: Model;
  /** Model calls per `send` before it fails with a clear error. Default 20. */
  maxSteps?: number;
  /** Render inside `<StrictMode>` (effects run twice on mount, as in development React). Default false. */
  strictMode?: boolean;
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  contextLineLimit?: number;
  contextPlacement?: ContextPlacement;
  readToolName?: string;
  /** Milliseconds before a tool call that has not settled becomes an error result (a tool's `timeout` prop wins). Default 60 000. */
  toolTimeout?: number;
}

/** Options of one `send`/`stream`. */
export interface SendOptions {
  /** Aborts the model call and any running tool; the transcript stays valid. */
  signal?: AbortSignal;
}

/** What `send` resolves to. */
export interface Turn {
  /** The final reply: the text of the last assistant message. */
  text: string;
  /** How many model calls the turn took. */
  steps: number;
  /** The messages this turn added to the transcript, the user message first. */
  messages: Message[];
  /** Usage summed over the turn's model calls, where the model reports it. */
  usage?: Usage;
}

/** Everything a session reports while it works. `session.on('event', fn)` receives them all. */
export type SessionEvent =
  | { type: 'request'; request: ModelRequest; step: number }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'tool-result'; message: ToolMessage }
  | { type: 'context-changed'; lines: string[] }
  | { type: 'skill-loaded'; name: string }
  | { type: 'skill-unloaded'; name: string }
  | { type: 'message'; message: Message }
  | { type: 'store-changed'; name: string; state: unknown }
  | { type: 'warning'; message: string; source?: string }
  | { type: 'finish'; turn: Turn };

export type SessionEventType = SessionEvent['type'];
type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;

/** What `readSkill` did. */
export interface ReadResult {
  name: string;
  /** False when the skill was loaded already (the read only made it active). */
  mounted: boolean;
  /** Skills the read pushed out, least recently read first. */
  unloaded: string[];
}

/** The JSON a session snapshot holds. */
export interface SessionSnapshot {
  version: 1;
  transcript: Message[];
  loadedSkills: string[];
  stores: Record<string, unknown>;
}

/** Resolved lifecycle settings: session options, else `<Agent>` props, else defaults. */
export interface SessionConfig {
  maxLoadedSkills: number;
  maxTranscriptMessages: number;
  contextLineLimit: number;
  contextPlacement: ContextPlacement;
  readToolName: string;
  maxSteps: number;
  toolTimeout: number;
}

const DEFAULTS = {
  maxLoadedSkills: 3,
  maxTranscriptMessages: 60,
  contextLineLimit: 200,
  contextPlacement: 'end' as ContextPlacement,
  readToolName: 'read_skill',
};

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

let sessionIds = 0;

/**
 * A mounted agent. Create one with {@link createSession} or {@link restoreSession}.
 */
export class Session {
  readonly #options: SessionOptions;
  readonly #container: Container;
  readonly #runtime: Runtime;
  #element: ReactNode;
  #loaded: string[] = [];
  readonly #skillListeners = new Set<() => void>();
  readonly #transcript: Message[] = [];
  readonly #userIndices: number[] = [];
  #baseline: Sections = new Map();
  #pendingLifecycle: string[] = [];
  readonly #stores = new Map<AgentStoreDef<any>, StoreApi<any>>();
  readonly #storeNames = new Map<string, AgentStoreDef<any>>();
  #savedStores: Record<string, unknown> = {};
  readonly #listeners = new Map<string, Set<(event: any) => void>>();
  readonly #uncaught: unknown[] = [];
  readonly #skillErrors = new Map<string, unknown>();
  /** Tool name → the skill that rendered it most recently, for `Unknown tool` hints. */
  readonly #toolHistory = new Map<string, string>();
  #callIds = 0;
  #busy = false;
  #disposed = false;
  #lastSnap: TreeSnapshot | null = null;
  /** The snapshot whose tools were last added to the `Unknown tool` history. */
  #lastSnapForHistory: TreeSnapshot | null = null;
  #lastSystem = '';
  #lastTools: ToolSpec[] = [];
  #lastContext: { snap: TreeSnapshot | null; loaded: string[] | null; text: string } = {
    snap: null,
    loaded: null,
    text: '',
  };
  #mounts = new Map<string, number>();
  readonly #warnings: { message: string; source?: string }[] = [];

  /** @internal Use {@link createSession}. */
  constructor(element: ReactNode, options: SessionOptions, restore?: SessionSnapshot) {
    this.#options = options;
    this.#element = element;
    this.#runtime = {
      session: this,
      subscribeSkills: (listener) => {
        this.#skillListeners.add(listener);
        return () => this.#skillListeners.delete(listener);
      },
      skillState: (name) => this.#skillState(name),
      reportSkillError: (name, error) => {
        this.#skillErrors.set(name, error);
      },
    };
    this.#container = createContainer({ onUncaughtError: (error) => this.#uncaught.push(error) }, `st${++sessionIds}-`);
    if (restore) {
      this.#transcript.push(...restore.transcript);
      restore.transcript.forEach((message, index) => {
        if (message.role === 'user') this.#userIndices.push(index);
        // Go on numbering tool calls after the ones the transcript already has.
        for (const call of message.role === 'assistant' ? (message.toolCalls ?? []) : []) {
          const n = /^call_(\d+)$/.exec(call.id)?.[1];
          if (n) this.#callIds = Math.max(this.#callIds, Number(n));
        }
      });
      this.#savedStores = { ...restore.stores };
    }
    this.#render();
    if (restore) {
      const snap = this.#tree();
      const max = this.config.maxLoadedSkills;
      this.#loaded = restore.loadedSkills.filter((name) => snap.skillsByName.has(name)).slice(-max);
      for (const name of this.#loaded) this.#mounts.set(name, (this.#mounts.get(name) ?? 0) + 1);
      this.#notifySkills();
    }
    this.#validate();
    this.#baseline = this.#sections();
  }

  // ───────────────────────────── reading the session ─────────────────────────────

  /** Every message ever added, oldest first. Nothing is summarised or deleted. */
  get transcript(): readonly Message[] {
    return this.#transcript;
  }

  /** The loaded skills in LRU order: least recently read first, the active skill last. */
  get loadedSkills(): string[] {
    if (!this.#disposed) this.#tree();
    return [...this.#loaded];
  }

  /** The skill read last, or null when none is loaded. */
  get activeSkill(): string | null {
    return this.#loaded.length > 0 ? this.#loaded[this.#loaded.length - 1] : null;
  }

  /** The catalog: every `<Skill>` in the tree, in tree order. */
  get skills(): { name: string; description: string; state: SkillState; mounts: number }[] {
    return this.#tree().skills.map((s) => ({
      name: s.name,
      description: s.description,
      state: this.#skillState(s.name),
      mounts: this.#mounts.get(s.name) ?? 0,
    }));
  }

  /** The lifecycle settings in effect. */
  get config(): SessionConfig {
    const props = this.#tree(false).agentProps;
    const o = this.#options;
    const placement = o.contextPlacement ?? props.contextPlacement;
    return {
      maxLoadedSkills: positive(o.maxLoadedSkills ?? props.maxLoadedSkills, DEFAULTS.maxLoadedSkills),
      maxTranscriptMessages: positive(
        o.maxTranscriptMessages ?? props.maxTranscriptMessages,
        DEFAULTS.maxTranscriptMessages,
      ),
      contextLineLimit: positive(o.contextLineLimit ?? props.contextLineLimit, DEFAULTS.contextLineLimit),
      contextPlacement: placement === 'system' ? 'system' : DEFAULTS.contextPlacement,
      readToolName: (o.readToolName ?? props.readToolName) || DEFAULTS.readToolName,
      maxSteps: positive(o.maxSteps, 20),
      toolTimeout: positive(o.toolTimeout, 60_000),
    };
  }

  /** The model this session calls. */
  get model(): Model {
    return this.#options.model ?? defaultModel;
  }

  /** The host tree, as the serializer reads it (for inspectors and the testing package). */
  inspect(): TreeSnapshot {
    this.#assertLive();
    this.#flush();
    return this.#tree();
  }

  /** The next request, exactly as the model will receive it. Reflects every committed state change. */
  request(): ModelRequest {
    this.#assertLive();
    // Store updates commit on a microtask: flush so the request sees them now.
    this.#flush();
    const snap = this.#tree();
    this.#validate(snap);
    const config = this.config;
    if (snap !== this.#lastSnap) {
      this.#lastSystem = renderSystem(snap, config.readToolName, config.maxLoadedSkills);
      const tools: ToolSpec[] = snap.skills.length > 0 ? [readToolSpec(config.readToolName)] : [];
      for (const tool of snap.tools) tools.push(toolSpec(tool));
      this.#lastTools = tools;
      this.#lastSnap = snap;
    }
    const ctx = this.#lastContext;
    if (ctx.snap !== snap || ctx.loaded !== this.#loaded) {
      this.#lastContext = { snap, loaded: this.#loaded, text: renderContext(snap, this.#loaded) };
    }
    const start = windowStart(this.#transcript, this.#userIndices, config.maxTranscriptMessages);
    return {
      system: this.#lastSystem,
      context: this.#lastContext.text,
      messages: this.#transcript.slice(start),
      tools: this.#lastTools,
      contextPlacement: config.contextPlacement,
    };
  }

  /**
   * Reports something the developer should know that does not stop the agent (a skill folder that
   * bends a rule, say). Emits a `warning` event once per distinct message; see {@link warnings}.
   */
  warn(message: string, source?: string): void {
    if (this.#warnings.some((w) => w.message === message && w.source === source)) return;
    const warning = source === undefined ? { message } : { message, source };
    this.#warnings.push(warning);
    this.#emit({ type: 'warning', ...warning });
  }

  /** Every warning reported so far, oldest first. */
  get warnings(): readonly { message: string; source?: string }[] {
    return this.#warnings;
  }

  /** The store instance of `def` in this session, created on first use. */
  store<T>(def: AgentStoreDef<T>): StoreApi<T> {
    let api = this.#stores.get(def) as StoreApi<T> | undefined;
    if (api) return api;
    const other = this.#storeNames.get(def.name);
    if (other && other !== def) {
      throw new Error(
        `Two agent stores are named "${def.name}" in this session. Store names key snapshots: give each createAgentStore its own name.`,
      );
    }
    api = createStore(def.initializer);
    const saved = this.#savedStores[def.name];
    if (saved && typeof saved === 'object') api.setState(saved as Partial<T>);
    this.#stores.set(def, api);
    this.#storeNames.set(def.name, def);
    api.subscribe((state) => this.#emit({ type: 'store-changed', name: def.name, state }));
    return api;
  }

  /** The state of every store created so far, by name. */
  storeStates(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [def, api] of this.#stores) out[def.name] = api.getState();
    return out;
  }

  // ───────────────────────────── acting ─────────────────────────────

  /**
   * Loads `name` (mounting it) or, when loaded, makes it active. Changes are recorded with the next
   * user or tool message. Throws for a skill the tree does not have.
   */
  async readSkill(name: string): Promise<ReadResult> {
    this.#assertLive();
    this.#flush();
    const snap = this.#tree();
    if (!snap.skillsByName.has(name)) throw new Error(this.#unknownSkill(name, snap));
    const result = this.#load(name);
    await this.#settle();
    const failure = this.#takeSkillErrors();
    if (failure) throw new Error(failure);
    return result;
  }

  /**
   * Runs one tool call as if the model had made it, and appends its result to the transcript.
   * Use it to drive tools from code; `send` calls it for every call the model makes.
   */
  async callTool(call: ToolCall, opts: SendOptions = {}): Promise<ToolMessage> {
    this.#assertLive();
    return this.#executeCall(call, opts.signal);
  }

  /** Appends an assistant message (e.g. a scripted tool call in a test). Returns it with ids filled in. */
  addAssistantMessage(message: Omit<AssistantMessage, 'role'>): AssistantMessage {
    const toolCalls = message.toolCalls?.map((c) => ({ ...c, id: c.id || this.nextCallId() }));
    const out: AssistantMessage = { role: 'assistant', content: message.content ?? '' };
    if (toolCalls && toolCalls.length > 0) out.toolCalls = toolCalls;
    this.#push(out);
    return out;
  }

  /** A fresh tool-call id, unique within this session. */
  nextCallId(): string {
    return `call_${++this.#callIds}`;
  }

  /**
   * Sends a user message and runs the loop: model → tools → model, until the model replies without
   * tool calls. Rejects on a model error or when `maxSteps` is exceeded; the transcript stays valid.
   */
  async send(text: string, opts: SendOptions = {}): Promise<Turn> {
    this.#assertLive();
    if (this.#busy) throw new Error('A turn is already running in this session: await the previous send() first.');
    if (typeof text !== 'string') throw new Error(`send() needs the user's message as a string (got ${typeof text}).`);
    this.#busy = true;
    const first = this.#transcript.length;
    try {
      // Work scheduled since the last message (an effect's update, a timer) is recorded with this one.
      await this.#settle();
      this.#push({ role: 'user', content: this.#withChanges(text) });
      const { maxSteps } = this.config;
      const usage: Usage = {};
      let usageSeen = false;
      for (let step = 1; step <= maxSteps; step++) {
        const request = this.request();
        this.#emit({ type: 'request', request, step });
        const response = await this.#callModel(request, opts.signal);
        if (response.usage) {
          usageSeen = true;
          for (const key of Object.keys(response.usage) as (keyof Usage)[]) {
            usage[key] = (usage[key] ?? 0) + (response.usage[key] ?? 0);
          }
        }
        const calls = response.toolCalls.map((c) => ({ ...c, id: c.id || this.nextCallId() }));
        const assistant: AssistantMessage = { role: 'assistant', content: response.text };
        if (calls.length > 0) assistant.toolCalls = calls;
        this.#push(assistant);
        if (calls.length === 0) {
          const turn: Turn = { text: response.text, steps: step, messages: this.#transcript.slice(first) };
          if (usageSeen) turn.usage = usage;
          this.#emit({ type: 'finish', turn });
          return turn;
        }
        for (let i = 0; i < calls.length; i++) {
          if (opts.signal?.aborted) {
            for (const call of calls.slice(i)) this.#pushToolMessage(call, 'Not run: the turn was aborted.', true);
            throw abortError(opts.signal);
          }
          await this.#executeCall(calls[i], opts.signal);
        }
        if (opts.signal?.aborted) throw abortError(opts.signal);
      }
      throw new Error(
        `maxSteps reached: the model made ${maxSteps} calls without replying without tool calls. ` +
          'Raise createSession(..., { maxSteps }) or check the agent for a tool loop. The transcript is intact; send() again to continue.',
      );
    } finally {
      this.#busy = false;
    }
  }

  /** Like `send`, as an async iterable of the events the turn produces. Ends after `finish`; throws on failure. */
  stream(text: string, opts: SendOptions = {}): AsyncIterable<SessionEvent> {
    const session = this;
    return {
      [Symbol.asyncIterator]() {
        const queue: SessionEvent[] = [];
        let wake: (() => void) | null = null;
        let done = false;
        let failure: unknown = null;
        const off = session.on('event', (event) => {
          queue.push(event);
          wake?.();
        });
        session.send(text, opts).then(
          () => {
            done = true;
            off();
            wake?.();
          },
          (error) => {
            failure = error ?? new Error('send failed');
            done = true;
            off();
            wake?.();
          },
        );
        return {
          async next(): Promise<IteratorResult<SessionEvent>> {
            while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
            if (queue.length > 0) return { value: queue.shift()!, done: false };
            if (failure) {
              const error = failure;
              failure = null;
              throw error;
            }
            return { value: undefined, done: true };
          },
          async return(): Promise<IteratorResult<SessionEvent>> {
            off();
            return { value: undefined, done: true };
          },
        };
      },
    };
  }

  /**
   * Resolves once React has nothing left to do: sync work, passive effects and the updates they
   * schedule. Tool calls and `send` settle by themselves; call this after changing state from
   * outside (a timer, caller code) to read a fresh request.
   */
  async settled(): Promise<void> {
    this.#assertLive();
    await this.#settle();
  }

  /** Subscribes to events: `'event'` for all of them, or one type. Returns the unsubscribe function. */
  on(type: 'event', listener: (event: SessionEvent) => void): () => void;
  on<T extends SessionEventType>(type: T, listener: (event: EventOf<T>) => void): () => void;
  on(type: string, listener: (event: any) => void): () => void {
    let set = this.#listeners.get(type);
    if (!set) {
      set = new Set();
      this.#listeners.set(type, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Re-renders the tree with a new element (new props, new code), keeping transcript, skills and stores. */
  async rerender(element: ReactNode): Promise<void> {
    this.#assertLive();
    this.#element = element;
    this.#render();
    await this.#settle();
    this.#tree();
  }

  /** The transcript, loaded skills (LRU order) and store state, as JSON-serialisable data. */
  snapshot(): SessionSnapshot {
    const stores: Record<string, unknown> = { ...this.#savedStores };
    for (const [def, api] of this.#stores) {
      const json = JSON.stringify(api.getState());
      stores[def.name] = json === undefined ? null : JSON.parse(json);
    }
    return {
      version: 1,
      transcript: JSON.parse(JSON.stringify(this.#transcript)),
      loadedSkills: [...this.#loaded],
      stores,
    };
  }

  /** Unmounts the tree (effects clean up) and ends the session. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    reconciler.updateContainerSync(null, this.#container.fiberRoot, null, null);
    reconciler.flushSyncWork();
    this.#listeners.clear();
    this.#skillListeners.clear();
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#disposed;
  }

  // ───────────────────────────── internals ─────────────────────────────

  #render(): void {
    let tree: ReactNode = createElement(RuntimeContext.Provider, { value: this.#runtime }, this.#element);
    if (this.#options.strictMode) tree = createElement(StrictMode, null, tree);
    reconciler.updateContainerSync(tree, this.#container.fiberRoot, null, null);
    reconciler.flushSyncWork();
    this.#throwUncaught();
  }

  #assertLive(): void {
    if (this.#disposed) throw new Error('This session is disposed: create a new one with createSession().');
  }

  #throwUncaught(): void {
    if (this.#uncaught.length === 0) return;
    const error = this.#uncaught[0];
    this.#uncaught.length = 0;
    throw error instanceof Error ? error : new Error(String(error));
  }

  /** Commits sync work (store updates, setters called from outside React). */
  #flush(): void {
    reconciler.flushSyncWork();
    this.#throwUncaught();
  }

  /**
   * Waits until React has nothing left to do: sync work, passive effects, and the default-priority
   * updates effects schedule. Loops on React's own pending state, never on a tick count.
   */
  async #settle(): Promise<void> {
    for (let round = 0; round < 10_000; round++) {
      reconciler.flushSyncWork();
      const ranEffects = reconciler.flushPassiveEffects();
      reconciler.flushSyncWork();
      if (!ranEffects && !hasPendingWork(this.#container)) break;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.#throwUncaught();
  }

  /**
   * The tree as the serializer reads it. With `sync` (the default), a new snapshot also brings the
   * session in step with it: the `Unknown tool` history, and the loaded set (skills that left).
   */
  #tree(sync = true): TreeSnapshot {
    const snap = readTree(this.#container.host);
    if (sync && snap !== this.#lastSnapForHistory) {
      this.#lastSnapForHistory = snap;
      for (const tool of snap.tools) if (tool.skill) this.#toolHistory.set(tool.name, tool.skill);
      // A skill that left the tree while loaded leaves the loaded set too, and a smaller
      // maxLoadedSkills (new props) pushes out the least recently read.
      const max = this.config.maxLoadedSkills;
      const kept = this.#loaded.filter((name) => snap.skillsByName.has(name)).slice(-max);
      if (kept.length !== this.#loaded.length) {
        const gone = this.#loaded.filter((name) => !kept.includes(name));
        this.#loaded = kept;
        for (const name of gone) this.#unloaded(name);
        this.#notifySkills();
        return this.#tree();
      }
    }
    return snap;
  }

  #validate(snap: TreeSnapshot = this.#tree()): void {
    const problems = [...snap.problems];
    const read = this.config.readToolName;
    const clash = snap.skills.length > 0 ? snap.toolsByName.get(read) : undefined;
    if (clash) {
      problems.push(
        `Tool "${read}" (rendered by <${clash.owner}>) clashes with the built-in tool that reads skills. Rename it, or set <Agent readToolName="...">.`,
      );
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
  }

  #skillState(name: string): SkillState {
    const index = this.#loaded.indexOf(name);
    if (index === -1) return 'unloaded';
    return index === this.#loaded.length - 1 ? 'active' : 'loaded';
  }

  #notifySkills(): void {
    for (const listener of [...this.#skillListeners]) listener();
    this.#flush();
  }

  #load(name: string): ReadResult {
    const mounted = !this.#loaded.includes(name);
    const { order, evicted } = touch(this.#loaded, name, this.config.maxLoadedSkills);
    this.#loaded = order;
    this.#notifySkills();
    if (mounted) {
      this.#mounts.set(name, (this.#mounts.get(name) ?? 0) + 1);
      this.#pendingLifecycle.push(lifecycleLine(name, 'loaded'));
      this.#emit({ type: 'skill-loaded', name });
    }
    for (const gone of evicted) this.#unloaded(gone);
    return { name, mounted, unloaded: evicted };
  }

  #unloaded(name: string): void {
    this.#pendingLifecycle.push(lifecycleLine(name, 'unloaded'));
    this.#emit({ type: 'skill-unloaded', name });
  }

  /** Skills whose subtree threw while rendering are unloaded; returns a message naming them, or null. */
  #takeSkillErrors(): string | null {
    if (this.#skillErrors.size === 0) return null;
    const messages: string[] = [];
    for (const [name, error] of this.#skillErrors) {
      messages.push(`Skill "${name}" threw while rendering and was unloaded: ${errorMessage(error)}`);
      if (this.#loaded.includes(name)) {
        this.#loaded = this.#loaded.filter((n) => n !== name);
        this.#unloaded(name);
      }
    }
    this.#skillErrors.clear();
    this.#notifySkills();
    return messages.join('\n');
  }

  #sections(): Sections {
    return captureSections(this.#tree(false), this.#loaded);
  }

  /** Appends the `contextChanged` lines recorded since the last user or tool message. */
  #withChanges(text: string): string {
    const now = this.#sections();
    const lines = [...this.#pendingLifecycle, ...diffSections(this.#baseline, now, this.config.contextLineLimit)];
    this.#pendingLifecycle = [];
    this.#baseline = now;
    if (lines.length === 0) return text;
    this.#emit({ type: 'context-changed', lines });
    return text === '' ? lines.join('\n') : `${text}\n${lines.join('\n')}`;
  }

  #push(message: Message): void {
    if (message.role === 'user') this.#userIndices.push(this.#transcript.length);
    this.#transcript.push(message);
    this.#emit({ type: 'message', message });
  }

  #pushToolMessage(call: ToolCall, content: string, isError: boolean): ToolMessage {
    const message: ToolMessage = {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: this.#withChanges(escapeContext(content)),
    };
    if (isError) message.isError = true;
    this.#push(message);
    this.#emit({ type: 'tool-result', message });
    return message;
  }

  async #executeCall(call: ToolCall, signal?: AbortSignal): Promise<ToolMessage> {
    this.#emit({ type: 'tool-call', toolCall: call });
    let content: string;
    let isError = false;
    let fatal: unknown = null;
    try {
      this.#flush();
      const outcome =
        call.name === this.config.readToolName && this.#tree().skills.length > 0
          ? this.#readFromModel(call.input)
          : await runTool(this.#findTool(call.name), call, {
              session: this,
              signal,
              timeout: this.config.toolTimeout,
              skillInfo: (name) => ({ name, active: this.activeSkill === name }),
            });
      content = outcome.content;
      isError = outcome.isError;
    } catch (error) {
      content = `Tool "${call.name}" failed: ${errorMessage(error)}`;
      isError = true;
    }
    try {
      await this.#settle();
    } catch (error) {
      // The agent's own tree threw while rendering: record the result so the transcript stays
      // valid, then fail the turn.
      fatal = error;
      content = `${content}\nThe agent threw while rendering after this call: ${errorMessage(error)}`;
      isError = true;
    }
    const failure = this.#takeSkillErrors();
    if (failure) {
      content = `${content}\n${failure}`;
      isError = true;
    }
    const message = this.#pushToolMessage(call, content, isError);
    if (fatal) throw fatal;
    return message;
  }

  #findTool(name: string): ToolEntry | string {
    const snap = this.#tree();
    const tool = snap.toolsByName.get(name);
    if (tool) return tool;
    return this.#unknownTool(name, snap);
  }

  #unknownTool(name: string, snap: TreeSnapshot): string {
    const available = [...(snap.skills.length > 0 ? [this.config.readToolName] : []), ...snap.toolsByName.keys()];
    let hint = '';
    const owner = this.#toolHistory.get(name);
    if (owner && !this.#loaded.includes(owner)) {
      hint = ` (skill "${owner}" is not loaded; read it first with ${this.config.readToolName})`;
    } else if (owner) {
      hint = ` (skill "${owner}" is loaded but does not offer it right now)`;
    } else {
      const close = closest(name, available);
      if (close) hint = ` (did you mean "${close}"?)`;
    }
    return `Unknown tool: ${name}${hint}. Tools available now: ${available.join(', ') || 'none'}.`;
  }

  #unknownSkill(name: string, snap: TreeSnapshot): string {
    const names = snap.skills.map((s) => s.name);
    return `Unknown skill: "${name}". Skills: ${names.join(', ') || 'none'}.`;
  }

  #readFromModel(raw: unknown): { content: string; isError: boolean } {
    const read = this.config.readToolName;
    const decoded = decodeInput(read, raw);
    if (typeof decoded === 'string') return { content: decoded, isError: true };
    const name = (decoded.input as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') {
      return { content: `Invalid input for tool "${read}": name: expected a skill name (string).`, isError: true };
    }
    const snap = this.#tree();
    if (!snap.skillsByName.has(name)) return { content: this.#unknownSkill(name, snap), isError: true };
    const { mounted, unloaded } = this.#load(name);
    let content = mounted
      ? `Loaded skill "${name}"; it is now active.`
      : `Skill "${name}" was already loaded; it is now active.`;
    if (unloaded.length > 0) {
      content += ` Unloaded ${unloaded.map((n) => `"${n}"`).join(', ')} (least recently read).`;
    }
    return { content, isError: false };
  }

  async #callModel(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const model = this.model;
    if (signal?.aborted) throw abortError(signal);
    if (!model.stream) {
      const response = await model.generate(request, { signal });
      if (!response || typeof response !== 'object') {
        throw new Error(`Model ${model.name ?? ''} returned ${String(response)} instead of { text, toolCalls }.`);
      }
      const text = typeof response.text === 'string' ? response.text : '';
      if (text) this.#emit({ type: 'text-delta', text });
      return { text, toolCalls: Array.isArray(response.toolCalls) ? response.toolCalls : [], usage: response.usage };
    }
    let text = '';
    const toolCalls: ToolCall[] = [];
    let usage: Usage | undefined;
    for await (const part of model.stream(request, { signal })) {
      if (part.type === 'text-delta') {
        text += part.text;
        this.#emit({ type: 'text-delta', text: part.text });
      } else if (part.type === 'tool-call') {
        toolCalls.push({ id: part.id, name: part.name, input: part.input });
      } else if (part.type === 'finish') {
        usage = part.usage;
      }
    }
    return { text, toolCalls, usage };
  }

  #emit(event: SessionEvent): void {
    for (const type of ['event', event.type]) {
      const set = this.#listeners.get(type);
      if (!set) continue;
      for (const listener of [...set]) {
        try {
          listener(event);
        } catch (error) {
          // A listener's bug must not break the turn or lose transcript data.
          console.error(`skilltree: a session "${type}" listener threw:`, error);
        }
      }
    }
  }
}

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === 'string' ? reason : 'The turn was aborted.');
  error.name = 'AbortError';
  return error;
}

/** The closest name within edit distance 2, for "did you mean" hints. */
function closest(name: string, candidates: string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

const defaultModel: Model = {
  name: 'none',
  generate: () =>
    Promise.reject(
      new Error('No model: pass { model } to createSession, e.g. scriptedModel([...]) or anthropic({ model }).'),
    ),
};

/**
 * Mounts an agent and returns its session.
 *
 * @example
 * const session = createSession(<ShopAgent />, { model: scriptedModel([{ text: 'Hi!' }]) });
 * const turn = await session.send('hello');
 */
export function createSession(element: ReactNode, options: SessionOptions = {}): Session {
  return new Session(element, options);
}

/** Mounts an agent from a snapshot (the object or its JSON text): the transcript, the loaded skills in LRU order, and the stores. */
export function restoreSession(
  element: ReactNode,
  snapshot: SessionSnapshot | string,
  options: SessionOptions = {},
): Session {
  const data = typeof snapshot === 'string' ? (JSON.parse(snapshot) as SessionSnapshot) : snapshot;
  if (
    !data ||
    typeof data !== 'object' ||
    !Array.isArray(data.transcript) ||
    !Array.isArray(data.loadedSkills) ||
    (data.stores !== undefined && (typeof data.stores !== 'object' || data.stores === null))
  ) {
    throw new Error(
      'restoreSession needs a snapshot from session.snapshot(): { version: 1, transcript: [], loadedSkills: [], stores: {} }.',
    );
  }
  for (const [index, message] of data.transcript.entries()) {
    if (!message || !['user', 'assistant', 'tool'].includes((message as Message).role)) {
      throw new Error(`restoreSession: transcript[${index}] is not a message (role must be user, assistant or tool).`);
    }
  }
  return new Session(element, options, {
    version: 1,
    transcript: data.transcript,
    loadedSkills: data.loadedSkills,
    stores: data.stores ?? {},
  });
}
