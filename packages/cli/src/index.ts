/**
 * `@skilltree/cli`: the `skilltree` command, and the pieces it is built from for tools that want to
 * run agent modules the same way (the playground, editors, scripts).
 *
 * @packageDocumentation
 */
export type { CommandSpec } from './kit/command.js';
export type { Command, CommandName } from './kit/command-names.js';
export { type PriceChoice, parsePrice, priceForModel } from './kit/cost.js';
export { CliError, RUNTIME_ERROR, USAGE_ERROR } from './kit/errors.js';
export { FLAGS, type Flag } from './kit/flag-table.js';
export { type CliArgs, parseCliArgs } from './kit/flags.js';
export type { Io, Output } from './kit/io.js';
export { type AgentDemo, type AgentModule, type CoreModule, loadAgentModule } from './kit/load-module.js';
export type {
  ModuleBudget,
  ModuleEngine,
  ModuleModel,
  ModuleOptions,
  ModuleSessionOptions,
} from './kit/module-options.js';
export {
  type PickedModel,
  type PickModelContext,
  pickModel,
  readScript,
} from './kit/pick-model.js';
export { createStyle, formatRequest, formatSkills, formatTranscript, type Style } from './kit/print.js';
export { main, version } from './main.js';
