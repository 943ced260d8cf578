/**
 * `renderAgent`: mount an agent for a test and drive it the way a model would.
 */
import {
  createSession,
  type Message,
  type Model,
  type ModelRequest,
  type ReadResult,
  restoreSession,
  type SendOptions,
  type Session,
  type SessionOptions,
  type SessionSnapshot,
  type SubagentRun,
  scriptedModel,
  type ToolMessage,
  type Turn,
  type WaitingCall,
} from '@skilltree/core';
import type { ReactNode } from 'react';
import { act, assertOutsideAct, withoutActEnvironment } from './act.js';
import { track, untrack } from './cleanup.js';
import { plainMessage, plainRun, plainTurn } from './messages.js';
import { type PrettyOptions, prettyRequest } from './pretty.js';
import { type BoundQueries, bindQueries } from './queries.js';
import { readView, type SkillView, tagSkill, type ViewSource } from './view.js';

/** Options of {@link renderAgent}: every `createSession` option; `model` defaults to a scripted model with no steps. */
export interface RenderAgentOptions extends SessionOptions {
  /** Start from a `session.snapshot()` (or its JSON text): transcript, loaded skills and stores. */
  snapshot?: SessionSnapshot | string;
}

/** A rendered agent: the queries, and the actions a model (or a user) can take. */
export interface AgentHandle extends BoundQueries {
  /** The session under test, for anything the handle does not wrap (`store(def)`, `on(...)`, `snapshot()`). */
  readonly session: Session;
  /** The model `say` calls: the one you passed, else an empty `scriptedModel([])`. */
  readonly model: Model;
  /**
   * Every message of the transcript, oldest first (the request carries only its newest window), as
   * core records them: `content` is typed parts, the shape of `model.requests[i].messages`. Read a
   * message's text with core's `textOf`.
   */
  readonly transcript: readonly Message[];
  /**
   * Every subagent run of the session, in the order they started (nested runs included): name,
   * status, the run's own transcript (core messages, as {@link transcript}), usage and result.
   */
  readonly subagentRuns: readonly SubagentRun[];
  /**
   * The latest run of subagent `name`. Throws, naming the runs there were, when it never ran.
   *
   * @example
   * await agent.say('research lamps');
   * expect(agent.getSubagentRun('researcher').result).toBe('Three lamps.');
   */
  getSubagentRun(name: string): SubagentRun;
  /** True after `unmount()` (or `cleanup()`). */
  readonly unmounted: boolean;
  /**
   * Loads a skill from code (or makes it active when loaded), as `session.readSkill` does; waits
   * until the skill's effects have settled. Throws for a skill the catalog does not have.
   */
  readSkill(name: string): Promise<ReadResult>;
  /**
   * Calls a tool as the model would: appends an assistant message holding the call, runs it
   * (input validation, `Unknown tool`, `contextChanged` lines, all as in a real turn) and resolves
   * with the tool message it appended, as core records it (`textOf(result)` is the text the model
   * reads). A failing tool resolves with an error message (`isError`, `errorKind`); it does not reject.
   */
  callTool(name: string, input?: unknown): Promise<ToolMessage>;
  /**
   * Sends a user message and runs the model loop (model → tools → model) until the model replies
   * without tool calls. Rejects, printing the request, when the scripted model runs out of steps.
   * Resolves with the session's `Turn`: its `messages` are core messages, deep-equal to the same
   * messages in the model's recorded requests.
   */
  say(text: string, options?: { files?: SendOptions['files'] }): Promise<Turn>;
  /** Calls waiting for approval or for the client's result (see `needsApproval`, and tools without `run`). */
  readonly waiting: readonly WaitingCall[];
  /** Approves a waiting call: its tool runs and the turn goes on with the model, as `say` does. */
  approve(toolCallId: string): Promise<Turn>;
  /** Denies a waiting call: the model reads the denial (and `reason`) as the tool's result. */
  deny(toolCallId: string, reason?: string): Promise<Turn>;
  /** Gives a client tool's result: the turn goes on with the model. */
  addToolResult(toolCallId: string, output: unknown): Promise<Turn>;
  /** The next request, exactly as the model would receive it, as a plain deterministic copy (snapshot it). */
  request(): ModelRequest;
  /** A catalog skill by exact name: `{ name, description, loaded, active, text, tools }`. Throws for an unknown name. */
  getSkill(name: string): SkillView;
  /** Prints the request as the model receives it (like `screen.debug()`). */
  debug(options?: PrettyOptions): void;
  /**
   * Renders a new element into the same session (new props, new code): transcript, loaded skills
   * and stores are kept. Synchronous like `renderAgent`: the tree is updated (and an error the new
   * tree throws while rendering is thrown) when it returns. The promise it returns resolves once
   * the session has settled; awaiting it is optional.
   */
  rerender(element: ReactNode): Promise<void>;
  /** Unmounts the tree (effects clean up) and disposes the session. Queries then see an empty tree. */
  unmount(): void;
}

const HANDLE = Symbol.for('skilltree.testing.agent');

/** True for a handle returned by {@link renderAgent}. */
export function isAgentHandle(value: unknown): value is AgentHandle {
  return !!value && typeof value === 'object' && (value as { [HANDLE]?: boolean })[HANDLE] === true;
}

/** @internal The view source behind a handle (queries, matchers). */
export function sourceOf(agent: AgentHandle): ViewSource {
  return (agent as unknown as { [SOURCE_KEY]: ViewSource })[SOURCE_KEY];
}
const SOURCE_KEY = Symbol.for('skilltree.testing.agentSource');

function outOfSteps(error: unknown): boolean {
  return error instanceof Error && error.message.includes('scriptedModel ran out of steps');
}

/**
 * Mounts an agent in a fresh session and returns a handle to query and drive it. Synchronous: the
 * tree has rendered and its mount effects have run when it returns.
 *
 * @example
 * const agent = renderAgent(<ShopAgent />);
 * await agent.readSkill('shopping');
 * const result = await agent.callTool('add_to_cart', { sku: 'lamp' });
 * expect(agent.getByText('Cart: lamp')).toBeTruthy();
 */
export function renderAgent(element: ReactNode, options: RenderAgentOptions = {}): AgentHandle {
  const defaultModel = options.model === undefined;
  const model = options.model ?? scriptedModel([]);
  let session!: Session;
  const { snapshot, ...sessionOptions } = options;
  act(() => {
    session = snapshot
      ? restoreSession(element, snapshot, { ...sessionOptions, model })
      : createSession(element, { ...sessionOptions, model });
  });
  let unmounted = false;
  const source: ViewSource = () => readView(unmounted ? null : session);
  const queries = bindQueries(source);

  const assertMounted = (method: string) => {
    if (unmounted)
      throw new Error(`agent.${method}() was called after unmount(): render a new agent with renderAgent().`);
  };
  const assertCanRun = (method: string) => {
    assertMounted(method);
    assertOutsideAct(`agent.${method}()`);
  };

  const handle: AgentHandle = {
    ...queries,
    get session() {
      return session;
    },
    model,
    get transcript() {
      return session.transcript.map(plainMessage);
    },
    get subagentRuns() {
      return session.subagentRuns.map(plainRun);
    },
    getSubagentRun(name) {
      const runs = session.subagentRuns.filter((run) => run.name === name);
      const run = runs[runs.length - 1];
      if (run) return plainRun(run);
      const names = [...new Set(session.subagentRuns.map((r) => r.name))].join(', ') || 'none';
      throw new Error(
        `agent.getSubagentRun(${JSON.stringify(name)}): subagent ${name} never ran in this session. Subagents that ran: ${names}.`,
      );
    },
    get unmounted() {
      return unmounted;
    },
    async readSkill(name) {
      assertCanRun('readSkill');
      return withoutActEnvironment(() => session.readSkill(name));
    },
    async callTool(name, input = {}) {
      assertCanRun('callTool');
      const call = { id: session.nextCallId(), name, input };
      session.addAssistantMessage({ content: '', toolCalls: [call] });
      return plainMessage(await withoutActEnvironment(() => session.callTool(call)));
    },
    get waiting() {
      return session.waiting;
    },
    async approve(toolCallId) {
      assertCanRun('approve');
      return plainTurn(await withoutActEnvironment(() => session.approve(toolCallId)));
    },
    async deny(toolCallId, reason) {
      assertCanRun('deny');
      return plainTurn(await withoutActEnvironment(() => session.deny(toolCallId, reason)));
    },
    async addToolResult(toolCallId, output) {
      assertCanRun('addToolResult');
      return plainTurn(await withoutActEnvironment(() => session.addToolResult(toolCallId, output)));
    },
    async say(text, sayOptions = {}) {
      assertCanRun('say');
      try {
        return plainTurn(await withoutActEnvironment(() => session.send(text, sayOptions)));
      } catch (error) {
        if (!outOfSteps(error)) throw error;
        const hint = defaultModel
          ? `agent.say(${JSON.stringify(text)}) asked the model for a response, but renderAgent() was given no model. ` +
            "Script one: renderAgent(<MyAgent />, { model: scriptedModel([readSkill('…'), callTool('…', {…}), reply('…')]) })."
          : `agent.say(${JSON.stringify(text)}): ${(error as Error).message}`;
        const wrapped = new Error(
          `${hint}\n\nThe request it could not answer:\n\n${prettyRequest(session.request())}`,
          {
            cause: error,
          },
        );
        throw wrapped;
      }
    },
    request() {
      return source().request;
    },
    getSkill(name) {
      const view = source();
      const skill = view.skills.find((s) => s.name === name);
      if (!skill) {
        const names = view.skills.map((s) => s.name).join(', ') || 'none';
        throw new Error(
          `agent.getSkill(${JSON.stringify(name)}): no such skill${view.unmounted ? ' (the agent is unmounted)' : ''}. Skills in the catalog: ${names}.`,
        );
      }
      return tagSkill(skill, source);
    },
    debug(debugOptions) {
      const view = source();
      console.log(
        view.unmounted
          ? '(the agent is unmounted: nothing is rendered)'
          : prettyRequest(view.request, { ...debugOptions, maxLength: debugOptions?.maxLength ?? Infinity }),
      );
    },
    rerender(next) {
      assertMounted('rerender');
      let pending: Promise<void> | undefined;
      try {
        act(() => {
          pending = session.rerender(next);
        });
      } catch (error) {
        // `act` rethrows the render error; the session's own promise must not surface it twice.
        pending?.catch(() => {});
        throw error;
      }
      return pending ?? Promise.resolve();
    },
    unmount() {
      if (unmounted) return;
      unmounted = true;
      untrack(handle);
      act(() => session.dispose());
    },
  };
  Object.defineProperty(handle, HANDLE, { value: true });
  Object.defineProperty(handle, SOURCE_KEY, { value: source });
  track(handle);
  return handle;
}
