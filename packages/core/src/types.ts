/**
 * The provider-neutral shapes that cross the boundary between a session and a model.
 * Adapters in `@skilltree/models` translate these to and from each provider's wire format.
 */

/** A tool call the model made, as it appears in an assistant message. */
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

/** Token counts reported by a provider. Cache fields are present where the provider reports them. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
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
