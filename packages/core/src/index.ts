/**
 * `@skilltree/core`: write LLM agent skills as React components.
 *
 * @packageDocumentation
 */

export { fromBase64, sniffMediaType, toBase64 } from './files/bytes.js';
export {
  estimateFileTokens,
  fileBytes,
  imageSize,
  isToolResult,
  type ToolResult,
  toFilePart,
  toFileParts,
  toolResult,
} from './files/files.js';
export {
  DEFAULT_MEDIA_TYPES,
  FileRejectedError,
  type FileRejection,
  type ResolvedFileLimits,
  resolveFileLimits,
} from './files/limits.js';
export { describeFile, type FileKind, fileKind, formatBytes, modelReads } from './files/model-accepts.js';
export { type AgentStoreDef, createAgentStore, type StoreOwner } from './host/agent-store.js';
export {
  Agent,
  type AgentProps,
  type InputSchema,
  Instructions,
  Skill,
  type SkillProps,
  Text,
  type TextProps,
  Tool,
  type ToolContext,
  type ToolProps,
  useAgentStore,
  useChatInfo,
  useSession,
  useSkill,
} from './host/components.js';
export { type JsonSchemaInput, jsonSchema } from './host/json-schema.js';
export type { ChatInfo, SessionHandle, SkillInfo, SkillState } from './host/runtime.js';
export { addedLines } from './lifecycle/context-changes.js';
export type { Spend, SpendLedger, SpendLimits, SpendReservation } from './observe/budget.js';
export {
  type BudgetExceeded,
  BudgetExceededError,
  type BudgetScope,
  checkBudget,
  periodOf,
} from './observe/budget-options.js';
export { type Cost, checkPrice, estimateCost, PRICES, type Price, pricedAs, priceFor } from './observe/cost.js';
export { listedModel, parseModelName } from './observe/model-name.js';
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
  contextChangesOf,
  ownTextOf,
  partsText,
  type RenderedPart,
  reasoningOf,
  renderParts,
  textContent,
  textOf,
  textPart,
  withContextChanges,
} from './parts/message-parts.js';
export { replaysTo } from './parts/reasoning.js';
export { CONTEXT_CHANGED, escapeContext, sanitizeText } from './parts/text.js';
export { isToolName, replaceToolNameChars, TOOL_NAME, TOOL_NAME_MAX_LENGTH } from './parts/tool-name.js';
export { lifecycleProblems } from './request/deltas.js';
export { type PlacedRequest, placeContext } from './request/place-context.js';
export { type PrintOptions, printMessage, printRequest, printSchema, printTool, type Styler } from './request/print.js';
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponse,
  type ScriptedStep,
  type ScriptedToolCall,
  scriptedModel,
} from './request/scripted-model.js';
export type { SessionView, ViewLine, ViewProblem, ViewSection, ViewSkill, ViewTool } from './request/view.js';
export { checkOwner, ownerKey } from './sessions/key.js';
export { memoryStore } from './sessions/memory-store.js';
export { createSession, restoreSession, Session } from './sessions/session.js';
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
  createSessions,
  type SessionInfo,
  type SessionReadOptions,
  type Sessions,
  type SessionsOptions,
  type SessionTurnOptions,
} from './sessions/sessions.js';
export { INTERRUPTED_RESULT, parseMessage, TOOL_ERROR_KINDS, upgradeContent } from './transcript/message-parse.js';
export { isSafeToolCallId } from './transcript/transcript.js';
export { estimateTokens, type Tokenizer } from './transcript/window.js';
export { addUsage } from './turn/model-call.js';
export { cutResult, truncationNote } from './turn/tool-call.js';
export { ToolAnswerError, type ToolAnswerProblem } from './turn/waiting.js';
export type {
  AssistantMessage,
  AssistantPart,
  ContextChange,
  ContextChangedPart,
  FileInput,
  FileLimits,
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
export type {
  Budget,
  BudgetLimits,
  BudgetPeriod,
  LifecycleOptions,
  SendOptions,
  SessionOptions,
  TelemetryAttributeValue,
  TelemetryOptions,
  TelemetryTracer,
} from './types/options.js';
export type {
  AppendOnlyItem,
  AppendOnlyRequest,
  ContextPlacement,
  LifecycleDelta,
  LifecycleEntry,
  ModelRequest,
  RequestLifecycle,
  SystemNote,
  ToolSpec,
} from './types/request.js';
export type {
  AnnouncedSkill,
  LifecycleLogData,
  ReadResult,
  SessionConfig,
  SessionEvent,
  SessionEventType,
  SessionSnapshot,
  ToolAnswer,
  Turn,
  UnloadReason,
  WaitingCall,
  Warning,
} from './types/session.js';
