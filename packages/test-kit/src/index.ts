/**
 * `@skilltree/test-kit`: test code more than one workspace package uses. Private and never
 * published; only tests (and test fixtures) import it, never a package's src.
 */

export { anthropicMessageObject } from './anthropic-message.js';
export { type ChatTurnOptions, sendChatTurn } from './chat-client.js';
export { plainChatState } from './chat-state.js';
export { type ListeningOptions, type ListeningProcess, startListening, stopChild } from './child-process.js';
export { CHROMIUM_ARGS, chromiumPath } from './chromium.js';
export { copyFixture, type FixtureCopy } from './fixture-copy.js';
export { AppendTool, type AppendToolProps, type ListKey } from './list-tool.js';
export { type AnyMessage, type AnyToolMessage, changes, failed, ok, own, text } from './message-text.js';
export {
  type OpenAIStep,
  openaiArguments,
  openaiChunkObject,
  openaiCompletionObject,
  openaiUsageObject,
} from './openai-completion.js';
export { type Handler, type Recorded, startServer, type TestServer } from './recording-server.js';
export { ApprovedRefundTool, type ApprovedRefundToolProps } from './refund-tool.js';
export { type Demo, playDemo, type Sayer, sayAll } from './say-all.js';
export { CartSkill, cart, Refunds, ShopAgent, Shopping, Simple, shopLog } from './shop.js';
export { NESTED_CHECKER, subagentRun } from './subagent-run.js';
export { transcriptIsValid } from './transcript-check.js';
