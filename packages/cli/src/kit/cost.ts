/**
 * The per-turn cost line: tokens, the cached share and an estimate, priced with `--price` or with
 * core's dated `PRICES` table by the model's name (core's `pricedAs` rule, the one `estimateCost`
 * uses).
 */
import { type Cost, estimateCost, PRICES, type Price, type Usage } from '@skilltree/core';
import { checkPrice, pricedAs } from '@skilltree/core/provider';
import { CliError, USAGE_ERROR } from './errors.js';
import type { Output } from './io.js';
import type { Style } from './print.js';

/** A price and where it came from, for the line's label. */
export interface PriceChoice {
  /** US dollars per million tokens. */
  price: Price;
  /** e.g. `claude-sonnet-4-5, list prices of 2025-11-01` (the entry's own `asOf`), or `--price`. */
  label: string;
}

/**
 * The label of a `PRICES` entry, from the entry itself: its own date, and `estimated` for an entry
 * that is a family estimate rather than a list price (its `source` says which).
 */
export function priceLabel(name: string): string {
  const entry = PRICES.models[name];
  const estimated = entry.source.startsWith('family estimate');
  return `${name}, ${estimated ? 'estimated from its family’s list prices' : 'list prices'} of ${entry.asOf}`;
}

const listed = (name: string): PriceChoice => ({ price: PRICES.models[name], label: priceLabel(name) });

/**
 * Parses `--price`: a model name priced by core's rule (`claude-sonnet-4-5`, also dated ids), or
 * `input,output[,cacheRead[,cacheWrite]]` in US dollars per million tokens (finite, 0 or more).
 * Throws a usage error otherwise.
 */
export function parsePrice(spec: string): PriceChoice {
  const name = spec.trim();
  const model = pricedAs(name);
  if (model) return listed(model);
  const parts = name.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (
    parts.length >= 2 &&
    parts.length <= 4 &&
    parts.every((p) => p !== '') &&
    numbers.every((n) => Number.isFinite(n) && n >= 0)
  ) {
    const [input, output, cacheRead, cacheWrite] = numbers;
    const price: Price = { input, output };
    if (cacheRead !== undefined) price.cacheRead = cacheRead;
    if (cacheWrite !== undefined) price.cacheWrite = cacheWrite;
    return { price: checkPrice(price), label: '--price' };
  }
  throw new CliError(
    `--price needs a model from the price table (${Object.keys(PRICES.models).join(', ')}) or "input,output[,cacheRead[,cacheWrite]]" in dollars per million tokens, e.g. 3,15,0.3,3.75 (got "${spec}").`,
    USAGE_ERROR,
  );
}

/**
 * The `PRICES` entry for a model name such as `anthropic:claude-sonnet-4-5-20250929`, by core's
 * `pricedAs` rule (the one `estimateCost` uses), with its label. Undefined when none fits.
 */
export function priceForModel(modelName: string | undefined): PriceChoice | undefined {
  const match = modelName ? pricedAs(modelName) : undefined;
  return match ? listed(match) : undefined;
}

const count = (n: number) => n.toLocaleString('en-US');
const share = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;

/** `$0.0093` below a dollar, `$1.24` above. */
export function dollars(amount: number): string {
  return `$${amount < 1 ? amount.toFixed(4) : amount.toFixed(2)}`;
}

/**
 * One line for a turn's usage, or null when the model reported none:
 * `⌁ 12,840 in (81% cache read, 9% written) · 212 out · ≈ $0.0093 (claude-sonnet-4-5, list prices of 2025-11-01)`.
 * Without a price the estimate is left out. Estimated usage (a scripted model's) reads
 * `⌁ ~180 in · ~12 out · estimated from characters`.
 */
export function usageLine(usage: Usage | undefined, price: PriceChoice | undefined, style: Style): string | null {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return null;
  const input = usage.inputTokens ?? 0;
  const parts: string[] = [];
  const cache: string[] = [];
  if (input > 0 && usage.cacheReadTokens !== undefined) cache.push(`${share(usage.cacheReadTokens, input)} cache read`);
  if (input > 0 && usage.cacheWriteTokens !== undefined) cache.push(`${share(usage.cacheWriteTokens, input)} written`);
  // Counts the model did not report (a scripted model's) are estimates: say so on the line.
  const about = usage.estimated ? '~' : '';
  parts.push(`${about}${count(input)} in${cache.length > 0 ? ` (${cache.join(', ')})` : ''}`);
  parts.push(`${about}${count(usage.outputTokens ?? 0)} out`);
  if (usage.estimated) parts.push('estimated from characters');
  if (price) parts.push(`≈ ${dollars(estimateCost(usage, price.price).total)} (${price.label})`);
  return style.dim(`  ⌁ ${parts.join(' · ')}`);
}

/** The price a command uses: `--price` when given, else the `PRICES` entry of the model's name. */
export function choosePrice(flag: PriceChoice | undefined, modelName: string | undefined): PriceChoice | undefined {
  return flag ?? priceForModel(modelName);
}

/** What to say when no price is known for `modelName`. */
export function noPriceHint(modelName: string): string {
  return `  (no list price for ${modelName}: pass --price <model|input,output[,cacheRead[,cacheWrite]]> in dollars per million tokens, e.g. --price 3,15,0.3,3.75, for an estimate)`;
}

/** Prints one cost line per turn; see {@link createCostPrinter}. */
export interface CostPrinter {
  /** Writes the line for a turn's usage (nothing when the model reported none). */
  turn(usage: Usage | undefined): void;
}

/**
 * A printer of per-turn cost lines on `output` (the CLI gives it stderr, so that stdout stays the
 * reply). Without a price, the first line is followed by a hint on how to pass `--price`.
 */
export function createCostPrinter(
  output: Output,
  style: Style,
  modelName: string,
  price: PriceChoice | undefined,
): CostPrinter {
  let hinted = false;
  return {
    turn(usage) {
      const line = usageLine(usage, price, style);
      if (line === null) return;
      output.write(`${line}\n`);
      if (!price && !hinted) {
        hinted = true;
        output.write(`${style.dim(noPriceHint(modelName))}\n`);
      }
    },
  };
}

/** The estimate `run --json` prints: `estimateCost`'s parts in US dollars, with the price used. */
export interface JsonEstimate extends Cost {
  currency: 'USD';
  /** US dollars per million tokens. */
  price: Price;
  /** Where the price came from, as the cost line says it. */
  priceLabel: string;
}

/** The `estimate` field of `run --json`, or null without usage or without a price. */
export function jsonEstimate(usage: Usage | undefined, price: PriceChoice | undefined): JsonEstimate | null {
  if (!usage || !price) return null;
  return { ...estimateCost(usage, price.price), currency: 'USD', price: price.price, priceLabel: price.label };
}
