/**
 * The narrow interface a turn offers what watches it. Budgets, traces and the wait for an answer
 * each are a {@link TurnHook}: made for one turn, keeping their own state in it, and called by the
 * loop at these few points only. The loop knows nothing of budgets or spans; they know nothing of
 * each other.
 */

import type { ToolCall, ToolMessage } from '../types/messages.js';
import type { ModelResponse, Usage } from '../types/model.js';
import type { ModelRequest } from '../types/request.js';
import type { SessionEvent, ToolAnswer, Turn, WaitingCall } from '../types/session.js';

/** How a turn ended: its result, or the error it ended with (an abort is an error). */
export interface TurnOutcome {
  turn?: Turn;
  error?: unknown;
}

/** One model call, as the hooks see it. */
export interface ModelCallInfo {
  request: ModelRequest;
  /** 1 for the turn's first call. */
  step: number;
  /** What the turn's earlier calls used. */
  turnUsage: Usage | undefined;
}

/** The events of one model call, ending with its response. */
export type ModelCallEvents = AsyncGenerator<SessionEvent, ModelResponse, undefined>;

/** What one concern does at the turn's points. Every member is optional. */
export interface TurnHook {
  /** Before anything of the turn is recorded. Throwing refuses the turn (a budget used up). */
  start?(): Promise<void> | void;
  /** Before a model call is sent, its request built. Throwing refuses the call (a budget). */
  beforeModelCall?(call: ModelCallInfo): Promise<void> | void;
  /** Around a model call: wraps its events (a span). */
  aroundModelCall?(call: ModelCallInfo, inner: ModelCallEvents): ModelCallEvents;
  /** After a model call, however it ended: what it used (estimated when the provider never said), or null for nothing. */
  afterModelCall?(used: Usage | null): Promise<void> | void;
  /** A tool call starts; the returned function is called with its recorded result (and what it threw). */
  toolCall?(call: ToolCall): ((message: ToolMessage, error?: unknown) => void) | undefined;
  /**
   * A call starts before the loop reaches it (the runs of a step's subagent calls start together):
   * its `toolCall` comes when the loop does, and goes on in what this started (its span).
   */
  toolCallAhead?(call: ToolCall): void;
  /** A call that waited got its answer (`superseded`: a new user message came instead). */
  answered?(waiting: WaitingCall, answer: ToolAnswer['type'] | 'superseded'): void;
  /** The turn ended, however it ended. Must not throw. */
  end?(outcome: TurnOutcome): Promise<void> | void;
}

/** The hooks of one turn as one: `start`s in order, `end`s in reverse, the first hook's wrapper outermost. */
export interface TurnHooks {
  start(): Promise<void>;
  beforeModelCall(call: ModelCallInfo): Promise<void>;
  aroundModelCall(call: ModelCallInfo, inner: ModelCallEvents): ModelCallEvents;
  afterModelCall(used: Usage | null): Promise<void>;
  toolCall(call: ToolCall): (message: ToolMessage, error?: unknown) => void;
  toolCallAhead(call: ToolCall): void;
  answered(waiting: WaitingCall, answer: ToolAnswer['type'] | 'superseded'): void;
  end(outcome: TurnOutcome): Promise<void>;
}

/** Composes `hooks` into the one object the loop calls. */
export function composeHooks(hooks: readonly TurnHook[]): TurnHooks {
  return {
    async start() {
      for (const hook of hooks) await hook.start?.();
    },
    async beforeModelCall(call) {
      for (const hook of hooks) await hook.beforeModelCall?.(call);
    },
    aroundModelCall(call, inner) {
      return hooks.reduceRight((events, hook) => hook.aroundModelCall?.(call, events) ?? events, inner);
    },
    async afterModelCall(used) {
      for (const hook of hooks) await hook.afterModelCall?.(used);
    },
    toolCall(call) {
      const ends = hooks.map((hook) => hook.toolCall?.(call)).filter((end) => end !== undefined);
      return (message, error) => {
        for (const end of [...ends].reverse()) end(message, error);
      };
    },
    toolCallAhead(call) {
      for (const hook of hooks) hook.toolCallAhead?.(call);
    },
    answered(waiting, answer) {
      for (const hook of hooks) hook.answered?.(waiting, answer);
    },
    async end(outcome) {
      for (const hook of [...hooks].reverse()) {
        try {
          await hook.end?.(outcome);
        } catch {
          // One concern failing to end never keeps the others from ending.
        }
      }
    },
  };
}
