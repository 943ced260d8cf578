/**
 * Who an `openai()` adapter is: OpenAI itself, or an OpenAI-compatible provider named with the
 * `provider` option. One place decides what follows from that, so a compatible adapter never has
 * to patch the model `openai()` returns: its name, its reasoning's source, the key it reads, its
 * errors, and which of OpenAI's account settings it may send.
 */
import type { ReasoningSource } from '@skilltree/core/provider';
import { ModelError } from './errors.js';
import { env, reasoningSource } from './reasoning-source.js';
import { missingKeyError, type ProviderLabels } from './sdk-error.js';

/** OpenAI's own endpoint. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The options of `openai()` that say who the adapter is and where it sends requests. */
export interface OpenAIProviderOptions {
  model: string;
  provider?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  baseURL?: string;
  organization?: string;
  /** The base URL of a client passed in (`client.baseURL`). */
  clientBaseURL?: string;
  hasClient: boolean;
}

/** What `openai()` derives from {@link OpenAIProviderOptions}. */
export interface OpenAIProvider {
  /** For errors and spans: the provider, the key variable, the factory to pass `{ apiKey }` to. */
  labels: ProviderLabels;
  /** The model's name, `<provider>:<model-id>`. */
  name: string;
  /** Who the adapter's reasoning parts name. */
  source: ReasoningSource;
  /** The key to send, or a `ModelError` naming the variable to set; read at call time. */
  apiKey(): string;
  /**
   * `OpenAI-Organization` / `OpenAI-Project` for the SDK: `null` (never sent) at a server that is not
   * OpenAI's, so `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID` (an OpenAI account) never reach it.
   */
  organization: string | null | undefined;
  project: null | undefined;
}

const PROVIDER_NAME = /^[a-z][a-z0-9-]*$/;

/** Whether `url` is OpenAI's own endpoint (with or without a trailing slash). */
export function isOpenAIURL(url: string | undefined): boolean {
  return url?.trim().replace(/\/+$/, '') === OPENAI_BASE_URL;
}

/**
 * Who the adapter is. A provider other than `openai` must name its endpoint (`baseURL` or a client):
 * left to the default, its key would go to OpenAI. Such a provider, or a `baseURL` option that is
 * not OpenAI's, never reads `OPENAI_API_KEY`: only `apiKey`, else the `apiKeyEnv` variable.
 */
export function openaiProvider(options: OpenAIProviderOptions): OpenAIProvider {
  const provider = options.provider ?? 'openai';
  if (typeof provider !== 'string' || !PROVIDER_NAME.test(provider)) {
    throw new TypeError(
      `openai(): provider must be a lowercase name such as 'acme', the prefix of its models' names (got ${JSON.stringify(provider)}).`,
    );
  }
  const own = provider === 'openai';
  if (!own && !options.hasClient && (options.baseURL === undefined || isOpenAIURL(options.baseURL))) {
    throw new TypeError(
      `openai(): provider '${provider}' needs its own baseURL (e.g. options.baseURL ?? env('${envName(provider, 'BASE_URL')}') ?? 'https://…/v1'); without one its key would go to OpenAI.`,
    );
  }
  // A server the caller chose that is not OpenAI's: OpenAI's key and account stay at home.
  const foreign = !own || (options.baseURL !== undefined && !isOpenAIURL(options.baseURL));
  const keyEnv = options.apiKeyEnv ?? (foreign ? undefined : 'OPENAI_API_KEY');
  const factory = own ? 'openai()' : `${provider}()`;
  const labels: ProviderLabels = { provider, apiKeyEnv: keyEnv ?? envName(provider, 'API_KEY'), factory };
  const source = reasoningSource(
    provider,
    options.model,
    options.clientBaseURL ?? options.baseURL ?? env('OPENAI_BASE_URL'),
    OPENAI_BASE_URL,
  );
  return {
    labels,
    name: `${provider}:${options.model}`,
    source,
    apiKey() {
      const key = options.apiKey ?? (keyEnv ? env(keyEnv) : undefined);
      if (key) return key;
      if (keyEnv) throw missingKeyError({ ...labels, apiKeyEnv: keyEnv });
      if (!own) {
        throw new ModelError(
          `${provider}: no API key. Pass { apiKey } to ${factory}; its adapter names the variable to read it from with openai()'s apiKeyEnv option.`,
          { provider, kind: 'auth' },
        );
      }
      throw new ModelError(
        `openai: no API key for ${options.baseURL}: openai() does not send OPENAI_API_KEY to a baseURL that is not OpenAI's. Pass { apiKey } to openai(), or { apiKeyEnv: 'OPENAI_API_KEY' } to send that key there.`,
        { provider, kind: 'auth' },
      );
    },
    organization: options.organization ?? (foreign ? null : undefined),
    project: foreign ? null : undefined,
  };
}

/** `ACME_API_KEY` for `acme`: the variable a provider's key conventionally lives in. */
function envName(provider: string, what: string): string {
  return `${provider.toUpperCase().replace(/-/g, '_')}_${what}`;
}
