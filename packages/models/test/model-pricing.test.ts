/**
 * One row per model: each row of the Claude and OpenAI tables holds the model's capabilities and
 * its price (the key of its entry in core's `PRICES`) or the reason it has none, and the two tables
 * agree with core's: the price a row names is the one `priceFor` gives its id, and every list price
 * belongs to a row.
 */
import { PRICES, priceFor } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { CLAUDE_MODELS, type ModelPricing } from '../src/anthropic.js';
import { OPENAI_MODELS } from '../src/openai.js';

const ROWS: [provider: string, id: string, row: ModelPricing][] = [
  ...Object.entries(CLAUDE_MODELS).map(([id, row]): [string, string, ModelPricing] => ['anthropic', id, row]),
  ...Object.entries(OPENAI_MODELS).map(([id, row]): [string, string, ModelPricing] => ['openai', id, row]),
];

describe('every model row is priced or says why not', () => {
  it.each(ROWS)('%s:%s', (provider, id, row) => {
    const listed = Object.hasOwn(PRICES.models, row.price ?? '');
    if (row.unpriced === undefined) {
      // Priced: the key names an entry of core's table, and it is the entry the model's names get.
      expect(listed, `${id}: price '${row.price}' is not a key of PRICES.models`).toBe(true);
      const price = PRICES.models[row.price as string];
      expect(priceFor(id)).toEqual(price);
      expect(priceFor(`${provider}:${id}`)).toEqual(price);
      expect(priceFor(`${id}-20261201`)).toEqual(price);
    } else {
      // Unpriced: a reason, no key, and no list price hides behind the reason.
      expect(row.price).toBeUndefined();
      expect(row.unpriced.trim().length, `${id}: say why it has no price`).toBeGreaterThan(10);
      expect(priceFor(`${provider}:${id}`), `${id} has a list price: name it with price`).toBeUndefined();
    }
  });
});

describe('every priced model has a row', () => {
  it.each(Object.keys(PRICES.models))('%s', (name) => {
    const rows = ROWS.filter(([, , row]) => row.price === name).map(([provider, id]) => `${provider}:${id}`);
    expect(rows, `${name} is in PRICES but no row of CLAUDE_MODELS or OPENAI_MODELS names it`).toHaveLength(1);
  });
});
