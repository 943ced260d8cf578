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

// ───────────── typed parts (issue 25): every part carries its `type`, nothing is parsed back out of text ─────────────

/** Text a person or the model wrote, or a tool returned. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * A model's reasoning, kept byte-exact so that it can be sent back where a provider requires it
 * (Anthropic `thinking` / `redacted_thinking`, OpenAI Responses `reasoning` items). `text` may be
 * empty (a provider that keeps its reasoning hidden, or summarises it). Reasoning is replayed only to
 * the provider and model that produced it; see `docs/models.md`.
 */
export interface ReasoningPart {
  type: 'reasoning';
  /** Who produced it: `anthropic`, `openai`, … — an adapter replays only its own provider's parts. */
  provider: string;
  /** The model that produced it, as the adapter names it: reasoning is not replayed to another model. */
  model?: string;
  /** The readable reasoning (or its summary); may be empty. */
  text: string;
  /** Anthropic: the `signature` of a `thinking` block (collected from `signature_delta` when streaming). */
  signature?: string;
  /** Anthropic: the `data` of a `redacted_thinking` block (`text` is then empty). */
  redactedData?: string;
  /** OpenAI Responses: the item's `encrypted_content`. */
  encryptedContent?: string;
  /** OpenAI Responses: the reasoning item's id. */
  itemId?: string;
}

/**
 * A file: an image or a document, by its bytes (base64 `data`) or by `url`. `mediaType` is the IANA
 * type (`image/png`, `application/pdf`, `text/plain`, …). Exactly one of `data` and `url` is set.
 */
export interface FilePart {
  type: 'file';
  mediaType: string;
  /** The bytes, base64-encoded. */
  data?: string;
  /** Where the file is (`https:` or `data:`), when it is not carried as bytes. */
  url?: string;
  filename?: string;
}

/**
 * The seed's `contextChanged` lines recorded with a message: what the context gained, and which
 * skills loaded and unloaded, since the previous message. The lines are the text a model reads
 * (`contextChanged notes added: …`), rendered after the message's own text as before.
 */
export interface ContextChangedPart {
  type: 'context-changed';
  lines: string[];
}

/** A file as an app passes it: its bytes (or base64, or a data URL), or an `https:` URL. */
export interface FileInput {
  /** The bytes: a `Uint8Array`/`ArrayBuffer`, base64 text, or a `data:` URL. */
  data?: Uint8Array | ArrayBuffer | string;
  /** An `https:` URL the provider fetches (only for hosts in `allowUrlHosts`); or a `data:` URL. */
  url?: string;
  /** The IANA media type. Checked against the bytes; when left out, the bytes decide. */
  mediaType?: string;
  filename?: string;
}

/** Limits on files, as session options (`files`). Every limit has a default. */
export interface FileLimits {
  /** Bytes per file. Default 20 MB. */
  maxFileBytes?: number;
  /** Files per message (or per tool result). Default 10. */
  maxFilesPerMessage?: number;
  /** Bytes of all files of one message. Default 32 MB. */
  maxMessageBytes?: number;
  /** Bytes of all files in the chat's transcript (in memory). Default 100 MB. */
  maxChatBytes?: number;
  /**
   * Media types accepted. Default: PNG, JPEG, GIF and WebP images, PDF, plain text, Markdown,
   * CSV and JSON, and WAV and MP3 audio. SVG is never accepted as an image (it can carry script).
   * A model that does not read a kind of file gets it described in text (see `Model.accepts`).
   */
  mediaTypes?: readonly string[];
  /** Hosts whose `https:` URLs may be passed on (never fetched by skilltree). Default: none. */
  allowUrlHosts?: readonly string[];
}

/** What a user message holds. */
export type UserPart = TextPart | FilePart | ContextChangedPart;
/** What an assistant message holds (its tool calls stay in `toolCalls`, after its parts). */
export type AssistantPart = TextPart | ReasoningPart;
/** What a tool result holds. */
export type ToolResultPart = TextPart | FilePart | ContextChangedPart;
/** Any part of any message. */
export type MessagePart = UserPart | AssistantPart | ToolResultPart;

/**
 * Why a tool result is an error, as data (the text the model reads says the same in words):
 * - `unknown-tool`: no tool of that name is offered now (the text names the skill to read);
 * - `unknown-skill`: the read tool was asked for a skill the catalog does not have;
 * - `invalid-input`: the input failed the tool's schema, or was not JSON;
 * - `threw`: the tool threw, or returned something that is not a result;
 * - `timeout`: it did not settle within its timeout;
 * - `interrupted`: the turn was aborted or the process stopped while it ran;
 * - `not-run`: it was never started (an earlier call of the same step ended the turn, or a budget stopped it);
 * - `unsaved`: it ran but its outcome could not be saved;
 * - `denied`: a person or a policy refused to let it run;
 * - `skill`: a skill broke (it threw while loading, or while the call ran).
 */
export type ToolErrorKind =
  | 'unknown-tool'
  | 'unknown-skill'
  | 'invalid-input'
  | 'threw'
  | 'timeout'
  | 'interrupted'
  | 'not-run'
  | 'unsaved'
  | 'denied'
  | 'skill';

/** A message the user sent. */
export interface UserMessage {
  role: 'user';
  content: UserPart[];
}

/** A message the model sent: reasoning and text parts in the order it produced them, then tool calls. */
export interface AssistantMessage {
  role: 'assistant';
  content: AssistantPart[];
  toolCalls?: ToolCall[];
}

/** The result of one tool call, recorded right after the assistant message that made the call. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  name: string;
  /** The output parts, then (as a part of its own) the `contextChanged` lines recorded with it. */
  content: ToolResultPart[];
  isError?: boolean;
  /** Why it is an error, when `isError`. */
  errorKind?: ToolErrorKind;
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

/**
 * Token counts reported by a provider. Cache fields are present where the provider reports them,
 * and are parts of `inputTokens`: uncached input is `inputTokens - cacheReadTokens - cacheWriteTokens`.
 */
/** Prices in US dollars per million tokens. Cache prices default to the input price. */
export interface Price {
  input: number;
  output: number;
  /** Per million tokens read from the prompt cache. */
  cacheRead?: number;
  /** Per million tokens written to the prompt cache. */
  cacheWrite?: number;
}

export interface Usage {
  /** Every input token the request carried, cached or not. */
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens read from the provider's prompt cache (billed at a fraction of the input price). */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache (Anthropic bills them above the input price). */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (part of `outputTokens`, billed at the output price). */
  reasoningTokens?: number;
  /**
   * True when the counts are an estimate, not a provider's report: `scriptedModel` estimates 4
   * characters per token, so cost lines and budgets work offline, and a model call that ended
   * without a response (aborted, or cut mid-stream) is charged its input and what it streamed,
   * estimated the same way. A sum is estimated when any part is.
   */
  estimated?: boolean;
}

/** What a model returns for one request. */
export interface ModelResponse {
  /** The text parts, joined. A model that returns only `text` (no `content`) keeps working. */
  text: string;
  toolCalls: ToolCall[];
  /**
   * Reasoning and text parts in the order the model produced them (reasoning kept byte-exact).
   * When absent, the response is `text` as one text part.
   */
  content?: AssistantPart[];
  usage?: Usage;
  /** The model that answered, as the provider names it (e.g. a dated version), when it says. */
  model?: string;
}

/** One piece of a streamed response. */
export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  /** Readable reasoning as it streams, for display; the finished block follows as `reasoning`. */
  | { type: 'reasoning-delta'; text: string }
  /** A finished reasoning block, byte-exact, in order with the text around it. */
  | { type: 'reasoning'; reasoning: ReasoningPart }
  | { type: 'step-finish'; step: number; usage?: Usage }
  | { type: 'tool-call'; id: string; name: string; input: unknown }
  | { type: 'finish'; usage?: Usage; model?: string };

/** Options passed to every model call. */
export interface ModelCallOptions {
  signal?: AbortSignal;
  /**
   * The OpenTelemetry `Context` of skilltree's span of this call (`chat {model}`), when the call is
   * traced. An adapter whose client makes spans of its own makes them children of it, so that they
   * nest in the turn's trace instead of starting traces of their own (see `sdkSpans` of
   * `anthropic()`). The call also runs with it as the active context, for instrumentation that reads
   * the active context (with a context manager registered).
   */
  traceContext?: unknown;
}

/**
 * The kinds of file a model reads (`Model.accepts`). A file of a kind it does not read is sent to it
 * as one line of text that describes the file (`[image photo.jpg, image/jpeg, 1.2 MB: this model
 * cannot read images]`), the same on every request; the transcript keeps the file itself.
 * Text files (plain text, Markdown, CSV, JSON) are always sent: every adapter can pass them on.
 */
export interface ModelAccepts {
  /** PNG, JPEG, GIF and WebP images. Default true. */
  images?: boolean;
  /** PDF documents. Default true. */
  pdf?: boolean;
  /** Audio (WAV, MP3). Default false: few models take audio in. */
  audio?: boolean;
}

/**
 * A language model. `generate` is required; `stream`, when present, is used by `session.stream()`
 * and `session.send()` so that text arrives as it is produced.
 */
export interface Model {
  /** A short name for errors and logs, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly name?: string;
  /**
   * True for a model that binds its reasoning (or its cache) to the exact prefix of the request:
   * the session then builds every request of a conversation as the previous one plus appended
   * items, and passes it as {@link ModelRequest.appendOnly}. The adapters set it from their model
   * tables (see `docs/models.md`).
   */
  readonly appendOnly?: boolean;
  /**
   * The kinds of file the model reads (see {@link ModelAccepts}). Left out: images and PDFs, no
   * audio, as a vision model. The session sends a file of a kind it does not read as a line of text
   * describing it, and reports that once per session (a `warning` event). The adapters set it from
   * their model tables (see `docs/files.md`).
   */
  readonly accepts?: ModelAccepts;
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
  /** Limits on the files users send and tools return (per file, message and chat; media types). */
  files?: FileLimits;
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
  /**
   * OpenTelemetry traces of turns, model calls, tool calls and skill loads (see
   * `docs/observability.md`). On by default: spans go to the tracer provider registered with
   * `@opentelemetry/api` (an optional peer), so without an SDK they cost nothing. `false` turns
   * them off.
   */
  telemetry?: boolean | TelemetryOptions;
  /** Limits on what a turn, the session (and, with `createSessions`, an owner) may spend. */
  budget?: Budget;
}

/** Options of one `send`/`stream`. */
export interface SendOptions {
  /** Aborts the model call and any running tool; the transcript stays valid. */
  signal?: AbortSignal;
  /**
   * Files the user sends with the text (images, PDFs, text files): bytes, base64 or a data URL, with
   * a media type (checked against the bytes) and a filename. Checked against the session's `files`
   * limits before anything is recorded: a refused file throws a `FileRejectedError` and the chat is
   * as it was. The text may then be empty.
   */
  files?: readonly (FileInput | FilePart)[];
  /**
   * The OpenTelemetry `Context` the turn's span is a child of (e.g. the server's request span).
   * Default: the active context of `@opentelemetry/api`.
   */
  traceContext?: unknown;
}

// ───────────────────────────── telemetry and budgets ─────────────────────────────

/** Attribute values OpenTelemetry accepts. */
export type TelemetryAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/**
 * The part of an OpenTelemetry `Tracer` skilltree uses; a `Tracer` from `@opentelemetry/api` is one.
 * Declared here so that core's types do not need the package.
 */
export interface TelemetryTracer {
  startSpan(name: string, options?: object, context?: unknown): unknown;
}

/** How a session traces. See `docs/observability.md` for the spans and their attributes. */
export interface TelemetryOptions {
  /** `false` turns tracing off. Default true. */
  enabled?: boolean;
  /**
   * Record content on the spans: the system prompt, the messages and the reply of each model call,
   * each tool call's input and result, the user's text, and the text of errors (the message and
   * stack of what a tool, the model or a render threw). Default false: spans carry names, counts,
   * ids, costs and error types, never what was said, and a failed span's status description is a
   * generic sentence.
   */
  recordContent?: boolean;
  /** The tracer. Default: `trace.getTracer('@skilltree/core')` from `@opentelemetry/api`. */
  tracer?: TelemetryTracer;
  /** `gen_ai.agent.name`, and the turn span's name (`invoke_agent {agentName}`). */
  agentName?: string;
  /**
   * `gen_ai.conversation.id` and `skilltree.session.id` of a session made with `createSession`
   * (default: a random id per session). `createSessions` uses the session id.
   */
  conversationId?: string;
  /** Attributes set on every span, e.g. `{ 'deployment.environment.name': 'prod' }`. */
  attributes?: Record<string, TelemetryAttributeValue>;
}

/** Spending limits; either or both. Tokens are input plus output tokens as the model reports them. */
export interface BudgetLimits {
  /** Input plus output tokens. */
  tokens?: number;
  /** US dollars, priced with `estimateCost` (see {@link Budget.price}). */
  dollars?: number;
}

/** The period of an owner's budget: a UTC calendar day or month, or a fixed window in milliseconds (1 000 up to ten years). */
export type BudgetPeriod = 'day' | 'month' | number;

/**
 * What a conversation may spend. Before each model call the turn checks what was spent plus the
 * next request's input (estimated at 4 characters per token) against every limit; over one, the
 * turn stops with `BudgetExceededError` (`onExceed: 'stop'`, default) or reports a `warning` event
 * and goes on (`'warn'`). An owner's calls reserve that input in the store before they start, so
 * concurrent turns cannot all pass one check (see `docs/observability.md`, budgets).
 */
export interface Budget {
  /** Limits of one turn (one `send`). */
  perTurn?: BudgetLimits;
  /** Limits of the whole session (its `usage`, restored sessions included). */
  perSession?: BudgetLimits;
  /**
   * Limits of everything one owner's sessions spend in a period (`createSessions` with an `owner`;
   * the spend is kept in the session store, so it holds across processes).
   */
  perOwner?: BudgetLimits & { period: BudgetPeriod };
  /** `'stop'` (default): the turn ends with `BudgetExceededError`. `'warn'`: a `warning` event, and it goes on. */
  onExceed?: 'stop' | 'warn';
  /**
   * The price for dollar limits: a `Price` (finite rates from 0 up) or a model name with a list
   * price (see `priceFor`). Anything else is refused when the session is made. Default: the model's
   * list price.
   */
  price?: Price | string;
}

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
}

/** An answer to a waiting call. */
export type ToolAnswer =
  | { toolCallId: string; type: 'approve' }
  | { toolCallId: string; type: 'deny'; reason?: string }
  | { toolCallId: string; type: 'result'; output: unknown; isError?: boolean };

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
  | { type: 'context-changed'; lines: string[] }
  | { type: 'skill-loaded'; name: string }
  | { type: 'skill-unloaded'; name: string; reason?: UnloadReason }
  | { type: 'message'; message: Message }
  /** The calls waiting now changed (calls began to wait, or one is answered and runs). Sessions commit it. */
  | { type: 'waiting'; calls: WaitingCall[] }
  | { type: 'store-changed'; name: string; state: unknown }
  | { type: 'warning'; message: string; source?: string }
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
  /** What the session announced to the model about its skills, so that a restored session sends the same deltas. */
  lifecycle?: LifecycleLogData;
  /** What was sent to a model with `appendOnly`, so a restored session goes on appending. */
  sent?: SentLogData;
  /** Calls waiting for approval or for a client's result. */
  waiting?: WaitingCall[];
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
