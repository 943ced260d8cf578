/**
 * What a session hands back: turns, waiting calls, events, snapshots and its configuration.
 */
import type { ContextChange, Message, ReasoningPart, ToolCall, ToolMessage } from './messages.js';
import type { Usage } from './model.js';
import type { ContextPlacement, LifecycleEntry, ModelRequest, SentLogData, ToolSpec } from './request.js';
import type { SubagentRun } from './subagents.js';

/** What `send` resolves to. */
export interface Turn {
  /** The final reply: the text of the last assistant message ('' when the turn ends waiting). */
  text: string;
  /**
   * Calls the turn ended waiting for: approval by a person, or a result from the client. Answer them
   * with `approve`, `deny` or `addToolResult`; the turn then goes on. Absent when nothing waits.
   */
  waiting?: WaitingCall[];
  /** How many model calls the turn took. */
  steps: number;
  /** The messages this turn added to the transcript, the user message first. */
  messages: Message[];
  /** Usage summed over the turn's model calls, where the model reports it. */
  usage?: Usage;
}

/**
 * A tool call that waits: for a person to approve or deny it (`needsApproval`), or for its result
 * from the client (a tool without `run`). It is committed state: any process may answer it, and it
 * runs at most once, always with the input stored here (the model's), never one an answer carries.
 */
export interface WaitingCall {
  toolCallId: string;
  name: string;
  /** The input as the model gave it, validated by the tool's schema. */
  input: unknown;
  /** What it waits for. */
  for: 'approval' | 'client';
  /** The skill that rendered the tool, or null for an agent-level tool. */
  skill: string | null;
  /**
   * `waiting` until answered; an approved call is `running` while its tool runs (a process that
   * stops then leaves it answered as interrupted: it may have taken effect, and never runs twice).
   */
  status: 'waiting' | 'running';
  /**
   * When the call started waiting (ms since the epoch): the `wait_tool` span of the turn that
   * answers it starts there. Absent on calls saved before it was kept.
   */
  since?: number;
  /**
   * The incarnation of the chat the call belongs to (a chat of `createSessions`; absent for a session
   * of its own). A chat deleted and started again under its id is another incarnation: an answer that
   * names this one (see {@link AnswerBinding}) never reaches a call of the next.
   */
  incarnation?: string;
  /**
   * Where the call waits when it is not the agent's own: inside a subagent run, `[subagent name,
   * tool name]` (deeper runs add their names in front of the tool's). Absent for the agent's calls.
   */
  path?: string[];
}

/**
 * What an answer may say about the call it answers, so it lands only on the call the person saw:
 * checked against the waiting call before anything runs, and a mismatch is a `ToolAnswerError`
 * (`wrong-incarnation`, `input-differs`). Pass both from the {@link WaitingCall} you showed.
 */
export interface AnswerBinding {
  /** The input the person saw (the waiting call's `input`); compared as JSON data. */
  input?: unknown;
  /** The chat incarnation the call was shown in (the waiting call's `incarnation`). */
  incarnation?: string;
}

/** An answer to a waiting call, optionally bound to the call it answers (see {@link AnswerBinding}). */
export type ToolAnswer = (
  | { toolCallId: string; type: 'approve' }
  | { toolCallId: string; type: 'deny'; reason?: string }
  | { toolCallId: string; type: 'result'; output: unknown; isError?: boolean }
) &
  AnswerBinding;

/** Something a developer should know that does not stop the agent. */
export interface Warning {
  message: string;
  /** Who reported it, e.g. `agent-skills:pdf`. */
  source?: string;
}

/** Everything a session reports while it works. `session.on('event', fn)` receives them all. */
export type SessionEvent =
  | { type: 'request'; request: ModelRequest; step: number }
  | { type: 'text-delta'; text: string }
  /** Readable reasoning as it streams, for display; the finished block follows as `reasoning`. */
  | { type: 'reasoning-delta'; text: string }
  /** A finished reasoning block, byte-exact, in order with the text around it. */
  | { type: 'reasoning'; reasoning: ReasoningPart }
  | { type: 'step-finish'; step: number; usage?: Usage }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'tool-result'; message: ToolMessage }
  | { type: 'context-changed'; changes: ContextChange[] }
  | { type: 'skill-loaded'; name: string }
  | { type: 'skill-unloaded'; name: string; reason?: UnloadReason }
  | { type: 'message'; message: Message }
  /** The calls waiting now changed (calls began to wait, or one is answered and runs). Sessions commit it. */
  | { type: 'waiting'; calls: WaitingCall[] }
  | { type: 'store-changed'; name: string; state: unknown }
  | { type: 'warning'; message: string; source?: string }
  /** A `<Subagent>` call started a run (SPEC §19). */
  | { type: 'subagent-start'; run: SubagentRun }
  /** An event of a run's own turn (its text-delta, tool-call, tool-result, request, waiting, …), by run. */
  | { type: 'subagent-event'; runId: string; name: string; event: SessionEvent }
  /** A run ended: `run.status` says how, `run.result` or `run.error` what came of it. */
  | { type: 'subagent-finish'; run: SubagentRun }
  | { type: 'finish'; turn: Turn };

/**
 * Why a skill unloaded: `lru` (a read of `by` pushed it out), `error` (it broke: threw, looped, or
 * rendered something refused; `detail` says what), `removed` (it left the tree), `limit`
 * (`maxLoadedSkills` was lowered).
 */
export type UnloadReason =
  | { reason: 'lru'; by: string }
  | { reason: 'error'; detail: string }
  | { reason: 'removed' }
  | { reason: 'limit' };

/** The `type` of a {@link SessionEvent}. */
export type SessionEventType = SessionEvent['type'];

/** What `readSkill` did. */
export interface ReadResult {
  name: string;
  /** False when the skill was loaded already (the read only made it active). */
  mounted: boolean;
  /** Skills the read pushed out, least recently read first. */
  unloaded: string[];
}

/**
 * The JSON a session snapshot holds. Version 2 holds messages as typed parts; a version 1 snapshot
 * (string content) is read and upgraded.
 */
export interface SessionSnapshot {
  version: 1 | 2;
  /** The transcript, or its newest part from `transcriptStart` on. */
  transcript: Message[];
  /** The loaded skills, least recently read first. */
  loadedSkills: string[];
  /** Store state by store name. */
  stores: Record<string, unknown>;
  /**
   * Context changes not recorded yet: a restored session records them with its next message. A
   * snapshot an older version took holds them as `contextChanged` lines; they are read upgraded.
   */
  pendingContextChanges?: ContextChange[];
  /** Index of `transcript[0]` in the whole transcript when older messages live elsewhere (a store). Default 0. */
  transcriptStart?: number;
  /** The highest `N` of the `call_N` ids assigned so far, so ids never repeat. */
  lastCallNumber?: number;
  /**
   * Bytes of every file that entered the chat so far (user messages and tool results, the whole
   * transcript's): what `files.maxChatBytes` counts. Left out, the files of `transcript` are counted.
   */
  fileBytes?: number;
  /** Token usage summed over the session so far. */
  usage?: Usage;
  /** Where the last request's window started (index in the whole transcript), for the stable window. */
  windowStart?: number;
  /** What the session announced to the model about its skills, so that a restored session sends the same deltas. */
  lifecycle?: LifecycleLogData;
  /** What was sent to a model with `appendOnly`, so a restored session goes on appending. */
  sent?: SentLogData;
  /** Calls waiting for approval or for a client's result. */
  waiting?: WaitingCall[];
  /** The chat's subagent runs (SPEC §19), oldest first: kept with the chat, deleted with it. */
  subagentRuns?: SubagentRun[];
}

/** One skill as announced to the model: the lines and tool specs its load stated. */
export interface AnnouncedSkill {
  skill: string;
  lines: string[];
  tools: ToolSpec[];
}

/**
 * The lifecycle as recorded (JSON, kept in snapshots and store records): the skills announced before
 * message `baseAt`, then what changed with each message from there on. Older records are folded into
 * `base` once no window can start before them, so its size follows the window, not the transcript.
 */
export interface LifecycleLogData {
  /** Index in the whole transcript where `records` begin. */
  baseAt: number;
  /** The skills announced before `baseAt`, in the order they were announced. */
  base: AnnouncedSkill[];
  /** The changes recorded with the message at `at` (an index in the whole transcript), oldest first. */
  records: { at: number; entries: LifecycleEntry[] }[];
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
  /** The most characters one tool result carries; see `SessionOptions.maxToolResultChars`. */
  maxToolResultChars: number;
  /** Undefined when there is no token budget. */
  maxTranscriptTokens?: number;
  windowMode: 'sliding' | 'stable';
}
