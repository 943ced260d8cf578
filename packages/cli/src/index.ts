/**
 * `@skilltree/cli`: the `skilltree` command, and the pieces it is built from for tools that want to
 * run agent modules the same way (the playground, editors, scripts).
 *
 * @packageDocumentation
 */
export { type CliArgs, type Command, parseCliArgs } from './args.js';
export { type PriceChoice, parsePrice, priceForModel } from './cost.js';
export { CliError, RUNTIME_ERROR, USAGE_ERROR } from './errors.js';
export type { Io, Output } from './io.js';
export { type AgentDemo, type AgentModule, type CoreModule, loadAgentModule } from './load-module.js';
export { main, version } from './main.js';
export {
  DEFAULT_ANTHROPIC_MODEL,
  DEFAULT_OPENAI_MODEL,
  type PickedModel,
  type PickModelContext,
  pickModel,
  readScript,
} from './pick-model.js';
export { createStyle, formatRequest, formatSkills, formatTranscript, type Style } from './print.js';
