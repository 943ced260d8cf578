/**
 * The session `skilltree dev` runs: loads the agent module, sends messages, reloads the code
 * without losing the conversation, and keeps what only the playground needs (timeline, reload
 * notes). Everything about the session itself (busy, window, skills, mounts, stores) is read from
 * the session and its view when the page asks: nothing here mirrors it.
 */
import { relative } from 'node:path';
import type {
  FileInput,
  Model,
  Session,
  SessionEvent,
  SessionOptions,
  SessionView,
  ToolAnswer,
  Turn,
} from '@skilltree/core';
import { placeContext } from '@skilltree/core/provider';
import type { ReactElement } from 'react';
import { choosePrice, type PriceChoice } from '../../kit/cost.js';
import { errorMessage } from '../../kit/errors.js';
import { AgentLoader, type AgentModule, type CoreModule, explainError } from '../../kit/load-module.js';
import { CostLog } from './cost-log.js';
import { BusyError, type DevTurn, isRefusal } from './dev-turn.js';
import type { ChatNote, DevState, LiveEvent, ReloadInfo } from './protocol.js';
import { requestState } from './request-state.js';
import { RunLog } from './runs.js';
import { describeReload, sectionLines, Timeline } from './state.js';

/** What `skilltree dev` runs the session with: the agent module, the flags that shape it, a log. */
export interface DevSessionOptions {
  module: string;
  model?: Model;
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  /** `--price`; default: the `PRICES` entry of the model's name. */
  price?: PriceChoice;
  cwd?: string;
  log: (line: string) => void;
}

export class DevSession {
  readonly loader: AgentLoader;
  readonly #options: DevSessionOptions;
  #core: CoreModule | null = null;
  #session: Session | null = null;
  #off: (() => void) | null = null;
  /** The last module that loaded and rendered: new sessions (reset) start from it. */
  #agent: AgentModule | null = null;
  /** The element the session renders now: a reload whose code fails to render goes back to it. */
  #element: ReactElement | null = null;
  #model: Model | undefined;
  #timeline = new Timeline();
  #cost = new CostLog();
  #runs = new RunLog();
  #reloads: ReloadInfo[] = [];
  #notes: ChatNote[] = [];
  #turn = 0;
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

  /** A turn is running (the session's own flag). */
  get busy(): boolean {
    return this.#session?.busy ?? false;
  }

  /** Loads the module and mounts the agent. A module that fails to load is reported, not thrown. */
  async start(): Promise<void> {
    this.#core = await this.loader.core();
    try {
      const agent = await this.loader.load();
      this.#model = this.#options.model ?? agent.demo?.model();
      const element = agent.element();
      this.#attach(this.#core.createSession(element, this.#sessionOptions()));
      this.#agent = agent;
      this.#element = element;
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
    const text = explainError(error);
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
    const session = this.#session;
    this.#runs.event(event);
    switch (event.type) {
      case 'skill-loaded':
        this.#timeline.skillLoaded(event.name);
        break;
      case 'skill-unloaded':
        this.#timeline.skillUnloaded(event.name);
        break;
      case 'request':
        if (!session) break;
        this.#timeline.request(
          event.request,
          sectionLines(session.view()),
          {
            turn: this.#turn,
            step: event.step,
            transcript: session.transcript.length,
            generation: this.loader.generation,
          },
          placeContext,
        );
        break;
      case 'step-finish':
        this.#cost.step(this.#turn, event.step, event.usage);
        break;
      case 'text-delta':
        this.onLive({ type: 'text-delta', text: event.text, index: session?.transcript.length ?? 0 });
        return;
      case 'reasoning-delta':
        this.onLive({ type: 'reasoning-delta', text: event.text, index: session?.transcript.length ?? 0 });
        return;
      case 'reasoning':
        this.#timeline.reasoning(event.reasoning.text);
        break;
      case 'tool-call':
        this.onLive({ type: 'tool-call', toolCall: event.toolCall });
        break;
    }
    this.onChange();
  }

  /**
   * Sends a user message (with `files`, checked by core as `session.send` checks them) and runs the
   * turn. Resolves with the reply and the calls it ended waiting for; rejects on a model error, and
   * with core's `FileRejectedError` (nothing recorded) for a refused file.
   */
  send(text: string, files: readonly FileInput[] = []): Promise<DevTurn> {
    const opts = files.length > 0 ? { files } : {};
    return this.#run({ type: 'turn-start', text, ...(files.length > 0 ? { files: files.length } : {}) }, (session) =>
      session.send(text, opts),
    );
  }

  /**
   * Answers waiting calls (approve, deny, a client tool's result) and goes on with the turn, as
   * `session.answer` does. Rejects with core's `ToolAnswerError` (nothing runs) for a call that
   * does not wait, or an answer of the wrong kind.
   */
  answer(answers: readonly ToolAnswer[]): Promise<DevTurn> {
    const ids = Array.isArray(answers) ? answers.map((a) => String(a?.toolCallId)) : [];
    return this.#run({ type: 'turn-start', text: '', answering: ids }, (session) => session.answer(answers));
  }

  async #run(start: LiveEvent & { type: 'turn-start' }, turnOf: (session: Session) => Promise<Turn>): Promise<DevTurn> {
    await this.#reloading;
    const session = this.#session;
    if (!session) throw new Error(this.#loadError ?? 'The agent is not loaded.');
    if (session.busy) throw new BusyError('A turn is running: wait for the reply before sending another message.');
    this.#turn++;
    this.#error = null;
    this.onLive(start);
    // The session is busy from this call on (send and answer mark it before their first await).
    const turn = turnOf(session);
    this.onChange();
    try {
      const done = await turn;
      this.onLive({ type: 'turn-end', ok: true });
      return { text: done.text, steps: done.steps, waiting: done.waiting ?? [] };
    } catch (error) {
      const text = errorMessage(error);
      if (isRefusal(error)) {
        // A refused file or answer recorded nothing: no turn happened, nothing to note in the chat.
        this.#turn--;
      } else {
        this.#error = text;
        this.#notes.push({ kind: 'error', text, after: session.transcript.length, at: Date.now() });
        this.#options.log(`skilltree dev: the turn failed: ${text}`);
      }
      this.onLive({ type: 'turn-end', ok: false, error: text });
      throw error;
    } finally {
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
    if (this.busy) {
      this.#pendingReload ??= new Set();
      for (const file of files) this.#pendingReload.add(file);
      return this.#reloading;
    }
    this.#reloading = this.#reloading.then(() => this.#reload(files));
    return this.#reloading;
  }

  /**
   * The reload: the same session re-renders with the new element (`session.rerender`), so the
   * transcript, the loaded skills (LRU order, mount counts) and the stores (found by name when the
   * new code re-creates their definitions) stay as they are. New code that does not render is
   * reported and the previous element is rendered again.
   */
  async #reload(files: string[]): Promise<void> {
    const core = this.#core ?? (await this.loader.core());
    this.#core = core;
    const session = this.#session;
    const before = this.#view();
    const wasBroken = this.#loadError !== null;
    let agent: AgentModule;
    try {
      agent = await this.loader.load();
    } catch (error) {
      this.#fail('reload', error);
      return;
    }
    const element = agent.element();
    try {
      if (session && this.#model === undefined && agent.demo) {
        // The session was made without a model; one comes with the new code. A session's model is
        // fixed, so the conversation moves to a new session restored from this one.
        this.#model = agent.demo.model();
        const next = core.restoreSession(element, session.snapshot(), this.#sessionOptions());
        session.dispose();
        this.#attach(next);
      } else if (session) {
        await session.rerender(element);
      } else {
        if (this.#model === undefined) this.#model = agent.demo?.model();
        this.#attach(core.createSession(element, this.#sessionOptions()));
      }
    } catch (error) {
      if (session && !session.disposed && this.#element) {
        try {
          await session.rerender(this.#element);
        } catch {
          // The previous code fails now too (its render depends on something that changed): the
          // page shows the session as blocked, with the reason.
        }
      }
      this.#fail('reload', error);
      return;
    }
    this.#agent = agent;
    this.#element = element;
    this.#loadError = null;
    const current = this.#session!;
    const names = files.map((file) => relative(this.loader.dir, file) || file);
    const changes = describeReload(before, this.#view());
    const info: ReloadInfo = {
      generation: this.loader.generation,
      at: Date.now(),
      files: names,
      changes,
      transcriptLength: current.transcript.length,
    };
    this.#reloads.push(info);
    const what = names.length > 0 ? names.join(', ') : 'the agent';
    this.#notes.push({
      kind: 'reload',
      text: `Reloaded ${what}${wasBroken ? ' (the error is fixed)' : ''}: ${changes.join('; ')}`,
      after: current.transcript.length,
      at: info.at,
    });
    this.#options.log(`skilltree dev: reloaded ${what} — ${changes.join('; ')}`);
    this.onChange();
  }

  /** Starts over: a fresh session (empty transcript, no skills loaded, fresh stores and demo model). */
  async reset(): Promise<void> {
    if (this.busy) throw new BusyError('A turn is running: wait for it to finish before resetting.');
    await this.#reloading;
    const core = this.#core ?? (await this.loader.core());
    if (!this.#options.model && this.#agent?.demo) this.#model = this.#agent.demo.model();
    this.#timeline.reset();
    this.#cost.reset();
    this.#runs.reset();
    this.#reloads = [];
    this.#notes = [];
    this.#turn = 0;
    this.#error = null;
    if (!this.#agent) return void this.onChange();
    try {
      const element = this.#agent.element();
      const next = core.createSession(element, this.#sessionOptions());
      this.#session?.dispose();
      this.#attach(next);
      this.#element = element;
    } catch (error) {
      this.#fail('load', error);
    }
  }

  /** The session's view, or null when there is no session (or it is disposed). */
  #view(): SessionView | null {
    const session = this.#session;
    if (!session || session.disposed) return null;
    try {
      return session.view();
    } catch {
      // A pending update crashed the agent: that commit throws once, then the view reports the
      // session as blocked, with the reason.
      return session.view();
    }
  }

  state(): DevState {
    const session = this.#session;
    const view = this.#view();
    const { request, requestError } =
      session && view && !view.blocked ? requestState(session) : { request: null, requestError: view?.blocked ?? null };
    const model = this.#model;
    return {
      module: this.#options.module,
      generation: this.loader.generation,
      model: model ? (model.name ?? 'custom model') : 'none',
      scripted: model?.name === 'scripted',
      busy: view?.busy ?? false,
      error: this.#error,
      loadError: this.#loadError,
      view,
      transcript: session ? [...session.transcript] : [],
      // The view counts from the start of the whole transcript; the page gets the part in memory.
      windowStart: view && session ? view.window.start - session.transcriptStart : 0,
      request,
      // Where the context goes, as core places it for the providers: the page draws it there.
      placed: request && this.#core ? placeContext(request).placed : null,
      requestError,
      timeline: this.#timeline.entries,
      cost: this.#cost.view(choosePrice(this.#options.price, model?.name)),
      reloads: this.#reloads,
      notes: this.#notes,
      demoMessages: this.#agent?.demo?.messages ?? [],
      waiting: session && !session.disposed ? [...session.waiting] : [],
      subagentRuns: this.#runs.view(session && !session.disposed ? session.subagentRuns : []),
    };
  }

  async close(): Promise<void> {
    this.#off?.();
    this.#session?.dispose();
    this.#session = null;
    await this.loader.close();
  }
}
