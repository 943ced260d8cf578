/**
 * The host components: the only elements the serializer reads. Everything else in an agent's tree
 * is ordinary React (components, hooks, context providers, Suspense). The hooks that read the
 * session (`useSession`, `useSkill`, `useAgentStore`) live here too.
 */
import {
  Component,
  createElement,
  type ErrorInfo,
  type ReactNode,
  Suspense,
  useContext,
  useLayoutEffect,
  useMemo,
  useReducer,
} from 'react';
import { useStore } from 'zustand';
import type { CatalogOptions } from '../types/catalog.js';
import type { LifecycleOptions } from '../types/options.js';
import type { AgentStoreDef } from './agent-store.js';
import { markInternal } from './owner.js';
import {
  type ChatInfo,
  type Runtime,
  RuntimeContext,
  type SessionHandle,
  SkillContext,
  type SkillInfo,
} from './runtime.js';

/**
 * Props of {@link Agent}. Session options of the same name take precedence. `catalog`,
 * `catalogListLimit` and `skillSearch` say how the model finds skills (docs/catalogs.md).
 */
export interface AgentProps extends LifecycleOptions, CatalogOptions {
  children?: ReactNode;
}

/** The root of an agent. Its props configure the lifecycle; its children are the prompt. */
export const Agent = markInternal(function Agent({ children, ...props }: AgentProps) {
  return createElement('skilltree-agent', props, children);
});

/** Props of {@link Instructions} and {@link Text}. */
export interface TextProps {
  children?: ReactNode;
}

/**
 * Instructions for the model. Outside any skill they go to the system prompt; inside a skill they go
 * to that skill's part of `<current_context>`.
 */
// Host element types, like <Tool>: one fiber each in a mounted chat, not two (see Tool).
export const Instructions = 'skilltree-instructions' as unknown as (props: TextProps) => ReactNode;

/**
 * Text for the model's `<current_context>`: the agent's part outside any skill, the skill's part inside one.
 * Lines a tool call adds are recorded in the transcript as `contextChanged` lines.
 */
export const Text = 'skilltree-text' as unknown as (props: TextProps) => ReactNode;

/** What a tool's `run` receives besides its input. */
export interface ToolContext {
  /** The session the call runs in: use it with `store.of(ctx)` or `session.store(def)`. */
  session: SessionHandle;
  /** The skill that rendered the tool, or `null` for an agent-level tool. */
  skill: SkillInfo | null;
  /**
   * The chat the call runs in: `{ id, owner }` as the caller passed them to `createSessions`'
   * `send`/`stream` (the server passes the chat id and the `authorize` user), or `null` in a
   * session made with `createSession`/`restoreSession`, which serves no chat. Use it to act for
   * the right user, e.g. `orders.list({ user: ctx.chat?.owner })`.
   */
  chat: ChatInfo | null;
  /** Aborted when the call times out or the turn is aborted. */
  signal: AbortSignal;
  /** The id of the tool call: the model's own when it is safe and unused, else one the session made. */
  toolCallId: string;
  /**
   * The same on every attempt of this call, and different for every other call: pass it to a
   * service with side effects (a payment, an email) so that a call run again after a crash (a
   * durable turn recovered in another process, see `createSessions`' `engine`) takes effect once.
   * For a chat of `createSessions` it is the chat id, its incarnation and the call id.
   */
  idempotencyKey: string;
  /**
   * The most characters the result may have (the session's `maxToolResultChars`): a longer one is
   * cut, with a note. A tool that can return its output in parts sizes a part by it.
   */
  maxResultChars: number;
}

/** Anything with a zod-compatible `safeParse`; zod 4 schemas (classic and mini) qualify. */
export interface InputSchema<Output = unknown> {
  safeParse(value: unknown): { success: true; data: Output } | { success: false; error: unknown };
  /** Zod's inferred output type. */
  _zod?: { output: Output };
}

type InferInput<S> = S extends { _zod: { output: infer O } } ? O : S extends InputSchema<infer O> ? O : unknown;

/** Props of {@link Tool}. */
export interface ToolProps<S extends InputSchema = InputSchema<Record<string, unknown>>> {
  /** Matches `^[a-zA-Z0-9_-]{1,64}$`, unique among the tools rendered at the same time. */
  name: string;
  description: string;
  /** A zod object schema. Input that fails it gets an error result naming each failing field. */
  input?: S;
  /**
   * Runs the tool. Returns a string, any JSON-serialisable value, or `toolResult(...)` with files;
   * may be async. A tool without `run` runs in the client: a call of it ends the turn waiting for
   * its result (`addToolResult` on the session, or useChat's `addToolResult` through the server).
   */
  run?: (input: InferInput<S>, ctx: ToolContext) => unknown;
  /**
   * A person must approve each call before it runs: `true`, or a function of the (validated) input
   * and the context that says whether this call needs it. A call that needs approval is recorded and
   * the turn ends waiting; `approve` or `deny` on the session goes on with it. See docs/approvals.md.
   */
  needsApproval?: boolean | ((input: InferInput<S>, ctx: ToolContext) => boolean | Promise<boolean>);
  /** Milliseconds before a call that has not settled becomes an error result. Default 60 000. */
  timeout?: number;
  /** JSON-safe facts for inspectors (the playground shows them), e.g. the MCP server a tool comes from. Never sent to the model. */
  meta?: Record<string, unknown>;
}

/** A tool the model can call while this element is rendered. Render it conditionally to offer it conditionally. */
// The host element type itself, not a component that renders it: the props go to the host element
// as they are (the serializer knows a tool's skill from where it sits in the tree), and a mounted
// chat holds one fiber per tool instead of two (and one props object fewer), each kept twice once
// its skill re-renders (React's alternate). See docs/serving.md, "What one process holds".
export const Tool = 'skilltree-tool' as unknown as <S extends InputSchema>(props: ToolProps<S>) => ReactNode;

/** Props of {@link Skill}. */
export interface SkillProps {
  /** Unique in the agent; the model passes it to `read_skill`. */
  name: string;
  /** One line for the catalog in the system prompt. */
  description: string;
  /** Mounted only while the skill is loaded. */
  children?: ReactNode;
  /** JSON-safe facts for inspectors (the playground shows them), e.g. a folder skill's files. Never sent to the model. */
  meta?: Record<string, unknown>;
  /**
   * Names of the tools this skill may render, for `Unknown tool` hints only: before the skill was
   * ever read, or while a conditional tool of it is not rendered, the tree cannot know that the
   * name is this skill's. A call of one then reads `(skill "x" is not loaded; read it first with
   * read_skill)` or `(not available right now in skill "x")`. Never sent to the model and never
   * enforced: the rendered `<Tool>`s are what the skill offers.
   */
  tools?: readonly string[];
  /** In a searched catalog (`<Agent catalog="search">`), list this skill in the system prompt anyway. */
  pinned?: boolean;
  /** Words the catalog search finds this skill by, beside its name, description and body. Never sent to the model. */
  keywords?: readonly string[];
  /**
   * Text the catalog search indexes as this skill's body before it is ever loaded (a SKILL.md body,
   * a server's tool list). Once loaded, its instructions, text and tools as last rendered are indexed
   * too. Never sent to the model.
   */
  searchText?: string;
}

/** A `<Skill>`'s render count: told its state may have changed, it renders again. */
const bump = (n: number) => n + 1;

function useRuntime(hook: string): Runtime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error(`${hook} must be used inside a tree rendered by createSession or renderAgent.`);
  return runtime;
}

/**
 * A skill: always listed in the catalog; its children mount when the model reads it and unmount
 * when newer reads push it out of the loaded set.
 */
export const Skill = markInternal(function Skill({
  name,
  description,
  children,
  meta,
  tools,
  pinned,
  keywords,
  searchText,
}: SkillProps) {
  const runtime = useRuntime('<Skill>');
  if (typeof name !== 'string' || name.trim() === '') {
    throw new Error(
      `<Skill> needs a non-empty "name" prop (got ${JSON.stringify(name)}${description ? ` for "${description}"` : ''}).`,
    );
  }
  // Each <Skill> listens for its own name: a load or an unload renders the skills it may have moved
  // (the runtime tells the loaded ones and those that were), never the whole catalog. One reducer
  // and one layout effect per skill: lighter than a store hook (two effects and a callback each).
  const [, rerender] = useReducer(bump, 0);
  useLayoutEffect(
    () => (runtime.watchSkill ? runtime.watchSkill(name, rerender) : runtime.subscribeSkills(rerender)),
    [runtime, name],
  );
  const state = runtime.skillState(name);
  const active = state === 'active';
  const info = useMemo<SkillInfo>(() => ({ name, active }), [name, active]);
  // Each skill suspends on its own: a skill waiting for data shows nothing (the model sees it as
  // loaded and empty) while the rest of the agent goes on.
  const body =
    state === 'unloaded'
      ? null
      : createElement(
          SkillContext.Provider,
          { value: info },
          createElement(
            SkillBoundary,
            { name, runtime, key: 'boundary' },
            createElement(Suspense, { fallback: createElement(Suspended, { name, runtime }) }, children),
          ),
        );
  return createElement(
    'skilltree-skill',
    skillProps(name, description, meta, tools, pinned, keywords, searchText),
    body,
  );
});

/**
 * The skill's host props, with only the optional props that were given: the props object React
 * keeps for each render (twice, the current and the last) and the host node's copy stay small.
 */
function skillProps(
  name: string,
  description: string,
  meta: SkillProps['meta'],
  tools: SkillProps['tools'],
  pinned: SkillProps['pinned'],
  keywords: SkillProps['keywords'],
  searchText: SkillProps['searchText'],
): {
  // Written out, not named: `Skill`'s inferred type (in the API pages) shows these props.
  description: string;
  keywords: readonly string[] | undefined;
  meta: Record<string, unknown> | undefined;
  name: string;
  pinned: boolean | undefined;
  searchText: string | undefined;
  tools: readonly string[] | undefined;
} {
  const props: Record<string, unknown> = { name, description };
  if (meta !== undefined) props.meta = meta;
  if (tools !== undefined) props.tools = tools;
  if (pinned !== undefined) props.pinned = pinned;
  if (keywords !== undefined) props.keywords = keywords;
  if (searchText !== undefined) props.searchText = searchText;
  return props as ReturnType<typeof skillProps>;
}

/** The fallback of a skill's (or, with `name: null`, the agent's) Suspense boundary: tells the session it waits. */
export const Suspended = markInternal(function Suspended({ name, runtime }: { name: string | null; runtime: Runtime }) {
  useLayoutEffect(() => {
    runtime.reportSuspended(name, true);
    return () => runtime.reportSuspended(name, false);
  }, [name, runtime]);
  return null;
});

interface BoundaryProps {
  name: string;
  runtime: Runtime;
  children?: ReactNode;
}

/** Keeps one skill's render error from taking the whole agent down: the session unloads the skill instead. */
export class SkillBoundary extends Component<BoundaryProps, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown, _info: ErrorInfo) {
    this.props.runtime.reportSkillError(this.props.name, error);
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}
markInternal(SkillBoundary);

/** The skill this component renders in: `{ name, active }`. Throws outside a `<Skill>`. */
export function useSkill(): SkillInfo {
  const skill = useContext(SkillContext);
  if (!skill) throw new Error('useSkill() must be called inside a <Skill>.');
  return skill;
}

/**
 * The chat this tree serves: `{ id, owner }` as the caller passed them to `createSessions`'
 * `send`/`stream` (over HTTP: the chat id and the user `authorize` returned), or `null` in a session
 * made with `createSession`/`restoreSession`. Neither changes while the session is mounted: a
 * `createSessions` session serves one chat of one owner.
 *
 * @example
 * function Orders() {
 *   const chat = useChatInfo();
 *   return <Text>Signed in as {chat?.owner ?? 'a guest'}.</Text>;
 * }
 */
export function useChatInfo(): ChatInfo | null {
  return useRuntime('useChatInfo()').chat;
}

/** The session that renders this tree: its stores, warnings, loaded skills and transcript. */
export function useSession(): SessionHandle {
  return useRuntime('useSession()').session;
}

/** Subscribes a component to an agent store; re-renders when the selected slice changes. */
export function useAgentStore<T>(def: AgentStoreDef<T>): T;
export function useAgentStore<T, U>(def: AgentStoreDef<T>, selector: (state: T) => U): U;
export function useAgentStore<T, U>(def: AgentStoreDef<T>, selector?: (state: T) => U): T | U {
  const { session } = useRuntime('useAgentStore()');
  return useStore(def.of(session), selector ?? ((state: T) => state as unknown as U));
}
