/**
 * `@skilltree/core/provider`: what a model adapter needs, and what a session store, a server or a
 * tool bridge builds on.
 *
 * An adapter imports from here only: the provider-neutral request (`ModelRequest`, messages and
 * their typed parts, `ToolSpec`, the append-only request and its items, the lifecycle deltas), the
 * `Model` interface with its call options, response and stream parts, `Usage` and `addUsage`, and
 * the helpers adapters share (rendering parts, placing the context, reading files, tool names,
 * tracing). Store implementations find their records, checks and spend shapes here too.
 *
 * Names also exported by the root `@skilltree/core` (an app holds them as well): `Model`,
 * `ModelRequest`, `Usage`, the messages (`Message`, `UserMessage`, `AssistantMessage`,
 * `ToolMessage`, `ToolCall`) an app reads in a transcript, `ContextChange` (an app reads the changes of a
 * `context-changed` event; an adapter renders them), `TelemetryTracer` (an app passes one in
 * its telemetry options), `SessionStore` with the errors stores throw and apps catch
 * (`SessionBusyError`, `SessionConflictError`, `SessionNotFoundError`), and `FileRejectedError`
 * with `FileRejection` (a bridge throws it for a file it refuses; an app catches it from `send`).
 *
 * @packageDocumentation
 */

export { fromBase64, sniffMediaType, toBase64 } from './files/bytes.js';
export { estimateFileTokens, fileBytes, imageSize, toFilePart, toFileParts } from './files/files.js';
export {
  DEFAULT_MEDIA_TYPES,
  FileRejectedError,
  type FileRejection,
  type ResolvedFileLimits,
  resolveFileLimits,
} from './files/limits.js';
export { describeFile, type FileKind, fileKind, formatBytes, modelReads } from './files/model-accepts.js';
/** The name of the catalog's search tool in search mode (`search_skills`), reserved beside `read_skill`. */
export { SEARCH_TOOL_NAME } from './host/catalog.js';
export { addedLines } from './lifecycle/context-changes.js';
export {
  DEFAULT_RESERVED_OUTPUT_TOKENS,
  type Spend,
  type SpendLedger,
  type SpendLimits,
  type SpendReservation,
} from './observe/budget.js';
export { checkBudget, periodOf } from './observe/budget-options.js';
export { checkPrice, pricedAs } from './observe/cost.js';
export { listedModel, parseModelName } from './observe/model-name.js';
export { periodKeys, spentSince } from './observe/spent-since.js';
export { modelIdentity } from './observe/trace-attributes.js';
export {
  errorTypeOf,
  loadOpenTelemetry,
  type OpenTelemetryApi,
  redactedStatus,
  SPAN_KIND,
  type TelemetrySpan,
} from './observe/tracing.js';
export {
  contextChangeLine,
  partsText,
  type RenderedPart,
  reasoningOf,
  renderParts,
  textContent,
  textPart,
  withContextChanges,
} from './parts/message-parts.js';
export { replaysTo } from './parts/reasoning.js';
export { CONTEXT_CHANGED, escapeContext, sanitizeText } from './parts/text.js';
export { isToolName, replaceToolNameChars, TOOL_NAME, TOOL_NAME_MAX_LENGTH } from './parts/tool-name.js';
export { lifecycleProblems } from './request/deltas.js';
export { type PlacedRequest, placeContext } from './request/place-context.js';
export { type PrintOptions, printMessage, printRequest, printSchema, printTool, type Styler } from './request/print.js';
export { estimateSessionBytes } from './sessions/chat-session.js';
export { durableWaitOf, type WaitOutcome, WaitUndeliverableError } from './sessions/durable-wait.js';
export { ownerKey } from './sessions/key.js';
export {
  type Commit,
  checkEpoch,
  checkSessionId,
  type LoadedSession,
  SessionBusyError,
  SessionConflictError,
  SessionNotFoundError,
  type SessionRecord,
  type SessionStore,
  type StoredState,
  snapshotFromStore,
  storedState,
  tailStart,
} from './sessions/session-store.js';
export {
  readStoredMessages,
  type UnreadableRecord,
  unreadableRecord,
  unreadableText,
} from './sessions/stored-messages.js';
export { INTERRUPTED_RESULT, parseMessage, TOOL_ERROR_KINDS, upgradeContent } from './transcript/message-parse.js';
export { isSafeToolCallId } from './transcript/transcript.js';
export { estimateTokens, type Tokenizer } from './transcript/window.js';
export { TurnSupersededError } from './turn/journal.js';
export { abortError, addUsage } from './turn/model-call.js';
export { cutResult, truncationNote } from './turn/tool-call.js';
export type {
  AbandonedHint,
  ChildWorkflow,
  DurableRegistration,
  DurableTurnInput,
  DurableTurnRunner,
  DurableWait,
  DurableWaitState,
  LeaseHold,
  TurnEngine,
  TurnLook,
} from './types/engine.js';
export type {
  AssistantMessage,
  AssistantPart,
  ContextChange,
  ContextChangedPart,
  FilePart,
  Message,
  MessagePart,
  ReasoningPart,
  ReasoningSource,
  TextPart,
  ToolCall,
  ToolErrorKind,
  ToolMessage,
  ToolResultPart,
  UserMessage,
  UserPart,
} from './types/messages.js';
export type { Model, ModelAccepts, ModelCallOptions, ModelResponse, ModelStreamPart, Usage } from './types/model.js';
export type { TelemetryTracer } from './types/options.js';
export type {
  AppendOnlyItem,
  AppendOnlyRequest,
  ContextPlacement,
  LifecycleDelta,
  LifecycleEntry,
  ModelRequest,
  RequestLifecycle,
  SubagentRequestInfo,
  SystemNote,
  ToolSpec,
} from './types/request.js';
/** Where a subagent's run starts: its own conversation (`'isolated'`) or the parent's latest request (`'fork'`). */
export type { SubagentContext } from './types/subagents.js';
