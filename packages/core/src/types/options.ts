/**
 * Session options: the lifecycle, sending, telemetry and budgets.
 */
import type { FileInput, FileLimits, FilePart } from './messages.js';
import type { Model, Price } from './model.js';
import type { ContextPlacement } from './request.js';
import type { SpawnInfo } from './subagents.js';

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
  /**
   * How many `<Subagent>` runs one step may run at once (SPEC §19): the calls of one assistant
   * message that call subagents start together, up to this many, the rest as earlier ones end.
   * Default 4. Their results are recorded in call order all the same. In a durable turn a run
   * waiting for a slot joins when an earlier run of the step is seen to end in its step rounds
   * (docs/durable.md, Subagent runs).
   */
  subagentConcurrency?: number;
  /** How deep runs may nest (a run's `<Subagent>` spawning another): a call past it is an error result. Default 3. */
  maxSubagentDepth?: number;
  /**
   * Called before each run's first request is sent, with what it costs (see `SpawnCost`), for every
   * `<Subagent>` of the session (a `<Subagent onSpawn>` is called too).
   */
  onSpawn?: (info: SpawnInfo) => void;
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
