/**
 * The list price of a model by its name, for cost attributes on spans and for budgets in dollars.
 */
import { PRICES, type Price } from './cost.js';

/**
 * The `PRICES` entry for a model name such as `anthropic:claude-sonnet-4-5-20250929`: provider
 * prefixes are dropped, then the longest table name the id equals or starts with (followed by `-`)
 * wins, so `gpt-4.1-mini` is not priced as `gpt-4.1`. Undefined when none fits.
 */
export function priceOfModel(modelName: string | undefined): Price | undefined {
  if (!modelName) return undefined;
  const id = modelName.slice(modelName.lastIndexOf(':') + 1);
  const match = Object.keys(PRICES.models)
    .filter((name) => id === name || id.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length)[0];
  return match ? PRICES.models[match] : undefined;
}
