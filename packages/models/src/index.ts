/**
 * `@skilltree/models`: model adapters for skilltree, each on its own subpath so that you install
 * only its SDK: `@skilltree/models/anthropic`, `/openai`, `/ai-sdk`, and `/tokenizer`. This entry
 * point is the table of providers the `skilltree` command reads (`--model`, keys, help).
 *
 * @packageDocumentation
 */
export {
  type Provider,
  type ProviderFactory,
  type ProviderModelOptions,
  providerOf,
  providers,
  registerProvider,
} from './providers.js';
