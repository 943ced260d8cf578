/**
 * `@skilltree/core`: write LLM agent skills as React components.
 *
 * @packageDocumentation
 */

export {
  type BudgetExceeded,
  BudgetExceededError,
  type BudgetScope,
  checkBudget,
  periodOf,
  type Spend,
  type SpendLedger,
  type SpendLimits,
  type SpendReservation,
} from './budget.js';
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
} from './components.js';
export { addedLines, type ContextChange, parseContextChange } from './context-changes.js';
export { type Cost, checkPrice, estimateCost, PRICES, type Price, pricedAs, priceFor } from './cost.js';
export { lifecycleProblems } from './deltas.js';
export {
  DEFAULT_MEDIA_TYPES,
  estimateFileTokens,
  FileRejectedError,
  type FileRejection,
  fileBytes,
  fromBase64,
  imageSize,
  isToolResult,
  type ResolvedFileLimits,
  resolveFileLimits,
  sniffMediaType,
  type ToolResult,
  toBase64,
  toFilePart,
  toFileParts,
  toolResult,
} from './files.js';
export { type JsonSchemaInput, jsonSchema } from './json-schema.js';
export { memoryStore } from './memory-store.js';
export { INTERRUPTED_RESULT, parseMessage, TOOL_ERROR_KINDS, upgradeContent } from './message-parse.js';
export { describeFile, type FileKind, fileKind, formatBytes, modelReads } from './model-accepts.js';
export { addUsage } from './model-call.js';
export {
  contextChangesOf,
  ownTextOf,
  partsText,
  type RenderedPart,
  reasoningOf,
  renderParts,
  textContent,
  textOf,
  textPart,
  withContextLines,
} from './parts.js';
export { type PlacedRequest, placeContext } from './place-context.js';
export { type PrintOptions, printMessage, printRequest, printSchema, printTool, type Styler } from './print.js';
export type { ChatInfo, SessionHandle, SkillInfo, SkillState } from './runtime.js';
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponse,
  type ScriptedStep,
  type ScriptedToolCall,
  scriptedModel,
} from './scripted-model.js';
export { createSession, restoreSession, Session } from './session.js';
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
} from './session-store.js';
export {
  createSessions,
  type SessionInfo,
  type SessionReadOptions,
  type Sessions,
  type SessionsOptions,
  type SessionTurnOptions,
} from './sessions.js';
export { checkOwner, ownerKey } from './sessions-key.js';
export { type AgentStoreDef, createAgentStore, type StoreOwner } from './store.js';
export {
  errorTypeOf,
  loadOpenTelemetry,
  modelIdentity,
  type OpenTelemetryApi,
  redactedStatus,
  SPAN_KIND,
  type TelemetrySpan,
} from './telemetry.js';
export { CONTEXT_CHANGED, escapeContext, sanitizeText } from './text.js';
export { cutResult, truncationNote } from './tool-call.js';
export { isToolName, replaceToolNameChars, TOOL_NAME, TOOL_NAME_MAX_LENGTH } from './tool-name.js';
export { isSafeToolCallId } from './transcript.js';
export type {
  AnnouncedSkill,
  AppendOnlyItem,
  AppendOnlyRequest,
  AssistantMessage,
  AssistantPart,
  Budget,
  BudgetLimits,
  BudgetPeriod,
  ContextChangedPart,
  ContextPlacement,
  FileInput,
  FileLimits,
  FilePart,
  LifecycleDelta,
  LifecycleEntry,
  LifecycleLogData,
  LifecycleOptions,
  Message,
  MessagePart,
  Model,
  ModelAccepts,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ReadResult,
  ReasoningPart,
  RequestLifecycle,
  SendOptions,
  SessionConfig,
  SessionEvent,
  SessionEventType,
  SessionOptions,
  SessionSnapshot,
  SystemNote,
  TelemetryAttributeValue,
  TelemetryOptions,
  TelemetryTracer,
  TextPart,
  ToolAnswer,
  ToolCall,
  ToolErrorKind,
  ToolMessage,
  ToolResultPart,
  ToolSpec,
  Turn,
  UnloadReason,
  Usage,
  UserMessage,
  UserPart,
  WaitingCall,
  Warning,
} from './types.js';
export type { SessionView, ViewLine, ViewProblem, ViewSection, ViewSkill, ViewTool } from './view.js';
export { ToolAnswerError, type ToolAnswerProblem } from './waiting.js';
export { estimateTokens, type Tokenizer } from './window.js';
