/**
 * The wire protocol between `skilltree dev` (this package) and the playground page, which imports
 * these types as `@skilltree/cli/dev-protocol`. JSON only: every field survives `JSON.stringify`.
 * The session itself travels as core's `SessionView`, as is: the page reads skills, tools, context
 * lines with their owners, stores and warnings from it.
 */
import type {
  Message,
  ModelRequest,
  Price,
  SessionView,
  SubagentRun,
  ToolAnswer,
  Usage,
  WaitingCall,
} from '@skilltree/core';

/** What one model step changed compared with the step before it. */
export interface TimelineEntry {
  /** 1-based index of the turn (user message sent from the page) and of the model call inside it. */
  turn: number;
  step: number;
  /** Milliseconds since the epoch. */
  at: number;
  loaded: string[];
  unloaded: string[];
  toolsAdded: string[];
  toolsRemoved: string[];
  /** Context lines that were not in the previous request's context (the first few in `lineSamples`). */
  linesAdded: number;
  linesRemoved: number;
  lineSamples: string[];
  /** UTF-8 size of the request as the provider receives it (tools, system, messages with the context placed). */
  bytes: number;
  /** Bytes at the start that are identical to the previous request (what a prompt cache can reuse). */
  prefixBytes: number;
  /** Messages in the window / in the transcript when the request was made. */
  messages: number;
  transcript: number;
  /** The generation of the agent code that served the request (bumps on every reload). */
  generation: number;
  /**
   * The request is append-only (`request.appendOnly`): its model binds reasoning (or its cache) to
   * the exact prefix, so {@link TimelineEntry.prefixChange} on it is refused or drops reasoning.
   */
  appendOnly: boolean;
  /**
   * Where this request stopped being the previous one plus appended messages (null for the first
   * request, and when it only appended): for an append-only request a change the provider refuses
   * or drops reasoning after, for a classic one where the prompt cache stops matching.
   */
  prefixChange: PrefixChange | null;
  /** The readable text of each reasoning block the model returned in this step ('' when hidden). */
  reasoning: string[];
}

/** The first path where a request differs from the previous request of the conversation. */
export interface PrefixChange {
  /**
   * A path in the request as core builds it, e.g. `items.3.content.0` (append-only: `tools`,
   * `system`, `items`) or `messages.2.content.1` (classic, with the context placed; `tools`, `system`).
   */
  path: string;
  /** Whether the requests are append-only ones. */
  appendOnly: boolean;
}

/** One model call's usage, as the Cost view lists it. */
export interface CostStep {
  /** 1-based index of the turn and of the model call inside it, as in the timeline. */
  turn: number;
  step: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** What the provider reported (the `step-finish` event's usage); fields it does not report are absent. */
  usage: Usage;
  /** Estimated US dollars (`estimateCost`), or null without a price. */
  cost: number | null;
}

/** What the conversation has cost so far, step by step, priced like the CLI's cost line. */
export interface CostView {
  /** The price in US dollars per million tokens and where it came from (`--price` or the `PRICES` entry of the model's name); null when none is known. */
  price: { price: Price; label: string } | null;
  /** Model calls that reported usage, oldest first (since the server started or was reset). */
  steps: CostStep[];
  /** Model calls that reported no usage (the scripted model reports an estimate, so it counts as reported). */
  unreported: number;
  /** The steps summed. */
  total: { usage: Usage; cost: number | null };
}

/** What a reload changed. */
export interface ReloadInfo {
  generation: number;
  at: number;
  /** Changed files, relative to the agent module's directory. */
  files: string[];
  /** Human-readable changes: skills/tools added or removed, system prompt and context edits. */
  changes: string[];
  /** Transcript length when the reload happened: the chat draws a divider there. */
  transcriptLength: number;
}

/** A line the chat shows between messages: reloads, reload errors, turn errors, resets. */
export interface ChatNote {
  kind: 'reload' | 'reload-error' | 'error' | 'info';
  text: string;
  /** The note sits after this many transcript messages. */
  after: number;
  at: number;
}

/** A subagent run as the page shows it: the run as core keeps it, and each request its model was sent. */
export interface SubagentRunView extends SubagentRun {
  /** The run's requests, oldest first (since the page's last reset). */
  requests: ModelRequest[];
}

/** Everything the page shows. Sent on connect and after every change. */
export interface DevState {
  /** The agent module, as given on the command line. */
  module: string;
  generation: number;
  model: string;
  /** The model plays a script (a `scriptedModel`, e.g. the module's demo): it ignores what the user types. */
  scripted: boolean;
  busy: boolean;
  /** The last turn error (model error, maxSteps, ...), cleared by the next successful turn. */
  error: string | null;
  /** The module could not be loaded or re-rendered. The page keeps showing the last good session. */
  loadError: string | null;
  /** Core's view of the session (catalog, tools, context lines and their owners, stores, warnings), or null when no agent is loaded. */
  view: SessionView | null;
  /** The full transcript. `windowStart` is the index of its first message the next request carries. */
  transcript: Message[];
  windowStart: number;
  /**
   * The next request, or null when none can be built (see `requestError`). Its `attribution` (what
   * each part of the tree costs in tokens) is a field here.
   */
  request: ModelRequest | null;
  /**
   * Where core's `placeContext` puts the context: `'system'`, or the index in `request.messages` of
   * the message that carries it (the message count when it adds a new user message). Null without
   * a request.
   */
  placed: 'system' | number | null;
  requestError: string | null;
  timeline: TimelineEntry[];
  /** Usage and estimated cost per model call, with totals. */
  cost: CostView;
  reloads: ReloadInfo[];
  notes: ChatNote[];
  /** The user messages of the module's `demo` export, in the order its script answers them. */
  demoMessages: string[];
  /**
   * Calls the last turn ended waiting for (the session's `waiting`): a person's approval
   * (`needsApproval`) or a client tool's result (a tool without `run`). Answer them with
   * `POST /api/answer`. Kept by the session, so a reloaded page shows them again.
   */
  waiting: WaitingCall[];
  /**
   * The session's subagent runs, oldest first, nested runs included (`parentRunId` names the run
   * they ran inside), each with its requests: the page draws them as a tree.
   */
  subagentRuns: SubagentRunView[];
}

/**
 * A file the page sends with a message (`POST /api/send`): its bytes as base64 or a `data:` URL,
 * as `session.send(text, { files })` takes them. Core checks it (the bytes decide the type).
 */
export interface SendFile {
  data: string;
  /** What the browser says it is; checked against the bytes. */
  mediaType?: string;
  filename?: string;
}

/** The body of `POST /api/send`: the text may be empty when files are sent. */
export interface SendRequest {
  text: string;
  files?: SendFile[];
}

/** The body of `POST /api/answer`: answers to waiting calls, as `session.answer` takes them. */
export interface AnswerRequest {
  answers: ToolAnswer[];
}

/**
 * What `POST /api/send` and `POST /api/answer` answer when the turn ends: its reply and the calls
 * it ended waiting for, or why it failed. `code` is set when nothing was recorded: a refused file
 * (`FileRejectedError`'s code, HTTP 400), an answer to a call that does not wait (`ToolAnswerError`'s
 * code, HTTP 409), `busy` (HTTP 409), or `body-too-large` (HTTP 413: the files are over the 64 MB the
 * dev server reads).
 */
export type TurnReply =
  | { ok: true; text: string; steps: number; waiting: WaitingCall[] }
  | { ok: false; error: string; code?: string };

/** Session events forwarded to the page (the page rebuilds everything else from `state`). */
export type LiveEvent =
  /** `index`: where the assistant message being streamed will sit in the transcript. */
  | { type: 'text-delta'; text: string; index: number }
  /** Readable reasoning as it streams (the text only), for the assistant message at `index`. */
  | { type: 'reasoning-delta'; text: string; index: number }
  | { type: 'tool-call'; toolCall: { id: string; name: string; input: unknown } }
  /** A turn starts: from a user message (`text`, with `files` attached), or from answers to waiting calls (`answering`: their ids). */
  | { type: 'turn-start'; text: string; files?: number; answering?: string[] }
  | { type: 'turn-end'; ok: boolean; error?: string };

export type {
  Message,
  ModelRequest,
  Price,
  RequestAttribution,
  SessionConfig,
  SessionView,
  SubagentRun,
  ToolAnswer,
  Usage,
  ViewLine,
  ViewSection,
  ViewSkill,
  ViewTool,
  WaitingCall,
  Warning,
} from '@skilltree/core';
export type { AppendOnlyItem, AppendOnlyRequest, FilePart, SystemNote, ToolSpec } from '@skilltree/core/provider';
