/**
 * The model an adapter implements: its calls, responses, stream parts, usage and prices.
 */
import type { AssistantPart, ReasoningPart, ReasoningSource, ToolCall } from './messages.js';
import type { ModelRequest } from './request.js';

/** Prices in US dollars per million tokens. Cache prices default to the input price. */
export interface Price {
  input: number;
  output: number;
  /** Per million tokens read from the prompt cache. */
  cacheRead?: number;
  /** Per million tokens written to the prompt cache. */
  cacheWrite?: number;
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
  /**
   * A piece of a tool call's input (JSON text) as it streams, before the call's `tool-call` part:
   * not shown, but counted, so a call cut off mid-input is charged what it streamed.
   */
  | { type: 'tool-input-delta'; text: string }
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
  /**
   * Who this model is, as the reasoning parts it produces name it (provider, endpoint, model). The
   * session then sends it only the reasoning that `replaysTo` it; left out, the adapter alone
   * decides (with the same rule).
   */
  readonly reasoningSource?: ReasoningSource;
  /**
   * The most output tokens one call may produce (the `max_tokens` the adapter sends; reasoning
   * counts toward it). An owner's budget reserves it with each call's input, so that concurrent
   * calls overshoot a limit by at most one call's output. The adapters set it from their options
   * and model tables; left out, a budget reserves 16 000 (see `docs/observability.md`, budgets).
   */
  readonly maxOutputTokens?: number;
  generate(req: ModelRequest, opts: ModelCallOptions): Promise<ModelResponse>;
  stream?(req: ModelRequest, opts: ModelCallOptions): AsyncIterable<ModelStreamPart>;
}
