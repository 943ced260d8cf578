/**
 * `<Subagent>` (SPEC §19): renders, where it stands, a tool named `name` whose call runs `children`
 * as an agent of its own. The host node is an ordinary `skilltree-tool` (the rules of §2 for names;
 * inside a `<Skill>` it is offered only while that skill is loaded) whose props also carry the
 * subagent's own (`subagent`): the session's `spawn` runs the call.
 */
import { createElement, type ReactNode, useContext } from 'react';
import { z } from 'zod';
import type { Model } from '../types/model.js';
import type { SpawnInfo, SubagentContext } from '../types/subagents.js';
import type { InputSchema, ToolContext } from './components.js';
import { markInternal } from './owner.js';
import { RuntimeContext } from './runtime.js';

/** The input of a `<Subagent>` without `input`: the task, in words. */
export const TASK_INPUT = z.object({ task: z.string().describe('The task for the subagent, in full sentences.') });

/**
 * How long a run may take before its call is an error result, when `timeout` is left out: the
 * longest timer JavaScript keeps (about 24 days). A run is bounded by its `maxSteps` and the
 * parent's abort signal, not by the tool timeout (default 60 s) meant for one function call.
 */
export const RUN_TIMEOUT = 2_147_483_647;

/** Props of {@link Subagent}. */
export interface SubagentProps {
  /** The tool's name (`^[a-zA-Z0-9_-]{1,64}$`), unique among the tools rendered with it. */
  name: string;
  /** What the subagent does, for the parent model: the tool's description. */
  description: string;
  /** The call's input (a zod object). Default `z.object({ task: z.string() })`. */
  input?: InputSchema;
  /**
   * The run's result (a zod object): the run offers a tool `finish` with this input, and its
   * validated input ends the run as the parent's tool result. Without it, the run's last text reply is.
   */
  result?: InputSchema;
  /** `'isolated'` (default): the run sees only its own conversation. `'fork'`: it starts from the parent's latest request. */
  context?: SubagentContext;
  /** The model the run calls (e.g. a cheaper one). Default: the parent's. */
  model?: Model;
  /** Model calls the run may make before it is an error result naming the subagent. Default: the session's `maxSteps`. */
  maxSteps?: number;
  /** Milliseconds before a run that has not ended is an error result. Default: no limit but `maxSteps` and the parent's abort. */
  timeout?: number;
  /** Called before a run's first request is sent, with what that request will cost (see `SpawnCost`). */
  onSpawn?: (info: SpawnInfo) => void;
  /** The run's agent: instructions, skills, tools, more subagents (an `<Agent>` of its own, or its children). */
  children?: ReactNode;
}

/**
 * A subagent: a tool named `name` whose call runs `children` as an agent of its own, with its own
 * skills, catalog, loaded set, window and transcript, and returns its result to the parent. Each
 * call mounts `children` afresh (their `useState` and refs start over and are dropped when the run
 * ends); `createAgentStore` stores are the chat's, shared with the parent. See docs/subagents.md.
 *
 * @example
 * <Subagent name="researcher" description="Research an order's history; returns three lines">
 *   <Instructions>Read the records, answer in three lines.</Instructions>
 *   <Tool name="records" description="Order records" input={z.object({ order: z.string() })} run={readRecords} />
 * </Subagent>
 */
export const Subagent = markInternal(function Subagent(props: SubagentProps) {
  const runtime = useContext(RuntimeContext);
  const run = (input: unknown, ctx: ToolContext) => {
    if (!runtime?.spawn) {
      throw new Error(`Subagent "${props.name}" cannot run here: render it in a tree a session runs (createSession).`);
    }
    return runtime.spawn(props as unknown as Record<string, unknown>, input, ctx.toolCallId, ctx.signal);
  };
  const timeout = typeof props.timeout === 'number' && props.timeout > 0 ? props.timeout : RUN_TIMEOUT;
  return createElement('skilltree-tool', {
    name: props.name,
    description: props.description,
    input: props.input ?? TASK_INPUT,
    run,
    timeout,
    subagent: props,
    meta: { subagent: true, context: props.context ?? 'isolated' },
  });
});

/** The `<Subagent>` props a rendered tool carries, or undefined for any other tool. */
export function subagentOf(toolProps: Record<string, unknown>): SubagentProps | undefined {
  const sub = toolProps.subagent;
  return sub !== null && typeof sub === 'object' ? (sub as SubagentProps) : undefined;
}
