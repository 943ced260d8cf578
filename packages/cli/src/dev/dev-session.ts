/**
 * The session `skilltree dev` runs: loads the agent module, sends messages, reloads the code
 * without losing the conversation, and keeps everything the playground shows.
 */
import { relative } from 'node:path';
import type { Model, Session, SessionEvent, SessionOptions } from '@skilltree/core';
import type { ReactNode } from 'react';
import { AgentLoader, type CoreModule, type DemoExport, explainRenderError } from './loader.js';
import type { ChatNote, DevState, LiveEvent, ReloadInfo, TreeView } from './protocol.js';
import { describeReload, jsonSafe, skillViews, Timeline, treeView } from './state.js';

export interface DevSessionOptions {
  module: string;
  model?: Model;
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  cwd?: string;
  log: (line: string) => void;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Thrown by `send` while a turn runs. */
export class BusyError extends Error {}

export class DevSession {
  readonly loader: AgentLoader;
  readonly #options: DevSessionOptions;
  #core: CoreModule | null = null;
  #session: Session | null = null;
  #off: (() => void) | null = null;
  #element: ReactNode = null;
  #demo: DemoExport | null = null;
  #model: Model | undefined;
  #mounts = new Map<string, number>();
  #timeline = new Timeline();
  #reloads: ReloadInfo[] = [];
  #notes: ChatNote[] = [];
  #turn = 0;
  #busy = false;
  #error: string | null = null;
  #loadError: string | null = null;
  #pendingReload: Set<string> | null = null;
  #reloading: Promise<void> = Promise.resolve();
  /** Called after anything the page shows changed. */
  onChange: () => void = () => {};
  /** Called for events the page shows live (streamed text). */
  onLive: (event: LiveEvent) => void = () => {};

  constructor(options: DevSessionOptions) {
    this.#options = options;
    this.loader = new AgentLoader(options.module, options.cwd);
  }

  get session(): Session | null {
    return this.#session;
  }

  get loadError(): string | null {
    return this.#loadError;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** Loads the module and mounts the agent. A module that fails to load is reported, not thrown. */
  async start(): Promise<void> {
    this.#core = await this.loader.core();
    try {
      const loaded = await this.loader.load();
      this.#element = loaded.element;
      this.#demo = loaded.demo;
      this.#model = this.#options.model ?? this.#demo?.model?.();
      this.#attach(this.#core.createSession(this.#element, this.#sessionOptions()));
    } catch (error) {
      this.#fail('load', error);
    }
  }

  #sessionOptions(): SessionOptions {
    const out: SessionOptions = {};
    if (this.#model) out.model = this.#model;
    if (this.#options.maxLoadedSkills !== undefined) out.maxLoadedSkills = this.#options.maxLoadedSkills;
    if (this.#options.maxTranscriptMessages !== undefined) {
      out.maxTranscriptMessages = this.#options.maxTranscriptMessages;
    }
    return out;
  }

  #fail(kind: 'load' | 'reload', error: unknown): void {
    const text = explainRenderError(error);
    this.#loadError = text;
    this.#notes.push({
      kind: 'reload-error',
      text:
        kind === 'load'
          ? `Could not load the agent: ${text}`
          : `Reload failed, still running the previous code: ${text}`,
      after: this.#session?.transcript.length ?? 0,
      at: Date.now(),
    });
    this.#options.log(`skilltree dev: ${kind === 'load' ? 'could not load the agent' : 'reload failed'}: ${text}`);
    this.onChange();
  }

  #attach(session: Session): void {
    this.#off?.();
    this.#session = session;
    this.#off = session.on('event', (event: SessionEvent) => this.#onEvent(event));
    this.onChange();
  }

  #onEvent(event: SessionEvent): void {
    switch (event.type) {
      case 'skill-loaded':
        this.#mounts.set(event.name, (this.#mounts.get(event.name) ?? 0) + 1);
        this.#timeline.skillLoaded(event.name);
        break;
      case 'skill-unloaded':
        this.#timeline.skillUnloaded(event.name);
        break;
      case 'request':
        this.#timeline.request(
          event.request,
          {
            turn: this.#turn,
            step: event.step,
            transcript: this.#session?.transcript.length ?? 0,
            generation: this.loader.generation,
          },
          this.#core!.placeContext,
        );
        break;
      case 'text-delta':
        this.onLive({ type: 'text-delta', text: event.text, index: this.#session?.transcript.length ?? 0 });
        return;
      case 'tool-call':
        this.onLive({ type: 'tool-call', toolCall: event.toolCall });
        break;
    }
    this.onChange();
  }

  /** Sends a user message and runs the turn. Resolves with the reply; rejects on a model error. */
  async send(text: string): Promise<{ text: string; steps: number }> {
    await this.#reloading;
    const session = this.#session;
    if (!session) throw new Error(this.#loadError ?? 'The agent is not loaded.');
    if (this.#busy) throw new BusyError('A turn is running: wait for the reply before sending another message.');
    this.#busy = true;
    this.#turn++;
    this.#error = null;
    this.onLive({ type: 'turn-start', text });
    this.onChange();
    try {
      const turn = await session.send(text);
      this.onLive({ type: 'turn-end', ok: true });
      return { text: turn.text, steps: turn.steps };
    } catch (error) {
      const text = message(error);
      this.#error = text;
      this.#notes.push({ kind: 'error', text, after: session.transcript.length, at: Date.now() });
      this.#options.log(`skilltree dev: the turn failed: ${text}`);
      this.onLive({ type: 'turn-end', ok: false, error: text });
      throw error;
    } finally {
      this.#busy = false;
      this.onChange();
      if (this.#pendingReload) {
        const files = [...this.#pendingReload];
        this.#pendingReload = null;
        void this.reload(files);
      }
    }
  }

  /** Re-imports the module and re-renders the agent with the new code, keeping the conversation. */
  reload(files: string[]): Promise<void> {
    if (this.#busy) {
      this.#pendingReload ??= new Set();
      for (const file of files) this.#pendingReload.add(file);
      return this.#reloading;
    }
    this.#reloading = this.#reloading.then(() => this.#reload(files));
    return this.#reloading;
  }

  async #reload(files: string[]): Promise<void> {
    const core = this.#core ?? (await this.loader.core());
    this.#core = core;
    const old = this.#session;
    const before = this.#views();
    let next: Session;
    try {
      const loaded = await this.loader.load();
      // A module that had no demo model (or failed to load at start) may have one now.
      if (!this.#model && loaded.demo?.model) this.#model = loaded.demo.model();
      next = old
        ? core.restoreSession(loaded.element, old.snapshot(), this.#sessionOptions())
        : core.createSession(loaded.element, this.#sessionOptions());
      this.#element = loaded.element;
      this.#demo = loaded.demo;
    } catch (error) {
      this.#fail('reload', error);
      return;
    }
    const wasBroken = this.#loadError !== null;
    this.#loadError = null;
    old?.dispose();
    this.#attach(next);
    const after = this.#views();
    const names = files.map((file) => relative(this.loader.dir, file) || file);
    const changes = describeReload(before, after);
    const info: ReloadInfo = {
      generation: this.loader.generation,
      at: Date.now(),
      files: names,
      changes,
      transcriptLength: next.transcript.length,
    };
    this.#reloads.push(info);
    const what = names.length > 0 ? names.join(', ') : 'the agent';
    this.#notes.push({
      kind: 'reload',
      text: `Reloaded ${what}${wasBroken ? ' (the error is fixed)' : ''}: ${changes.join('; ')}`,
      after: next.transcript.length,
      at: info.at,
    });
    this.#options.log(`skilltree dev: reloaded ${what} — ${changes.join('; ')}`);
    this.onChange();
  }

  /** Starts over: a fresh session (empty transcript, no skills loaded, fresh stores and demo model). */
  async reset(): Promise<void> {
    if (this.#busy) throw new BusyError('A turn is running: wait for it to finish before resetting.');
    await this.#reloading;
    const core = this.#core ?? (await this.loader.core());
    if (!this.#options.model && this.#demo?.model) this.#model = this.#demo.model();
    this.#mounts.clear();
    this.#timeline.reset();
    this.#reloads = [];
    this.#notes = [];
    this.#turn = 0;
    this.#error = null;
    if (this.#session === null && this.#loadError) return void this.onChange();
    try {
      const next = core.createSession(this.#element, this.#sessionOptions());
      this.#session?.dispose();
      this.#attach(next);
    } catch (error) {
      this.#fail('load', error);
    }
  }

  #views(): { request: DevState['request']; tree: TreeView | null } {
    const session = this.#session;
    if (!session) return { request: null, tree: null };
    let request: DevState['request'] = null;
    try {
      request = session.request();
    } catch {
      // Reported in state().
    }
    return { request, tree: treeView(session.view()) };
  }

  state(): DevState {
    const session = this.#session;
    let request: DevState['request'] = null;
    let requestError: string | null = null;
    let windowStart = 0;
    if (session) {
      try {
        request = session.request();
        windowStart = session.transcript.length - request.messages.length;
      } catch (error) {
        requestError = message(error);
      }
    }
    const view = session?.view();
    return {
      module: this.#options.module,
      generation: this.loader.generation,
      model: this.#model ? (this.#model.name ?? 'custom model') : 'none',
      busy: this.#busy,
      error: this.#error,
      loadError: this.#loadError,
      config: session ? session.config : null,
      transcript: session ? [...session.transcript] : [],
      windowStart,
      request,
      requestError,
      skills: view ? skillViews(view) : [],
      loaded: session ? session.loadedSkills : [],
      stores: session ? (jsonSafe(session.storeStates()) as Record<string, unknown>) : {},
      tree: view ? treeView(view) : null,
      timeline: this.#timeline.entries,
      reloads: this.#reloads,
      notes: this.#notes,
      demoMessages: this.#demo?.messages ?? [],
    };
  }

  async close(): Promise<void> {
    this.#off?.();
    this.#session?.dispose();
    this.#session = null;
    await this.loader.close();
  }
}
