/**
 * Who an adapter is, as its reasoning parts name it: the adapter's provider name, the endpoint it
 * was configured with (when it is not the provider's own), and the model. Two adapters that speak
 * the same API to different servers are different sources, so neither is sent the other's
 * reasoning (core's `replaysTo` decides).
 */
import type { ReasoningSource } from '@skilltree/core/provider';

/**
 * The source of an adapter configured with `baseURL` (the client's, the option, or the
 * environment's, in that order): the endpoint is left out when it is the provider's `own`.
 */
export function reasoningSource(
  provider: string,
  model: string,
  baseURL: string | undefined,
  own: string,
): ReasoningSource {
  const url = baseURL?.trim().replace(/\/+$/, '');
  return url && url !== own ? { provider, endpoint: url, model } : { provider, model };
}

/** An environment variable, where there is an environment (`undefined` in a browser). */
export function env(name: string): string | undefined {
  return globalThis.process?.env?.[name] || undefined;
}

/** The string field `key` of a reasoning part's payload, or undefined. */
export function dataOf(providerData: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = providerData?.[key];
  return typeof value === 'string' ? value : undefined;
}
