/**
 * The Cost view's data: each model call's usage from the session's `step-finish` events, priced
 * with `estimateCost` like the CLI's cost line, and the totals.
 */
import { estimateCost, type Usage } from '@skilltree/core';
import { addUsage } from '@skilltree/core/provider';
import type { PriceChoice } from '../../kit/cost.js';
import type { CostView } from './protocol.js';

interface Logged {
  turn: number;
  step: number;
  at: number;
  usage: Usage;
}

/** Records the usage of each model call; {@link CostLog.view} prices it. */
export class CostLog {
  #steps: Logged[] = [];
  #unreported = 0;

  /** Records one `step-finish` event of turn `turn`. */
  step(turn: number, step: number, usage: Usage | undefined): void {
    if (usage) this.#steps.push({ turn, step, at: Date.now(), usage: { ...usage } });
    else this.#unreported++;
  }

  /** Forgets every step (the session was reset). */
  reset(): void {
    this.#steps = [];
    this.#unreported = 0;
  }

  /** The steps priced with `price` (no estimates without one), and their totals. */
  view(price: PriceChoice | undefined): CostView {
    const cost = (usage: Usage) => (price ? estimateCost(usage, price.price).total : null);
    const total = this.#steps.reduce<Usage>((sum, s) => addUsage(sum, s.usage) ?? sum, {});
    return {
      price: price ? { price: price.price, label: price.label } : null,
      steps: this.#steps.map((s) => ({ ...s, cost: cost(s.usage) })),
      unreported: this.#unreported,
      total: { usage: total, cost: cost(total) },
    };
  }
}
