/**
 * `@skilltree/server`: serve skilltree agents to web apps. `createHandler` is a Web-standard
 * `(Request) => Promise<Response>` that speaks the AI SDK UI message stream, so the AI SDK's `useChat`
 * talks to a skilltree agent as it would to `streamText`; `toNodeListener` runs it on `node:http`
 * and Express.
 *
 * @packageDocumentation
 */
export { CHAT_ID, type ChatRequest, checkChatId, parseChatBody } from './body.js';
export { budgetNotice, isBudgetError } from './budget-status.js';
export { type SkilltreeUIChunk, type TurnStreamOptions, turnStream } from './chat-stream.js';
export {
  type Authorize,
  type ClientInfo,
  createHandler,
  type Handler,
  type HandlerOptions,
  LOCAL_USER,
  LOOPBACK_NOTICE,
  type ToolErrorChat,
} from './handler.js';
export { HttpError, isUnmatched } from './http.js';
export {
  bodyLimitFor,
  type Limits,
  type MemoryRateLimiter,
  type MemoryRateLimiterOptions,
  memoryRateLimiter,
  type RateDecision,
  type RateLimiter,
} from './limits.js';
export { isLoopbackAddress, isLoopbackHost, PROXY_HEADERS, proxyHeader } from './loopback.js';
export { type NodeListener, toNodeListener, type WebHandler } from './node.js';
export type { SubagentUIData, SubagentUIItem, SubagentUIPart, SubagentUITool } from './subagent-parts.js';
export {
  defaultToolErrorText,
  invalidInputForUsers,
  isToolErrorForUsers,
  redactedToolError,
  type ToolError,
  type ToolErrorText,
  toolError,
} from './tool-errors.js';
export type { ServerTelemetry, ServerTelemetryOptions } from './tracing.js';
export {
  changeParts,
  type SkilltreeDataParts,
  type SkilltreeUIMessage,
  type SkilltreeUIPart,
  type ToUIMessagesOptions,
  toUIMessages,
} from './ui-messages.js';
