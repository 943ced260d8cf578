/**
 * `@skilltree/core`: write LLM agent skills as React components.
 *
 * @packageDocumentation
 */
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
  useSession,
  useSkill,
} from './components.js';
export { CONTEXT_CHANGED } from './context-changes.js';
export { type JsonSchemaInput, jsonSchema } from './json-schema.js';
export { placeContext } from './place-context.js';
export { escapeContext } from './prompt.js';
export type { SkillInfo, SkillState } from './runtime.js';
export {
  type ScriptedModel,
  type ScriptedResponse,
  type ScriptedStep,
  type ScriptedToolCall,
  scriptedModel,
} from './scripted-model.js';
export type { LineSource, SkillEntry, ToolEntry, TreeSnapshot } from './serialize.js';
export {
  createSession,
  type ReadResult,
  restoreSession,
  type SendOptions,
  Session,
  type SessionConfig,
  type SessionEvent,
  type SessionEventType,
  type SessionOptions,
  type SessionSnapshot,
  type Turn,
} from './session.js';
export { type AgentStoreDef, createAgentStore, type StoreOwner, useAgentStore } from './store.js';
export type {
  AssistantMessage,
  ContextPlacement,
  Message,
  Model,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolCall,
  ToolMessage,
  ToolSpec,
  Usage,
  UserMessage,
} from './types.js';
