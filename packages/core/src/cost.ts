/**
 * What a conversation costs: usage priced with the prices you pass, or with a small dated table of
 * list prices you can override.
 */
import type { Usage } from './types.js';

/** Prices in US dollars per million tokens. Cache prices default to the input price. */
export interface Price {
  input: number;
  output: number;
  /** Per million tokens read from the prompt cache. */
  cacheRead?: number;
  /** Per million tokens written to the prompt cache. */
  cacheWrite?: number;
}

/**
 * List prices of a few models, in US dollars per million tokens, as published on `asOf`. Prices
 * change: pass your own `Price` to `estimateCost` for anything that matters.
 */
export const PRICES: { readonly asOf: string; readonly models: Readonly<Record<string, Price>> } = {
  asOf: '2025-11-01',
  models: {
    'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
    'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
    'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
    'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
    'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
    'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  },
};

/** A cost estimate in US dollars, by part. */
export interface Cost {
  /** Uncached input. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  total: number;
}

function priceOf(price: Price | string): Price {
  if (typeof price !== 'string') return price;
  const name = price.includes(':') ? price.slice(price.indexOf(':') + 1) : price;
  const known = PRICES.models[name];
  if (!known) {
    throw new Error(
      `No list price for "${price}". Pass a price instead, e.g. estimateCost(usage, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }); known: ${Object.keys(PRICES.models).join(', ')}.`,
    );
  }
  return known;
}

/**
 * Prices `usage`: uncached input at the input price, cache reads and writes at theirs, output at
 * the output price. `price` is a {@link Price} or a model name from {@link PRICES} (a provider
 * prefix such as `anthropic:` is ignored).
 *
 * @example
 * const cost = estimateCost(session.usage ?? {}, 'claude-sonnet-4-5');
 * console.log(`$${cost.total.toFixed(4)}`);
 */
export function estimateCost(usage: Usage, price: Price | string): Cost {
  const p = priceOf(price);
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, (usage.inputTokens ?? 0) - read - write);
  const perToken = (perMillion: number | undefined, fallback: number) => (perMillion ?? fallback) / 1_000_000;
  const cost = {
    input: uncached * perToken(p.input, 0),
    cacheRead: read * perToken(p.cacheRead, p.input),
    cacheWrite: write * perToken(p.cacheWrite, p.input),
    output: (usage.outputTokens ?? 0) * perToken(p.output, 0),
  };
  return { ...cost, total: cost.input + cost.cacheRead + cost.cacheWrite + cost.output };
}
