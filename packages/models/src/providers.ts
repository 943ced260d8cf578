/**
 * The model providers as a table: one row per provider says how `--model` names it, which
 * environment variables hold its key and endpoint, its default model, and how to create a model
 * (importing its adapter and SDK only then). The `skilltree` command iterates the table to parse
 * `--model`, detect keys and write its help: a new provider is its adapter file plus one row here
 * (or, outside this package, {@link registerProvider}).
 */
import type { Model } from '@skilltree/core/provider';

/** What a provider's factory takes: the model id and, when given, the key and the endpoint. */
export interface ProviderModelOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  apiKey?: string;
  baseURL?: string;
}

/** Creates a model of one provider. */
export type ProviderFactory = (options: ProviderModelOptions) => Model;

/** One provider: a row of the table. */
export interface Provider {
  /** Its name in prose: `Anthropic`. */
  readonly name: string;
  /** What `--model` names it by, before the colon: `anthropic` in `anthropic:claude-sonnet-4-5`. */
  readonly prefix: string;
  /** The environment variable that holds the API key: `ANTHROPIC_API_KEY`. */
  readonly apiKeyEnv: string;
  /** The environment variable that holds the endpoint, when the provider has one: `ANTHROPIC_BASE_URL`. */
  readonly baseUrlEnv?: string;
  /** The model used when none is named: `claude-sonnet-4-5`. */
  readonly defaultModel: string;
  /** Imports the adapter (and its SDK) and returns its factory. */
  factory(): Promise<ProviderFactory>;
}

/** The providers this package has adapters for, in the order a key found in the environment picks them. */
const BUILT_IN: readonly Provider[] = [
  {
    name: 'Anthropic',
    prefix: 'anthropic',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    defaultModel: 'claude-sonnet-4-5',
    factory: async () => (await import('./anthropic.js')).anthropic,
  },
  {
    name: 'OpenAI (or a compatible server)',
    prefix: 'openai',
    apiKeyEnv: 'OPENAI_API_KEY',
    baseUrlEnv: 'OPENAI_BASE_URL',
    defaultModel: 'gpt-4.1',
    factory: async () => (await import('./openai.js')).openai,
  },
];

/** Providers registered from outside this package, by prefix. */
const registered = new Map<string, Provider>();

/** Every provider: this package's, then the registered ones. */
export function providers(): readonly Provider[] {
  return [...BUILT_IN, ...registered.values()];
}

/** The provider `--model` names by `prefix`, or undefined. */
export function providerOf(prefix: string): Provider | undefined {
  return providers().find((p) => p.prefix === prefix);
}

/**
 * Adds a provider from outside this package: after this, `skilltree chat`, `run` and `serve` take
 * `--model <prefix>:<model-id>` and pick it when its key is set. Registering a prefix again replaces
 * its row (a module evaluated again registers again); the built-in prefixes cannot be replaced.
 *
 * @example
 * registerProvider({
 *   name: 'Mistral',
 *   prefix: 'mistral',
 *   apiKeyEnv: 'MISTRAL_API_KEY',
 *   defaultModel: 'mistral-large-latest',
 *   factory: async () => (await import('./mistral-model.js')).mistral,
 * });
 */
export function registerProvider(provider: Provider): void {
  const prefix = provider?.prefix;
  if (typeof prefix !== 'string' || !/^[a-z][a-z0-9-]*$/.test(prefix)) {
    throw new Error(`A provider needs a prefix of lowercase letters, digits and "-" (got ${JSON.stringify(prefix)}).`);
  }
  if (['scripted', 'demo'].includes(prefix) || BUILT_IN.some((p) => p.prefix === prefix)) {
    throw new Error(`The provider prefix "${prefix}" is taken: register yours under another prefix.`);
  }
  for (const key of ['name', 'apiKeyEnv', 'defaultModel'] as const) {
    if (typeof provider[key] !== 'string' || provider[key] === '') {
      throw new Error(`The provider "${prefix}" has no ${key}.`);
    }
  }
  if (typeof provider.factory !== 'function') throw new Error(`The provider "${prefix}" has no factory() function.`);
  registered.set(prefix, provider);
}
