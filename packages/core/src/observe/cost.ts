/**
 * What a conversation costs: usage priced with the prices you pass, or with a small dated table of
 * list prices you can override.
 */
import type { Price, Usage } from '../types/model.js';
import { listedModel, parseModelName } from './model-name.js';

export type { Price };

/**
 * A list price of {@link PRICES}: the rates, the day they are of, and where they come from. Every
 * entry carries its own `asOf` and `source`, so the CLI's cost line and the docs print them from here.
 */
export interface ListPrice extends Price {
  /** The day the rates are of, `YYYY-MM-DD`: when they were read from the provider, or estimated. */
  readonly asOf: string;
  /**
   * Where the rates come from: the provider's price page, or, for a model with no list price
   * recorded, `family estimate: …`, naming the entry of this table whose rates it takes and why.
   */
  readonly source: string;
}

const ANTHROPIC_PAGE = "Anthropic's price page (claude.com/pricing)";
const OPENAI_PAGE = "OpenAI's price page (platform.openai.com/docs/pricing)";
/** A model released after the table's list prices were read, priced as its family's entry (never below it). */
const familyEstimate = (entry: string) =>
  `family estimate: no list price was recorded for this model; the rates of ${entry}, the entry of its family this table lists (the family's higher rates where they differ, so a budget stops early rather than late)`;

const listed = (asOf: string, source: string, price: Price): ListPrice => ({ ...price, asOf, source });
const anthropic = (asOf: string, price: Price) => listed(asOf, ANTHROPIC_PAGE, price);
const openai = (asOf: string, price: Price) => listed(asOf, OPENAI_PAGE, price);
const atLaunch = (provider: string, day: string, price: Price) =>
  listed(day, `${provider}'s list price when the model came out (${day})`, price);

/** The rates read from a provider (or as it listed them at a model's launch), by model. */
const LISTED: Readonly<Record<string, ListPrice>> = {
  // Claude 4.x: read from the price page on 2025-11-01; Opus 4.5 as listed when it came out.
  'claude-opus-4-1': anthropic('2025-11-01', { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }),
  'claude-sonnet-4-5': anthropic('2025-11-01', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }),
  'claude-haiku-4-5': anthropic('2025-11-01', { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }),
  'claude-opus-4-5': atLaunch('Anthropic', '2025-11-24', { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }),
  // The Claude 5.x models, as listed on 2026-12-01 (5-minute cache writes; Haiku 5.5: prompts up to 100k tokens).
  'claude-fable-5-2': anthropic('2026-12-01', { input: 8, output: 40, cacheRead: 0.2, cacheWrite: 10 }),
  'claude-mythos-5-2': anthropic('2026-12-01', { input: 8, output: 40, cacheRead: 0.2, cacheWrite: 10 }),
  'claude-fable-5-1': anthropic('2026-12-01', { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 }),
  'claude-mythos-5-1': anthropic('2026-12-01', { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 }),
  'claude-fable-5': anthropic('2026-12-01', { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 }),
  'claude-mythos-5': anthropic('2026-12-01', { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 }),
  'claude-opus-5-5': anthropic('2026-12-01', { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 }),
  'claude-opus-5': anthropic('2026-12-01', { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }),
  'claude-sonnet-5-5': anthropic('2026-12-01', { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 }),
  'claude-sonnet-5': anthropic('2026-12-01', { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 }),
  'claude-haiku-5-5': anthropic('2026-12-01', { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 }),

  // GPT-4o, GPT-4.1, the o-series and GPT-5 to 5.2, as listed in 2025 (OpenAI bills no cache writes).
  'gpt-4o': openai('2025-11-01', { input: 2.5, output: 10, cacheRead: 1.25 }),
  'gpt-4o-mini': openai('2025-11-01', { input: 0.15, output: 0.6, cacheRead: 0.075 }),
  'gpt-4.1': openai('2025-11-01', { input: 2, output: 8, cacheRead: 0.5 }),
  'gpt-4.1-mini': openai('2025-11-01', { input: 0.4, output: 1.6, cacheRead: 0.1 }),
  'gpt-4.1-nano': openai('2025-11-01', { input: 0.1, output: 0.4, cacheRead: 0.025 }),
  o1: openai('2025-11-01', { input: 15, output: 60, cacheRead: 7.5 }),
  o3: openai('2025-11-01', { input: 2, output: 8, cacheRead: 0.5 }),
  'o3-mini': openai('2025-11-01', { input: 1.1, output: 4.4, cacheRead: 0.55 }),
  'o4-mini': openai('2025-11-01', { input: 1.1, output: 4.4, cacheRead: 0.275 }),
  'gpt-5': openai('2025-11-01', { input: 1.25, output: 10, cacheRead: 0.125 }),
  'gpt-5-mini': openai('2025-11-01', { input: 0.25, output: 2, cacheRead: 0.025 }),
  'gpt-5-nano': openai('2025-11-01', { input: 0.05, output: 0.4, cacheRead: 0.005 }),
  'gpt-5.1': atLaunch('OpenAI', '2025-11-13', { input: 1.25, output: 10, cacheRead: 0.125 }),
  'gpt-5.2': atLaunch('OpenAI', '2025-12-11', { input: 1.75, output: 14, cacheRead: 0.175 }),

  // The GPT-5.4-and-later models, as listed on 2026-12-01 (GPT-5.6: cache writes at 1.25× input; `gpt-5.6` is Sol).
  'gpt-5.4': openai('2026-12-01', { input: 2.5, output: 15, cacheRead: 0.25 }),
  'gpt-5.5': openai('2026-12-01', { input: 5, output: 30, cacheRead: 0.5 }),
  'gpt-5.6': openai('2026-12-01', { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 6.25 }),
  'gpt-5.6-sol': openai('2026-12-01', { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 6.25 }),
  'gpt-5.6-terra': openai('2026-12-01', { input: 2.5, output: 15, cacheRead: 0.25, cacheWrite: 3.125 }),
  'gpt-5.6-luna': openai('2026-12-01', { input: 1, output: 6, cacheRead: 0.1, cacheWrite: 1.25 }),
};

/**
 * A model that came out after the list prices were read, with none recorded: its entry is its
 * family's entry's rates and date, its `source` saying so (never a silent guess).
 */
const family = (entry: string): ListPrice => ({ ...LISTED[entry], source: familyEstimate(entry) });

/**
 * List prices, in US dollars per million tokens: one entry for every row of the model tables of
 * `@skilltree/models` (`CLAUDE_MODELS`, `OPENAI_MODELS`), which name it by its key. Each entry says
 * the day its rates are of (`asOf`) and where they come from (`source`): a provider's price page, or
 * a family estimate for a model whose list price was not recorded (its `source` says so and names
 * the entry it takes). Prices change: pass your own `Price` to `estimateCost` for anything that
 * matters. Its tests hold this table and the model tables together.
 */
export const PRICES: {
  /**
   * The oldest `asOf` of the entries.
   *
   * @deprecated Each entry has its own date: read `PRICES.models[name].asOf`.
   */
  readonly asOf: string;
  readonly models: Readonly<Record<string, ListPrice>>;
} = {
  get asOf() {
    return Object.values(PRICES.models)
      .map((entry) => entry.asOf)
      .sort()[0];
  },
  models: {
    ...LISTED,
    // Claude 4.6–4.8 and Mythos Preview came out after the Claude 4.x prices were read.
    'claude-sonnet-4-6': family('claude-sonnet-4-5'),
    'claude-opus-4-6': family('claude-opus-5'),
    'claude-opus-4-7': family('claude-opus-5'),
    'claude-opus-4-8': family('claude-opus-5'),
    'claude-mythos-preview': family('claude-mythos-5'),
    // The small GPT-5.4 models: priced as GPT-5.4 itself, an upper bound.
    'gpt-5.4-mini': family('gpt-5.4'),
    'gpt-5.4-nano': family('gpt-5.4'),
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

/**
 * The {@link PRICES} entry a model name is priced as, or undefined. The rule: the name is read by
 * `parseModelName` (a provider prefix such as `anthropic:` is dropped), then its row is found by
 * `listedModel` (the id is a listed name, or a listed name followed by a date or `latest`; the
 * longest wins; `gpt-4o-mini` is not priced as `gpt-4o`). Only the table's own entries count
 * (`toString`, `__proto__` and `constructor` are not models).
 *
 * @example
 * pricedAs('anthropic:claude-sonnet-4-5-20250929'); // 'claude-sonnet-4-5'
 */
export function pricedAs(model: string): string | undefined {
  if (typeof model !== 'string') return undefined;
  return listedModel(parseModelName(model).model, Object.keys(PRICES.models));
}

/**
 * The list price of a model name, by the rule of {@link pricedAs}, or undefined when none is
 * listed. `estimateCost` and the CLI's cost line use it.
 *
 * @example
 * priceFor('claude-sonnet-4-5-20250929'); // { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, asOf: '2025-11-01', source: … }
 */
export function priceFor(model: string): ListPrice | undefined {
  const name = pricedAs(model);
  return name === undefined ? undefined : PRICES.models[name];
}

/** Throws unless every given rate of `price` is a finite number ≥ 0 (input and output must be given). */
export function checkPrice(price: Price): Price {
  if (price === null || typeof price !== 'object') {
    throw new Error(
      `A price is { input, output, cacheRead?, cacheWrite? } in US dollars per million tokens (got ${String(price)}).`,
    );
  }
  for (const key of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) {
    const value = price[key];
    if (value === undefined && (key === 'cacheRead' || key === 'cacheWrite')) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(
        `Invalid price: ${key} must be a finite number of US dollars per million tokens, 0 or more (got ${String(value)}).`,
      );
    }
  }
  return price;
}

function priceOf(price: Price | string): Price {
  if (typeof price !== 'string') return checkPrice(price);
  const known = priceFor(price);
  if (!known) {
    throw new Error(
      `No list price for "${price}". Pass a price instead, e.g. estimateCost(usage, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }); known: ${Object.keys(PRICES.models).join(', ')}.`,
    );
  }
  return known;
}

/** A token count as usage reports it: anything but a finite number above 0 counts as none. */
const tokens = (value: number | undefined) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * Prices `usage`: uncached input at the input price, cache reads and writes at theirs, output at
 * the output price. `price` is a {@link Price} or a model name priced by {@link priceFor} (a
 * provider prefix such as `anthropic:` is ignored, a dated id is priced as its model). Throws for a
 * name with no list price, and for a price that is negative or not a finite number; token counts
 * that are negative or not finite count as none.
 *
 * @example
 * const cost = estimateCost(session.usage ?? {}, 'claude-sonnet-4-5');
 * console.log(`$${cost.total.toFixed(4)}`);
 */
export function estimateCost(usage: Usage, price: Price | string): Cost {
  const p = priceOf(price);
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = usage ?? {};
  const read = tokens(cacheReadTokens);
  const write = tokens(cacheWriteTokens);
  const uncached = Math.max(0, tokens(inputTokens) - read - write);
  const perToken = (perMillion: number | undefined, fallback: number) => (perMillion ?? fallback) / 1_000_000;
  const cost = {
    input: uncached * perToken(p.input, 0),
    cacheRead: read * perToken(p.cacheRead, p.input),
    cacheWrite: write * perToken(p.cacheWrite, p.input),
    output: tokens(outputTokens) * perToken(p.output, 0),
  };
  return { ...cost, total: cost.input + cost.cacheRead + cost.cacheWrite + cost.output };
}
