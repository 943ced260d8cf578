/**
 * `@skilltree/testing/pure`: everything `@skilltree/testing` exports, without registering
 * automatic cleanup or setting `IS_REACT_ACT_ENVIRONMENT` on import. Call `cleanup()` yourself.
 *
 * @packageDocumentation
 */
export {
  act,
  assertOutsideAct,
  getIsReactActEnvironment,
  setReactActEnvironment,
  withoutActEnvironment,
} from './act.js';
export { cleanup } from './cleanup.js';
export * from './matchers.js';
export {
  type TestAssistantMessage,
  type TestMessage,
  type TestRequest,
  type TestToolMessage,
  type TestTurn,
  type TestUserMessage,
  testMessage,
  testRequest,
  testTurn,
} from './messages.js';
export { type PrettyOptions, prettyMessage, prettyRequest, prettySchema, prettyTool } from './pretty.js';
export {
  type BoundQueries,
  buildQueries,
  defaultNormalizer,
  type Matcher,
  type MatchOptions,
  type QueryFamily,
  queryAllSkills,
  queryAllText,
  queryAllTools,
  within,
} from './queries.js';
export { type AgentHandle, isAgentHandle, type RenderAgentOptions, renderAgent } from './render-agent.js';
export {
  callSubagent,
  callTool,
  callTools,
  finish,
  type ReadSkillStepOptions,
  readSkill,
  reason,
  reply,
} from './steps.js';
export type { SkillView, TextMatch, ToolMatch } from './view.js';
export { type WaitForOptions, waitFor } from './wait-for.js';
