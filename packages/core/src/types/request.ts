/**
 * A model request: the messages, tools and context, the append-only items and the lifecycle deltas.
 */
import type { Message } from './messages.js';

/** Which run a model request belongs to (`ModelRequest.subagent`): absent for the agent's own requests. */
export interface SubagentRequestInfo {
  name: string;
  runId: string;
  depth: number;
}

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input object, generated from the tool's zod schema. */
  inputSchema: Record<string, unknown>;
}

/** Where adapters put `<current_context>`: appended to the last user-role turn, or to the system prompt. */
export type ContextPlacement = 'end' | 'system';

/** The next request, exactly what the model will receive, before a provider adapter formats it. */
export interface ModelRequest {
  /** Agent-level instructions, then the skill catalog. Stable while the tree's agent part is. */
  system: string;
  /** `<current_context>…</current_context>`: agent text, then each loaded skill, the active one last. */
  context: string;
  /** The transcript window: the newest messages, at most `maxTranscriptMessages`, starting at a user message. */
  messages: Message[];
  /** `read_skill`, agent-level tools and every loaded skill's tools, in tree order. */
  tools: ToolSpec[];
  /** Where adapters place `context`. The neutral request keeps it separate either way. */
  contextPlacement: ContextPlacement;
  /**
   * The same request with the skill lifecycle as deltas positioned in the messages, for adapters
   * whose model takes tool changes inside the conversation (see {@link RequestLifecycle}). Absent
   * when the tree has no skills. A getter on the request's prototype, built on first read: the
   * request's own properties and JSON are the classic layout (a spread copy leaves it out), and
   * adapters without such support ignore it (flattening is the classic fields).
   */
  readonly lifecycle?: RequestLifecycle;
  /**
   * The request as the previous request of this conversation plus what was appended since, for a
   * model with `appendOnly` (absent otherwise). Adapters of such models send this instead of the
   * classic fields.
   */
  appendOnly?: AppendOnlyRequest;
  /**
   * The subagent run that asks (SPEC §19), absent for the agent's own requests: a model that
   * serves several (a scripted model with a script per subagent, a router) answers by it.
   */
  subagent?: SubagentRequestInfo;
}

// ───────────── the append-only request (issue 25) ─────────────

/**
 * A note the session appended to the conversation: what changed since the previous request
 * (the agent's instructions or skill catalog re-rendered, the live context, tools added or
 * removed). Providers take it as a mid-conversation system message (Anthropic, with
 * `tool_addition` / `tool_removal`) or a developer message (OpenAI, with `additional_tools`).
 */
export interface SystemNote {
  role: 'system';
  /** What changed, in words and `<current_context>` sections (empty when only tools changed). */
  text: string;
  /** Tools offered from here on. */
  addedTools: ToolSpec[];
  /** Tools no longer offered from here on (a call of one is refused with the seed's `Unknown tool`). */
  removedTools: string[];
}

/** One item of an append-only conversation: a transcript message or a note the session added. */
export type AppendOnlyItem = Message | SystemNote;

/**
 * A request that only grows. `system` and `tools` are what the first request of this conversation
 * carried, and never change after it; `items` are the previous request's items with this step's
 * appended. The window moves only when a turn starts: then `system` and `tools` are taken afresh,
 * and reasoning recorded before the move is left out (it was bound to the old prefix).
 */
export interface AppendOnlyRequest {
  system: string;
  tools: ToolSpec[];
  items: AppendOnlyItem[];
}

/**
 * What a session has sent a model with `appendOnly` (JSON, kept in snapshots and store records), so
 * that any process builds the next request as the previous one plus what is new.
 */
export interface SentLogData {
  /** Index, in the whole transcript, of the first message of this conversation prefix. */
  start: number;
  /** The system prompt and tools of the prefix's first request. */
  system: string;
  tools: ToolSpec[];
  /** The notes sent, each after the message at index `after` of the whole transcript. */
  notes: { after: number; note: SystemNote }[];
  /** What the model has been told by now: the system prompt, tool specs by name, context sections by key. */
  told: { system: string; tools: Record<string, string>; sections: Record<string, string> };
  /** Reasoning of messages before this index is not sent (it was bound to another prefix). */
  reasoningFrom: number;
}

// ───────────── the lifecycle as deltas (issue 18): one neutral description, mapped by adapters ─────────────

/**
 * One change at a point of the conversation. `loaded` carries the skill's instructions and text as
 * rendered when it loaded (its lines, unescaped) and the specs of the tools it offered then;
 * `restated` marks a skill loaded before the window starts, re-stated there; `unloaded` names the
 * tools that leave with it; `tools` is a tool that appeared, disappeared or
 * changed inside a loaded skill (`skill` is null for a call of a tool that was not offered, replayed
 * so the request stays valid: the tool is added right before the call and removed after its result).
 */
export type LifecycleEntry =
  | { type: 'loaded'; skill: string; lines: string[]; tools: ToolSpec[]; restated?: true }
  | { type: 'unloaded'; skill: string; tools: string[] }
  | { type: 'tools'; skill: string | null; added: ToolSpec[]; removed: string[] };

/** The deltas that go right after one message of {@link RequestLifecycle.messages}. */
export interface LifecycleDelta {
  /** Index in `messages` of the message they follow: always the last of a run of user and tool messages. */
  after: number;
  /** What changed there, in order. */
  entries: LifecycleEntry[];
  /** The text a provider's system message carries for `entries` (empty when only tools changed). */
  text: string;
}

/**
 * The request as provider-native deltas. The prefix (`tools`, the system prompt and every older
 * message) never changes because a skill loaded or unloaded: a load is a delta at the point where it
 * was recorded, carrying the skill's static text and a tool addition; an unload is a tool removal.
 * Skills loaded before the window starts are re-stated in one delta right after the window's first
 * user turn, which changes only where the window's start does. What changes every step stays in the
 * small `context` at the end. Adapters map this to their provider's form (Anthropic: `role: "system"`
 * messages with `tool_addition` / `tool_removal` blocks), or ignore it and send the classic fields.
 */
export interface RequestLifecycle {
  /** The tools that never change with the lifecycle: the read tool and the agent's own tools. */
  tools: ToolSpec[];
  /** The transcript window as this layout presents it: the same messages, except that a load's own
   * `contextChanged … added:` lines are left out where the load's delta states those lines in full. */
  messages: Message[];
  /** In message order. The first may be the re-statement of the skills loaded where the window starts. */
  deltas: LifecycleDelta[];
  /** `<current_context>` with, for each loaded skill, only the lines its load did not state. */
  context: string;
  /** The window mode the request was built with: adapters use deltas with `'stable'` when they choose for themselves. */
  windowMode: 'sliding' | 'stable';
}
