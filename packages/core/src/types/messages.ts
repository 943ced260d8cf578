/**
 * Messages and their typed parts: what a person, the model and a tool say.
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
 * A model's reasoning: its readable text, who produced it (the adapter's provider name, the endpoint
 * it was configured with, the model), and an opaque payload that adapter needs to send it back
 * (Anthropic's `signature`, OpenAI's encrypted item, …). `text` may be empty (a provider that keeps
 * its reasoning hidden, or summarises it). Reasoning is sent back only where `replaysTo` says so: to
 * the same provider, endpoint and model; see `docs/models.md`.
 */
export interface ReasoningPart extends ReasoningSource {
  type: 'reasoning';
  /** The readable reasoning (or its summary); may be empty. */
  text: string;
  /**
   * What the adapter that wrote the part needs to replay it, kept byte-exact. Opaque: only that
   * adapter reads its fields (as the AI SDK's `providerOptions`). A record written before payloads
   * existed (`signature`, `redactedData`, `encryptedContent`, `itemId` at the top) is upgraded on read.
   */
  providerData?: Record<string, unknown>;
}

/**
 * Who produced reasoning, or who it would be sent to, as an adapter names itself from its
 * configuration (never from the wire format it speaks): two adapters that speak the same API to
 * different endpoints are different sources.
 */
export interface ReasoningSource {
  /** The adapter's provider name: `anthropic`, `openai`, `ai-sdk:openai.responses`, … */
  provider: string;
  /** The endpoint (base URL) the adapter was configured with, when it is not the provider's own. */
  endpoint?: string;
  /** The model, as the adapter was configured with it. Empty when unknown: such reasoning is never sent. */
  model: string;
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
 * One change of the model's context since the previous message, as data:
 * - `loaded` / `unloaded`: skill `skill` entered or left the context;
 * - `line`: section `skill` (`agent`, or a skill's name) gained a line; `text` is that line as the
 *   model reads it (cut to `contextLineLimit` characters, section tags escaped).
 *
 * The model reads each change as one `contextChanged` line (`contextChanged notes loaded`,
 * `contextChanged notes added: Notes: milk`); core's `contextChangeLine` is the one place that
 * writes it. Read `kind`, never the line.
 */
export type ContextChange =
  | { kind: 'loaded' | 'unloaded'; skill: string }
  | { kind: 'line'; skill: string; text: string };

/**
 * The context changes recorded with a message: what the context gained, and which skills loaded
 * and unloaded, since the previous message. Adapters render them (`renderParts`) as the
 * `contextChanged` lines a model reads, after the message's own text.
 */
export interface ContextChangedPart {
  type: 'context-changed';
  changes: ContextChange[];
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
  /**
   * Bytes of every file that entered the chat (users', tools' and MCP servers'), over its whole
   * transcript, counted once and kept with the chat (`snapshot.fileBytes`, a store's record). Default 100 MB.
   */
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
