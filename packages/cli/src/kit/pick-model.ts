/**
 * Chooses the model: `--model`, else the agent module's `model` export, else `SKILLTREE_MODEL`, else
 * the first provider of `@skilltree/models`' table whose key is set, else the agent module's
 * scripted `demo`. The
 * providers, their keys and default models come from that table (the agent's own copy of the
 * package first, so providers its project registered count); `scripted:` and `demo` are the CLI's.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Model, ScriptedStep } from '@skilltree/core';
import { providers as ownProviders, type Provider } from '@skilltree/models';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';
import type { AgentModule } from './load-module.js';
import type { ModuleModel } from './module-options.js';
import { importNextTo } from './resolve.js';

/** The CLI's own models, not providers: a script file, the module's demo. */
const OWN_SPECS = ['scripted:<file.json>', 'demo'];

/** `a, b, c or d`. */
const either = (items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** What `--model` takes, for help and errors: `anthropic:<model-id>, openai:<model-id>, scripted:<file.json> or demo`. */
export function modelSpecs(table: readonly Provider[] = ownProviders()): string {
  return either([...table.map((p) => `${p.prefix}:<model-id>`), ...OWN_SPECS]);
}

/** The key variables, for messages: `ANTHROPIC_API_KEY or OPENAI_API_KEY`. */
export function keyVariables(table: readonly Provider[] = ownProviders()): string {
  return either(table.map((p) => p.apiKeyEnv));
}

/** What `--model` takes, for help. */
export const MODEL_SPEC_HELP = modelSpecs();

/** How the model is chosen without `--model`, for help. */
export const MODEL_CHOICE_HELP = `Model choice: --model, else the module's "model" export, else SKILLTREE_MODEL, else ${ownProviders()
  .map((p) => `${p.prefix}:${p.defaultModel} when ${p.apiKeyEnv} is set`)
  .join(',\nelse ')}, else the module's demo.`;

/** The environment variables model choice reads, with what each is for, for help. */
export const MODEL_ENV_HELP: readonly (readonly [string, string])[] = [
  ...ownProviders().map(
    (p) =>
      [
        [p.apiKeyEnv, p.baseUrlEnv].filter(Boolean).join(', '),
        `${p.name} key${p.baseUrlEnv ? ' and endpoint' : ''} (default model: ${p.defaultModel})`,
      ] as const,
  ),
  ['SKILLTREE_MODEL', 'the model when neither --model nor the module names one'],
];

/** The chat id `chat` and `run` give a module's model function without `--session`. */
export const CLI_CHAT_ID = 'cli';

/** The chosen model. */
export interface PickedModel {
  /**
   * What the user can pass to `--model` to get this model again, e.g. `openai:gpt-4.1` or `demo`;
   * for the module's own model, its `name` (`the module's model` when it has none or is a function).
   */
  label: string;
  /** The provider's prefix (`anthropic`, `openai`, or a registered one), `scripted`, `demo` or `module`. */
  kind: string;
  /** A fresh model instance (scripted models start their script again, e.g. after `/reset`). */
  create(): Model;
  /**
   * Set when the model is the module's function of the chat: the model of chat `id` of `owner`
   * (`serve` gives each chat its own; `chat` and `run` call it with the `--session` name, else
   * {@link CLI_CHAT_ID}, and no owner).
   */
  forChat?: (id: string, owner: string | undefined) => Model;
  /** Set when the model was picked by default: a line for stderr saying which and why. */
  notice?: string;
}

/** Where {@link pickModel} looks. */
export interface PickModelContext {
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * The loaded agent module: its `demo`, the `@skilltree/core` copy that builds scripted models,
   * its path (the `@skilltree/models` next to it holds the providers its project registered), and
   * its `model` export.
   */
  agent: Pick<AgentModule, 'demo' | 'core'> & { path?: string; options?: { model?: ModuleModel } };
}

/** The provider table as the agent module sees it, else the CLI's own. */
async function providerTable(agent: PickModelContext['agent']): Promise<readonly Provider[]> {
  const theirs = agent.path
    ? await importNextTo(
        agent.path,
        '@skilltree/models',
        (m): m is { providers: () => readonly Provider[] } => typeof m?.providers === 'function',
      )
    : null;
  return (theirs ?? { providers: ownProviders }).providers();
}

function set(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value : undefined;
}

/** A model of `provider`, with the key and endpoint from the environment. */
async function fromProvider(
  provider: Provider,
  id: string,
  env: PickModelContext['env'],
  notice?: string,
): Promise<PickedModel> {
  const apiKey = set(env[provider.apiKeyEnv]);
  const baseURL = provider.baseUrlEnv ? set(env[provider.baseUrlEnv]) : undefined;
  if (!apiKey && !baseURL) {
    throw new CliError(`--model ${provider.prefix}:${id} needs ${provider.apiKeyEnv} in the environment.`);
  }
  let factory: Awaited<ReturnType<Provider['factory']>>;
  try {
    factory = await provider.factory();
  } catch (error) {
    throw new CliError(
      `Could not load the ${provider.prefix} adapter: ${errorMessage(error)} (is @skilltree/models built?)`,
    );
  }
  const options = { model: id, apiKey: apiKey ?? 'none', ...(baseURL ? { baseURL } : {}) };
  const create = () => factory(options);
  try {
    create();
  } catch (error) {
    throw new CliError(`Could not create the ${provider.prefix} model: ${errorMessage(error)}`);
  }
  return { label: `${provider.prefix}:${id}`, kind: provider.prefix, create, notice };
}

/** Checks and reads a `scripted:<file.json>` script: a JSON array of `{ text?, toolCalls? }` steps. */
export function readScript(file: string, cwd: string): ScriptedStep[] {
  const path = resolve(cwd, file);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`Could not read the script ${file}: ${errorMessage(error)}`);
  }
  const steps = Array.isArray(data) ? data : (data as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) {
    throw new CliError(`${file}: a script is a JSON array of steps, e.g. [{ "text": "Hello!" }].`);
  }
  steps.forEach((step, i) => {
    const where = `${file}: step ${i + 1}`;
    if (!step || typeof step !== 'object' || Array.isArray(step)) throw new CliError(`${where} is not an object.`);
    const { text, toolCalls } = step as { text?: unknown; toolCalls?: unknown };
    if (text !== undefined && typeof text !== 'string') throw new CliError(`${where}: "text" must be a string.`);
    if (toolCalls === undefined) return;
    if (!Array.isArray(toolCalls)) throw new CliError(`${where}: "toolCalls" must be an array.`);
    toolCalls.forEach((call, j) => {
      if (!call || typeof call !== 'object' || typeof (call as { name?: unknown }).name !== 'string') {
        throw new CliError(`${where}: toolCalls[${j}] needs a "name" (string).`);
      }
    });
  });
  return steps as ScriptedStep[];
}

/** The module's `model` export as a picked model. */
function fromModule(model: ModuleModel): PickedModel {
  const why = '--model overrides it';
  if (typeof model === 'function') {
    const label = "the module's model";
    return {
      label,
      kind: 'module',
      create: () => model(CLI_CHAT_ID, undefined),
      forChat: model,
      notice: `Using the module's "model" export, a model per chat (${why}).`,
    };
  }
  const label = model.name ?? "the module's model";
  return {
    label,
    kind: 'module',
    create: () => model,
    notice: `Using the module's "model" export${model.name ? ` (${model.name})` : ''} (${why}).`,
  };
}

/**
 * Resolves a model spec (or the default) to a {@link PickedModel}.
 *
 * @param spec `<provider>[:<id>]` for a provider of the table (`anthropic`, `openai`, …),
 *   `scripted:<file.json>`, `demo`, or undefined for the default: the module's `model` export,
 *   else `SKILLTREE_MODEL`, else a provider whose key is set, else the module's `demo`.
 * @example
 * await pickModel('openai:gpt-4.1', { env: process.env, cwd: process.cwd(), agent });
 */
export async function pickModel(spec: string | undefined, context: PickModelContext): Promise<PickedModel> {
  const { env, cwd, agent } = context;
  const table = await providerTable(agent);
  const own = agent.options?.model;
  if (spec === undefined && own !== undefined) return fromModule(own);
  const chosen = spec ?? set(env.SKILLTREE_MODEL);
  if (chosen !== undefined) {
    const colon = chosen.indexOf(':');
    const kind = (colon === -1 ? chosen : chosen.slice(0, colon)).trim();
    const rest = colon === -1 ? '' : chosen.slice(colon + 1).trim();
    const provider = table.find((p) => p.prefix === kind);
    if (provider) return fromProvider(provider, rest || provider.defaultModel, env);
    if (kind === 'scripted') {
      if (!rest) throw new CliError('--model scripted:<file.json> needs a file.', USAGE_ERROR);
      const steps = readScript(rest, cwd);
      return { label: `scripted:${rest}`, kind: 'scripted', create: () => agent.core.scriptedModel(steps) };
    }
    if (kind === 'demo') {
      if (!agent.demo) throw new CliError('--model demo: the agent module has no "demo" export.');
      return { label: 'demo', kind: 'demo', create: agent.demo.model };
    }
    throw new CliError(`Unknown model "${chosen}". Use ${modelSpecs(table)}.`, USAGE_ERROR);
  }
  for (const provider of table) {
    if (!set(env[provider.apiKeyEnv])) continue;
    const id = provider.defaultModel;
    const notice = `Using ${provider.prefix}:${id} (${provider.apiKeyEnv} is set; choose with --model).`;
    return fromProvider(provider, id, env, notice);
  }
  if (agent.demo) {
    return {
      label: 'demo',
      kind: 'demo',
      create: agent.demo.model,
      notice: `No ${keyVariables(table)} set: playing the module's scripted demo.`,
    };
  }
  throw new CliError(
    `No model: set ${keyVariables(table)}, pass --model scripted:<file.json>, or export a "model" or a "demo" from the agent module.`,
  );
}

/** Whether a key of any provider of the CLI's table is set in `env`. */
export function hasProviderKey(env: PickModelContext['env']): boolean {
  return ownProviders().some((p) => set(env[p.apiKeyEnv]) !== undefined);
}
