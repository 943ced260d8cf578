/**
 * `@skilltree/core`: write LLM agent skills as React components.
 *
 * This is the face an app writes with: the components and hooks, sessions and their stores, tools,
 * budgets, prices, tracing options, the scripted model, events and results. What a model adapter
 * (or a session store, a server, a tool bridge) needs lives in `@skilltree/core/provider`. A few
 * names are in both faces because an app holds them too: the transcript's messages, `Model`,
 * `ModelRequest` and `Usage`, the `SessionStore` contract and its errors, and `FileRejectedError`.
 *
 * @packageDocumentation
 */

export { isToolResult, type ToolResult, toolResult } from './files/files.js';
export { FileRejectedError, type FileRejection } from './files/limits.js';
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
export { Subagent, type SubagentProps } from './host/subagent.js';
export { type BudgetExceeded, BudgetExceededError, type BudgetScope } from './observe/budget-options.js';
export { type Cost, estimateCost, PRICES, type Price, priceFor } from './observe/cost.js';
export { contextChangesOf, ownTextOf, textOf } from './parts/message-parts.js';
export {
  lastToolResult,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponse,
  type ScriptedStep,
  type ScriptedToolCall,
  scriptedModel,
} from './request/scripted-model.js';
export type { SessionView, ViewLine, ViewProblem, ViewSection, ViewSkill, ViewTool } from './request/view.js';
export type { SessionCacheOptions } from './sessions/cache.js';
export { TurnHandedOverError } from './sessions/durable-handover.js';
export { checkOwner } from './sessions/key.js';
export { memoryStore } from './sessions/memory-store.js';
export { createSession, restoreSession, Session } from './sessions/session.js';
export {
  SessionBusyError,
  SessionConflictError,
  SessionNotFoundError,
  type SessionStore,
} from './sessions/session-store.js';
export {
  createSessions,
  type SessionInfo,
  type SessionReadOptions,
  type Sessions,
  type SessionsOptions,
  type SessionTurnOptions,
} from './sessions/sessions.js';
export { DurableReplayError } from './turn/journal.js';
export { ToolAnswerError, type ToolAnswerProblem } from './turn/waiting.js';
export type {
  CatalogMode,
  CatalogOptions,
  CatalogSkill,
  SkillMatch,
  SkillRanker,
  SkillRankerOptions,
} from './types/catalog.js';
export type {
  AssistantMessage,
  ContextChange,
  FileInput,
  FileLimits,
  Message,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './types/messages.js';
export type { Model, Usage } from './types/model.js';
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
export type { ModelRequest, RequestAttribution, SkillAttribution } from './types/request.js';
export type {
  AnnouncedSkill,
  AnswerBinding,
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
export type {
  SpawnCost,
  SpawnInfo,
  SubagentRun,
  SubagentStatus,
} from './types/subagents.js';
