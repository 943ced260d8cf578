/**
 * Rule: the per-turn cost line shows every input token, the shares read from and written to the
 * cache, the output tokens, and `estimateCost` with `--price` or the `PRICES` entry of the model.
 */
import { estimateCost, PRICES } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import {
  choosePrice,
  createCostPrinter,
  dollars,
  jsonEstimate,
  parsePrice,
  priceForModel,
  usageLine,
} from '../src/kit/cost.js';
import { createStyle } from '../src/kit/print.js';

const plain = createStyle({ isTTY: false, write: () => {} }, {});

describe('the cost line', () => {
  it('shows input with its cache-read and written shares, output, and the estimate with its source', () => {
    const line = usageLine(
      { inputTokens: 12_840, cacheReadTokens: 10_400, cacheWriteTokens: 1_156, outputTokens: 212 },
      priceForModel('anthropic:claude-sonnet-4-5'),
      plain,
    );
    // (1,284 uncached × $3 + 10,400 × $0.30 + 1,156 × $3.75 + 212 × $15) per million = $0.0145.
    expect(line).toBe(
      `  ⌁ 12,840 in (81% cache read, 9% written) · 212 out · ≈ $0.0145 (claude-sonnet-4-5, list prices of ${PRICES.models['claude-sonnet-4-5'].asOf})`,
    );
  });

  it('leaves out what the provider does not report: OpenAI reports no cache writes', () => {
    // (976 uncached × $2.50 + 1,024 × $1.25 + 50 × $10) per million = $0.0042.
    const line = usageLine(
      { inputTokens: 2_000, cacheReadTokens: 1_024, outputTokens: 50 },
      parsePrice('gpt-4o'),
      plain,
    );
    expect(line).toBe(
      `  ⌁ 2,000 in (51% cache read) · 50 out · ≈ $0.0042 (gpt-4o, list prices of ${PRICES.models['gpt-4o'].asOf})`,
    );
  });

  it('shows tokens only when no price is known, and nothing when the model reports no usage', () => {
    expect(usageLine({ inputTokens: 100, outputTokens: 5 }, undefined, plain)).toBe('  ⌁ 100 in · 5 out');
    expect(usageLine(undefined, undefined, plain)).toBeNull();
    expect(usageLine({}, undefined, plain)).toBeNull();
  });

  it('marks estimated usage (a scripted model’s) as an estimate, priced or not', () => {
    expect(usageLine({ inputTokens: 180, outputTokens: 12, estimated: true }, undefined, plain)).toBe(
      '  ⌁ ~180 in · ~12 out · estimated from characters',
    );
    expect(usageLine({ inputTokens: 1_000_000, outputTokens: 0, estimated: true }, parsePrice('3,15'), plain)).toBe(
      '  ⌁ ~1,000,000 in · ~0 out · estimated from characters · ≈ $3.00 (--price)',
    );
  });
});

describe('prices', () => {
  it('finds the PRICES entry by model name: provider prefix dropped, dated ids and the longest name win', () => {
    expect(priceForModel('anthropic:claude-sonnet-4-5-20250929')?.price).toEqual(PRICES.models['claude-sonnet-4-5']);
    expect(priceForModel('openai:gpt-4.1-mini')?.price).toEqual(PRICES.models['gpt-4.1-mini']);
    expect(priceForModel('gpt-4.1')?.price).toEqual(PRICES.models['gpt-4.1']);
    expect(priceForModel('ollama:qwen3:8b')).toBeUndefined();
    expect(priceForModel('scripted')).toBeUndefined();
    expect(priceForModel(undefined)).toBeUndefined();
  });

  it("prices a model name by core's one rule: what the cost line prices, estimateCost prices the same", () => {
    for (const name of ['anthropic:claude-sonnet-4-5-20250929', 'openai:gpt-4.1-2025-04-14', 'gpt-4.1-mini']) {
      const choice = priceForModel(name);
      expect(choice, name).toBeDefined();
      expect(estimateCost({ inputTokens: 1_000, outputTokens: 100 }, name)).toEqual(
        estimateCost({ inputTokens: 1_000, outputTokens: 100 }, choice!.price),
      );
    }
    for (const name of ['openai:gpt-4o-audio-preview', 'toString', '__proto__', 'constructor']) {
      expect(priceForModel(name), name).toBeUndefined();
      expect(() => estimateCost({ inputTokens: 1 }, name), name).toThrow('No list price');
    }
  });

  it("the cost line's label prints the entry's own date, and says when the entry is a family estimate", () => {
    expect(priceForModel('anthropic:claude-opus-5-5')?.label).toBe('claude-opus-5-5, list prices of 2026-12-01');
    expect(priceForModel('claude-sonnet-4-5')?.label).toBe('claude-sonnet-4-5, list prices of 2025-11-01');
    expect(PRICES.models['claude-opus-4-8'].source).toMatch(/^family estimate: .*claude-opus-5/);
    expect(priceForModel('claude-opus-4-8')?.label).toBe(
      `claude-opus-4-8, estimated from its family’s list prices of ${PRICES.models['claude-opus-5'].asOf}`,
    );
  });

  it('--price takes a table name or input,output[,cacheRead[,cacheWrite]] per million tokens', () => {
    expect(parsePrice('claude-haiku-4-5').price).toEqual(PRICES.models['claude-haiku-4-5']);
    expect(parsePrice('3, 15, 0.3, 3.75')).toEqual({
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      label: '--price',
    });
    expect(parsePrice('0.5,1.5').price).toEqual({ input: 0.5, output: 1.5 });
    expect(parsePrice('claude-sonnet-4-5-20250929').label).toBe(
      `claude-sonnet-4-5, list prices of ${PRICES.models['claude-sonnet-4-5'].asOf}`,
    );
    for (const bad of [
      'cheap',
      '3',
      '3,x',
      '1,2,3,4,5',
      '-1,2',
      '3,,1',
      'Infinity,1',
      '1,1e999',
      'NaN,1',
      'toString',
    ]) {
      expect(() => parsePrice(bad)).toThrow('--price needs a model from the price table');
    }
  });

  it('writes dollars with four decimals below one dollar and two above', () => {
    expect(dollars(0.00931)).toBe('$0.0093');
    expect(dollars(12.345)).toBe('$12.35');
  });
});

describe('the cost printer and the --json estimate', () => {
  const usage = { inputTokens: 2_000, cacheReadTokens: 1_024, outputTokens: 50 };

  it('--price wins over the model name; the model name is the fallback', () => {
    expect(choosePrice(parsePrice('1,2'), 'openai:gpt-4o')?.label).toBe('--price');
    expect(choosePrice(undefined, 'openai:gpt-4o')?.label).toBe(
      `gpt-4o, list prices of ${PRICES.models['gpt-4o'].asOf}`,
    );
    expect(choosePrice(undefined, 'openai:my-model')).toBeUndefined();
  });

  it('writes one line per turn that reported usage, and the --price hint once when no price is known', () => {
    let out = '';
    const printer = createCostPrinter(
      {
        isTTY: false,
        write: (text) => {
          out += text;
        },
      },
      plain,
      'ollama:qwen',
      undefined,
    );
    printer.turn(usage);
    printer.turn(undefined);
    printer.turn(usage);
    const lines = out.split('\n').filter(Boolean);
    expect(lines).toEqual([
      '  ⌁ 2,000 in (51% cache read) · 50 out',
      expect.stringMatching(/^ {2}\(no list price for ollama:qwen: pass --price <model\|input,output/),
      '  ⌁ 2,000 in (51% cache read) · 50 out',
    ]);
  });

  it('the estimate of run --json: the parts of estimateCost in dollars, the price and its label', () => {
    const estimate = jsonEstimate(usage, parsePrice('gpt-4o'));
    expect(estimate).toMatchObject({
      currency: 'USD',
      price: PRICES.models['gpt-4o'],
      priceLabel: expect.stringMatching(/^gpt-4o/),
    });
    // (976 × $2.50 + 1,024 × $1.25 + 50 × $10) per million.
    expect(estimate?.total).toBeCloseTo(0.00422, 8);
    expect(jsonEstimate(usage, undefined)).toBeNull();
    expect(jsonEstimate(undefined, parsePrice('gpt-4o'))).toBeNull();
  });
});
