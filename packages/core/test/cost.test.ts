/**
 * What a conversation costs: one rule from a model name to its list price (`priceFor`), used by
 * `estimateCost` and the CLI alike, and prices and names that cannot turn an estimate into NaN.
 */
import { describe, expect, test } from 'vitest';
import { estimateCost, PRICES, type Price, priceFor } from '../src/index.js';
import { addUsage, pricedAs } from '../src/provider.js';

const usage = { inputTokens: 10_000, cacheReadTokens: 6_000, cacheWriteTokens: 1_000, outputTokens: 500 };
const sonnet = PRICES.models['claude-sonnet-4-5'];

describe('a model name is priced by one rule', () => {
  test('a listed name, with or without its provider prefix, is priced as itself', () => {
    expect(priceFor('claude-sonnet-4-5')).toEqual(sonnet);
    expect(priceFor('anthropic:claude-sonnet-4-5')).toEqual(sonnet);
    expect(priceFor('openai:gpt-4.1-mini')).toEqual(PRICES.models['gpt-4.1-mini']);
  });

  test('a dated id is priced as its model, in estimateCost as in priceFor', () => {
    expect(pricedAs('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(pricedAs('anthropic:claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(pricedAs('gpt-4.1-2025-04-14')).toBe('gpt-4.1');
    expect(pricedAs('gpt-4.1-mini-2025-04-14')).toBe('gpt-4.1-mini');
    expect(pricedAs('claude-sonnet-4-5@20250929')).toBe('claude-sonnet-4-5');
    expect(pricedAs('gpt-4o-latest')).toBe('gpt-4o');
    expect(estimateCost(usage, 'claude-sonnet-4-5-20250929')).toEqual(estimateCost(usage, sonnet));
  });

  test('a variant is not priced as its base model: gpt-4o-mini is not gpt-4o', () => {
    // A variant with its own entry is priced as itself, never as the shorter name it starts with.
    expect(pricedAs('gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(priceFor('gpt-4o-mini')).not.toEqual(PRICES.models['gpt-4o']);
    expect(pricedAs('gpt-5-nano-2025-08-07')).toBe('gpt-5-nano');
    // A variant without one has no price rather than its base model's.
    expect(priceFor('gpt-4o-audio-preview')).toBeUndefined();
    expect(priceFor('gpt-5-codex')).toBeUndefined();
    expect(priceFor('claude-sonnet-4-5-fast')).toBeUndefined();
    expect(() => estimateCost(usage, 'gpt-4o-audio-preview')).toThrow('No list price for "gpt-4o-audio-preview"');
  });

  test('an unknown name has no price, and estimateCost says how to pass one', () => {
    expect(priceFor('ollama:qwen3:8b')).toBeUndefined();
    expect(priceFor('')).toBeUndefined();
    expect(() => estimateCost(usage, 'qwen3')).toThrow(/No list price for "qwen3"\. Pass a price instead/);
  });
});

describe('names and prices cannot turn an estimate into NaN', () => {
  test("Object's own names are not models: toString, __proto__ and constructor have no list price", () => {
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf', 'anthropic:__proto__']) {
      expect(priceFor(name), name).toBeUndefined();
      expect(() => estimateCost(usage, name), name).toThrow(`No list price for "${name}"`);
    }
  });

  test('a price that is negative, NaN, infinite or missing a rate is refused, naming the rate', () => {
    const bad: [unknown, string][] = [
      [{ input: -3, output: 15 }, 'input'],
      [{ input: 3, output: Number.NaN }, 'output'],
      [{ input: 3, output: 15, cacheRead: Number.POSITIVE_INFINITY }, 'cacheRead'],
      [{ input: 3, output: 15, cacheWrite: -0.5 }, 'cacheWrite'],
      [{ input: 3 }, 'output'],
      [{ input: '3', output: 15 }, 'input'],
    ];
    for (const [price, rate] of bad) {
      expect(() => estimateCost(usage, price as Price), rate).toThrow(
        new RegExp(`Invalid price: ${rate} must be a finite number`),
      );
    }
    expect(() => estimateCost(usage, null as unknown as Price)).toThrow(/A price is \{ input, output/);
  });

  test('token counts that are negative or not finite count as none', () => {
    const cost = estimateCost(
      { inputTokens: Number.NaN, outputTokens: -5, cacheReadTokens: Number.POSITIVE_INFINITY },
      sonnet,
    );
    expect(cost).toEqual({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, total: 0 });
  });

  test('a free price is a price: zero rates give a zero estimate', () => {
    expect(estimateCost(usage, { input: 0, output: 0 }).total).toBe(0);
  });
});

describe('usage adds up field by field', () => {
  test('addUsage sums each field, and leaves out what neither side reported', () => {
    expect(addUsage(undefined, { inputTokens: 10, outputTokens: 2 })).toEqual({ inputTokens: 10, outputTokens: 2 });
    expect(addUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, cacheReadTokens: 4 })).toEqual({
      inputTokens: 15,
      outputTokens: 2,
      cacheReadTokens: 4,
    });
    expect(addUsage({ inputTokens: 1 }, undefined)).toEqual({ inputTokens: 1 });
  });
});

describe('every list price says when it is of and where it comes from', () => {
  test('each PRICES entry has its own asOf and source; the table-wide asOf is the oldest of them', () => {
    const entries = Object.values(PRICES.models);
    for (const entry of entries) {
      expect(entry.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.source.length).toBeGreaterThan(10);
    }
    expect(PRICES.models['claude-opus-5-5'].asOf).toBe('2026-12-01');
    expect(PRICES.models['claude-sonnet-4-5'].asOf).toBe('2025-11-01');
    expect(PRICES.asOf).toBe(entries.map((entry) => entry.asOf).sort()[0]);
  });
});
