import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CostView } from '../protocol.js';
import { Cost } from './Cost.js';

const sonnet = {
  price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  label: 'claude-sonnet-4-5, list prices of 2025-11-01',
};

const view: CostView = {
  price: sonnet,
  steps: [
    {
      turn: 1,
      step: 1,
      at: 1,
      usage: { inputTokens: 2_400, cacheWriteTokens: 2_048, outputTokens: 40 },
      cost: 0.00951,
    },
    {
      turn: 1,
      step: 2,
      at: 2,
      usage: { inputTokens: 2_600, cacheReadTokens: 2_048, cacheWriteTokens: 300, outputTokens: 12 },
      cost: 0.00203,
    },
  ],
  unreported: 0,
  total: {
    usage: { inputTokens: 5_000, cacheReadTokens: 2_048, cacheWriteTokens: 2_348, outputTokens: 52 },
    cost: 0.01154,
  },
};

const cells = (selector: string) =>
  [...document.querySelectorAll(`${selector} td, ${selector} th`)].map((cell) => cell.textContent);

describe('Cost', () => {
  it('lists each model call with input, cache read, cache write, output and the estimate, then the totals', () => {
    render(<Cost cost={view} model="anthropic:claude-sonnet-4-5" />);
    expect(document.querySelector('[data-price]')!.textContent).toBe(
      'priced as claude-sonnet-4-5, list prices of 2025-11-01',
    );
    expect(cells('[data-cost-step="1.1"]')).toEqual(['1.1', '2,400', '—', '2,048 85%', '40', '$0.0095']);
    expect(cells('[data-cost-step="1.2"]')).toEqual(['1.2', '2,600', '2,048 79%', '300 12%', '12', '$0.0020']);
    expect(cells('[data-cost-total]')).toEqual(['total', '5,000', '2,048 41%', '2,348 47%', '52', '$0.0115']);
  });

  it('without a price shows tokens, no estimate, and says how to pass --price', () => {
    const unpriced: CostView = {
      ...view,
      price: null,
      steps: view.steps.map((step) => ({ ...step, cost: null })),
      total: { ...view.total, cost: null },
    };
    render(<Cost cost={unpriced} model="openai:my-model" />);
    expect(document.querySelector('[data-price]')!.textContent).toBe('no price');
    expect(screen.getByRole('note').textContent).toMatch(
      /No list price for openai:my-model: start skilltree dev with --price/,
    );
    expect(cells('[data-cost-step="1.1"]').at(-1)).toBe('—');
    expect(cells('[data-cost-total]')).toEqual(['total', '5,000', '2,048 41%', '2,348 47%', '52', '—']);
  });

  it('says when nothing ran yet, and when the model reports no usage', () => {
    const empty: CostView = { price: null, steps: [], unreported: 0, total: { usage: {}, cost: null } };
    const { rerender } = render(<Cost cost={empty} model="scripted" />);
    expect(screen.getByText(/Each model call's tokens and estimated cost will appear here/)).toBeTruthy();
    rerender(<Cost cost={{ ...empty, unreported: 3 }} model="scripted" />);
    expect(screen.getByText(/reported no usage for its 3 calls\./)).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('marks estimated usage (a scripted model’s) as an estimate, step by step and in a note', () => {
    const usage = { inputTokens: 180, outputTokens: 12, estimated: true };
    const estimated: CostView = {
      price: null,
      steps: [{ turn: 1, step: 1, at: 1, usage, cost: null }],
      unreported: 0,
      total: { usage, cost: null },
    };
    const { container } = render(<Cost cost={estimated} model="scripted" />);
    expect(container.querySelector('[data-estimated]')?.textContent).toMatch(
      /estimated from characters \(4 per token\)/,
    );
    expect(container.querySelector('[data-cost-step="1.1"] td')?.textContent).toBe('1.1 ~');
  });
});
