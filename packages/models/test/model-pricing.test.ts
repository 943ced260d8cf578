/**
 * One row per model: each row of the Claude and OpenAI tables holds the model's capabilities and
 * its price (the key of its entry in core's `PRICES`), and the two tables agree with core's: the
 * price a row names is the one `priceFor` gives its id, every row has one, and every list price
 * belongs to a row and says when it is of and where it comes from.
 */
import { PRICES, priceFor } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { CLAUDE_MODELS, type ModelPricing } from '../src/anthropic.js';
import { OPENAI_MODELS } from '../src/openai.js';

const ROWS: [provider: string, id: string, row: ModelPricing][] = [
  ...Object.entries(CLAUDE_MODELS).map(([id, row]): [string, string, ModelPricing] => ['anthropic', id, row]),
  ...Object.entries(OPENAI_MODELS).map(([id, row]): [string, string, ModelPricing] => ['openai', id, row]),
];

describe('every model row has a price entry', () => {
  it.each(ROWS)('%s:%s', (provider, id, row) => {
    // The key names an entry of core's table, and it is the entry the model's names get.
    expect(row.price, `${provider}:${id} has no price: add its entry to core's PRICES and name it here`).toBeTypeOf(
      'string',
    );
    expect(Object.hasOwn(PRICES.models, row.price), `${id}: price '${row.price}' is not a key of PRICES.models`).toBe(
      true,
    );
    const price = PRICES.models[row.price];
    expect(priceFor(id)).toEqual(price);
    expect(priceFor(`${provider}:${id}`)).toEqual(price);
    expect(priceFor(`${id}-20261201`)).toEqual(price);
  });
});

describe('every priced model has a row', () => {
  it.each(Object.keys(PRICES.models))('%s', (name) => {
    const rows = ROWS.filter(([, , row]) => row.price === name).map(([provider, id]) => `${provider}:${id}`);
    expect(rows, `${name} is in PRICES but no row of CLAUDE_MODELS or OPENAI_MODELS names it`).toHaveLength(1);
  });
});

describe('every price entry says when it is of and where it comes from', () => {
  it.each(Object.entries(PRICES.models))('%s', (name, entry) => {
    expect(entry.asOf, `${name}: asOf is a day, YYYY-MM-DD`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(entry.asOf)), `${name}: asOf is a real day`).toBe(false);
    expect(entry.source.trim().length, `${name}: say where the rates come from`).toBeGreaterThan(10);
  });

  it('an estimate says so, names the entry it takes, and takes its rates and date', () => {
    const estimates = Object.entries(PRICES.models).filter(([, entry]) => entry.source.startsWith('family estimate'));
    expect(estimates.map(([name]) => name).sort()).toEqual([
      'claude-mythos-preview',
      'claude-opus-4-6',
      'claude-opus-4-7',
      'claude-opus-4-8',
      'claude-sonnet-4-6',
      'gpt-5.4-mini',
      'gpt-5.4-nano',
    ]);
    for (const [name, entry] of estimates) {
      const family = Object.keys(PRICES.models).find((key) => entry.source.includes(`rates of ${key},`));
      expect(family, `${name}: the source names the entry it takes`).toBeDefined();
      const { source: _estimate, ...rates } = entry;
      const { source: _listed, ...familyRates } = PRICES.models[family as string];
      expect(rates, name).toEqual(familyRates);
    }
  });
});
