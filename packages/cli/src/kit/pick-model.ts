/**
 * Chooses the model: `--model`, else `SKILLTREE_MODEL`, else Anthropic or OpenAI when their key is
 * set, else the agent module's scripted `demo`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Model, ScriptedStep } from '@skilltree/core';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';
import type { AgentModule } from './load-module.js';

/** Model id used for `anthropic` (no id given) and when only `ANTHROPIC_API_KEY` is set. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';

/** Model id used for `openai` (no id given) and when only `OPENAI_API_KEY` is set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

/** What `--model` takes, for help. */
export const MODEL_SPEC_HELP = 'anthropic:<model-id>, openai:<model-id>, scripted:<file.json> or demo';

/** How the model is chosen without `--model`, for help. */
export const MODEL_CHOICE_HELP = `Model choice: --model, else SKILLTREE_MODEL, else anthropic:${DEFAULT_ANTHROPIC_MODEL} when ANTHROPIC_API_KEY is set,
else openai:${DEFAULT_OPENAI_MODEL} when OPENAI_API_KEY is set, else the module's demo.`;

/** The environment variables model choice reads, with what each is for, for help. */
export const MODEL_ENV_HELP: readonly (readonly [string, string])[] = [
  ['ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL', `Anthropic key and endpoint (default model: ${DEFAULT_ANTHROPIC_MODEL})`],
  [
    'OPENAI_API_KEY, OPENAI_BASE_URL',
    `OpenAI (or compatible server) key and endpoint (default model: ${DEFAULT_OPENAI_MODEL})`,
  ],
  ['SKILLTREE_MODEL', 'the default for --model'],
];

/** The chosen model. */
export interface PickedModel {
  /** What the user can pass to `--model` to get this model again, e.g. `openai:gpt-4.1` or `demo`. */
  label: string;
  kind: 'anthropic' | 'openai' | 'scripted' | 'demo';
  /** A fresh model instance (scripted models start their script again, e.g. after `/reset`). */
  create(): Model;
  /** Set when the model was picked by default: a line for stderr saying which and why. */
  notice?: string;
}

/** Where {@link pickModel} looks. */
export interface PickModelContext {
  env: Record<string, string | undefined>;
  cwd: string;
  /** The loaded agent module (for `demo` and the `@skilltree/core` copy that builds scripted models). */
  agent: Pick<AgentModule, 'demo' | 'core'>;
}

type Factory = (options: { model: string; apiKey?: string; baseURL?: string }) => Model;

async function adapter(provider: 'anthropic' | 'openai'): Promise<Factory> {
  const specifier = `@skilltree/models/${provider}`;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`Could not load ${specifier}: ${errorMessage(error)} (is @skilltree/models built?)`);
  }
  const factory = mod[provider];
  if (typeof factory !== 'function') throw new CliError(`${specifier} does not export ${provider}().`);
  return factory as Factory;
}

function set(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value : undefined;
}

async function provider(
  name: 'anthropic' | 'openai',
  id: string,
  env: PickModelContext['env'],
  notice?: string,
): Promise<PickedModel> {
  const prefix = name.toUpperCase();
  const apiKey = set(env[`${prefix}_API_KEY`]);
  const baseURL = set(env[`${prefix}_BASE_URL`]);
  if (!apiKey && !baseURL) {
    throw new CliError(`--model ${name}:${id} needs ${prefix}_API_KEY in the environment.`);
  }
  const factory = await adapter(name);
  const options = { model: id, apiKey: apiKey ?? 'none', ...(baseURL ? { baseURL } : {}) };
  const create = () => factory(options);
  try {
    create();
  } catch (error) {
    throw new CliError(`Could not create the ${name} model: ${errorMessage(error)}`);
  }
  return { label: `${name}:${id}`, kind: name, create, notice };
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

/**
 * Resolves a model spec (or the default) to a {@link PickedModel}.
 *
 * @param spec `anthropic[:<id>]`, `openai[:<id>]`, `scripted:<file.json>`, `demo`, or undefined for the default.
 * @example
 * await pickModel('openai:gpt-4.1', { env: process.env, cwd: process.cwd(), agent });
 */
export async function pickModel(spec: string | undefined, context: PickModelContext): Promise<PickedModel> {
  const { env, cwd, agent } = context;
  const chosen = spec ?? set(env.SKILLTREE_MODEL);
  if (chosen !== undefined) {
    const colon = chosen.indexOf(':');
    const kind = (colon === -1 ? chosen : chosen.slice(0, colon)).trim();
    const rest = colon === -1 ? '' : chosen.slice(colon + 1).trim();
    if (kind === 'anthropic') return provider('anthropic', rest || DEFAULT_ANTHROPIC_MODEL, env);
    if (kind === 'openai') return provider('openai', rest || DEFAULT_OPENAI_MODEL, env);
    if (kind === 'scripted') {
      if (!rest) throw new CliError('--model scripted:<file.json> needs a file.', USAGE_ERROR);
      const steps = readScript(rest, cwd);
      return { label: `scripted:${rest}`, kind: 'scripted', create: () => agent.core.scriptedModel(steps) };
    }
    if (kind === 'demo') {
      if (!agent.demo) throw new CliError('--model demo: the agent module has no "demo" export.');
      return { label: 'demo', kind: 'demo', create: agent.demo.model };
    }
    throw new CliError(
      `Unknown model "${chosen}". Use anthropic:<model-id>, openai:<model-id>, scripted:<file.json> or demo.`,
      USAGE_ERROR,
    );
  }
  if (set(env.ANTHROPIC_API_KEY)) {
    const id = DEFAULT_ANTHROPIC_MODEL;
    return provider('anthropic', id, env, `Using anthropic:${id} (ANTHROPIC_API_KEY is set; choose with --model).`);
  }
  if (set(env.OPENAI_API_KEY)) {
    const id = DEFAULT_OPENAI_MODEL;
    return provider('openai', id, env, `Using openai:${id} (OPENAI_API_KEY is set; choose with --model).`);
  }
  if (agent.demo) {
    return {
      label: 'demo',
      kind: 'demo',
      create: agent.demo.model,
      notice: "No ANTHROPIC_API_KEY or OPENAI_API_KEY set: playing the module's scripted demo.",
    };
  }
  throw new CliError(
    'No model: set ANTHROPIC_API_KEY or OPENAI_API_KEY, pass --model scripted:<file.json>, or export a "demo" from the agent module.',
  );
}
