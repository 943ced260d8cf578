/**
 * The shapes of a `data-subagent` part (one subagent run as the page shows it), apart from the code
 * that builds them so that the message parts can name them without importing that code.
 */
import type { SubagentRun, Usage } from '@skilltree/core';

/** A tool call a run made, as the page shows it. */
export interface SubagentUITool {
  type: 'tool';
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** `input-available` while it runs, `approval-requested` while it waits for a person, then its outcome. */
  state: 'input-available' | 'approval-requested' | 'output-available' | 'output-error';
  /** The result the run's model got (its own text), when `output-available`. */
  output?: string;
  /** The text an end user may read for an error result (the server's `toolErrorText`), when `output-error`. */
  errorText?: string;
}

/** One item of a run, in order: a text reply of its model, or a tool call. */
export type SubagentUIItem = { type: 'text'; text: string } | SubagentUITool;

/** The data of a `data-subagent` part: one run of a subagent, its progress and its status. */
export interface SubagentUIData {
  /** The `<Subagent name>`. */
  name: string;
  /** The parent's call that spawned the run (its tool part on the same message, for a top-level run). */
  toolCallId: string;
  /** The run that spawned this one, for a run inside a run. */
  parentRunId?: string;
  /** 1 for a run the agent spawned, 2 for a run spawned inside it, and so on. */
  depth: number;
  context: SubagentRun['context'];
  status: SubagentRun['status'];
  /** The run's text replies and tool calls, in order (its task is the parent tool part's input). */
  items: SubagentUIItem[];
  /** The run's usage, nested runs' included, once it reports any. */
  usage?: Usage;
  /** Why the run failed or stopped, as an end user may read it (see {@link SubagentUIData.status}). */
  error?: string;
}

/** The run a `data-subagent` part shows, and the id the part carries (the run's). */
export interface SubagentUIPart {
  type: 'data-subagent';
  id: string;
  data: SubagentUIData;
}
