/**
 * The provider-neutral shapes that cross the boundary between a session and a model.
 * Adapters in `@skilltree/models` translate these to and from each provider's wire format.
 */

/**
 * A tool call the model made, as it appears in an assistant message. A session records a model's
 * calls repaired: an entry that is not a call (`null`) or has no name is dropped with a warning,
 * and an id that is missing, used before, or not 1–64 letters, digits, `_` or `-` is replaced.
 */
export interface ToolCall {
  /** Provider-assigned (or scripted) id; the matching tool message carries it as `toolCallId`. */
  id: string;
  name: string;
  input: unknown;
}

/** A message the user sent. */
export interface UserMessage {
  role: 'user';
  content: string;
}

/** A message the model sent: text, tool calls, or both. */
export interface AssistantMessage {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCall[];
}

/** The result of one tool call, recorded right after the assistant message that made the call. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  name: string;
  content: string;
  isError?: boolean;
}

/** One entry of the transcript. */
export type Message = UserMessage | AssistantMessage | ToolMessage;

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
}

/**
 * Token counts reported by a provider. Cache fields are present where the provider reports them,
 * and are parts of `inputTokens`: uncached input is `inputTokens - cacheReadTokens - cacheWriteTokens`.
 */
export interface Usage {
  /** Every input token the request carried, cached or not. */
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens read from the provider's prompt cache (billed at a fraction of the input price). */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache (Anthropic bills them above the input price). */
  cacheWriteTokens?: number;
}

/** What a model returns for one request. */
export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  usage?: Usage;
}

/** One piece of a streamed response. */
export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'step-finish'; step: number; usage?: Usage }
  | { type: 'tool-call'; id: string; name: string; input: unknown }
  | { type: 'finish'; usage?: Usage };

/** Options passed to every model call. */
export interface ModelCallOptions {
  signal?: AbortSignal;
}

/**
 * A language model. `generate` is required; `stream`, when present, is used by `session.stream()`
 * and `session.send()` so that text arrives as it is produced.
 */
export interface Model {
  /** A short name for errors and logs, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly name?: string;
  generate(req: ModelRequest, opts: ModelCallOptions): Promise<ModelResponse>;
  stream?(req: ModelRequest, opts: ModelCallOptions): AsyncIterable<ModelStreamPart>;
}

/** Where `<current_context>` goes when a tree is rendered into a session. */
export interface LifecycleOptions {
  /** How many skills stay loaded at once; reading one more unloads the least recently read. Default 3. */
  maxLoadedSkills?: number;
  /** How many transcript messages each request carries at most. Default 60. */
  maxTranscriptMessages?: number;
  /** How many characters of an added context line a `contextChanged` line carries. Default 200. */
  contextLineLimit?: number;
  /** Where adapters put `<current_context>`: `'end'` (default, cache-friendly) or `'system'`. */
  contextPlacement?: ContextPlacement;
  /** Name of the built-in tool that loads a skill. Default `read_skill`. */
  readToolName?: string;
  /**
   * A token budget for the transcript window, beside `maxTranscriptMessages` (both apply). Counted
   * with the session's `tokenizer` (default: an estimate of 4 characters per token). Default: none.
   */
  maxTranscriptTokens?: number;
  /**
   * `'sliding'` (default, the seed's window): the newest messages that fit. `'stable'`: the window's
   * first message stays put while the window fits, then jumps ahead by half, so a provider's prompt
   * cache keeps the message prefix across turns. Both start at a user message and respect the caps.
   */
  windowMode?: 'sliding' | 'stable';
}

/** Options of `createSession`. Lifecycle options override the `<Agent>` props of the same name. */
export interface SessionOptions extends LifecycleOptions {
  /** The model `send` and `stream` call. Default: a model that fails with a message saying to pass one. */
  model?: Model;
  /** Model calls per `send` before it fails with a clear error. Default 20. */
  maxSteps?: number;
  /** Render inside `<StrictMode>` (effects run twice on mount, as in development React). Default false. */
  strictMode?: boolean;
  /**
   * Milliseconds before a tool call that has not settled becomes an error result (a tool's `timeout`
   * prop wins). Also bounds how long a read waits for a suspending skill. Default 60 000.
   */
  toolTimeout?: number;
  /**
   * The most characters one tool result carries (every tool: your own, MCP tools, folder skills'
   * read tool, and refusals). A longer result is cut, and ends with a note that says how many
   * characters were left out, so a tool that returns a whole database dump costs the window only
   * this much. Tools see it as `ctx.maxResultChars` to return long output in parts instead. Default
   * 100 000 (about 25 000 tokens).
   */
  maxToolResultChars?: number;
  /**
   * Counts tokens for `maxTranscriptTokens`. Default: an estimate (4 characters per token). For an
   * exact count with OpenAI models, pass `openaiTokenizer()` from `@skilltree/models/tokenizer`.
   */
  tokenizer?: (text: string) => number;
}

/** Options of one `send`/`stream`. */
export interface SendOptions {
  /** Aborts the model call and any running tool; the transcript stays valid. */
  signal?: AbortSignal;
}

/** What `send` resolves to. */
export interface Turn {
  /** The final reply: the text of the last assistant message. */
  text: string;
  /** How many model calls the turn took. */
  steps: number;
  /** The messages this turn added to the transcript, the user message first. */
  messages: Message[];
  /** Usage summed over the turn's model calls, where the model reports it. */
  usage?: Usage;
}

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
  | { type: 'step-finish'; step: number; usage?: Usage }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'tool-result'; message: ToolMessage }
  | { type: 'context-changed'; lines: string[] }
  | { type: 'skill-loaded'; name: string }
  | { type: 'skill-unloaded'; name: string }
  | { type: 'message'; message: Message }
  | { type: 'store-changed'; name: string; state: unknown }
  | { type: 'warning'; message: string; source?: string }
  | { type: 'finish'; turn: Turn };

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

/** The JSON a session snapshot holds. */
export interface SessionSnapshot {
  version: 1;
  /** The transcript, or its newest part from `transcriptStart` on. */
  transcript: Message[];
  /** The loaded skills, least recently read first. */
  loadedSkills: string[];
  /** Store state by store name. */
  stores: Record<string, unknown>;
  /** `contextChanged` lines not recorded yet: a restored session records them with its next message. */
  pendingContextChanges?: string[];
  /** Index of `transcript[0]` in the whole transcript when older messages live elsewhere (a store). Default 0. */
  transcriptStart?: number;
  /** The highest `N` of the `call_N` ids assigned so far, so ids never repeat. */
  lastCallNumber?: number;
  /** Token usage summed over the session so far. */
  usage?: Usage;
  /** Where the last request's window started (index in the whole transcript), for the stable window. */
  windowStart?: number;
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
