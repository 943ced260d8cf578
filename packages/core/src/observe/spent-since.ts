/**
 * An owner's spend over a span of time. The store keeps spend per period (a UTC day, a month, a
 * fixed number of ms), keyed by when each charge was made, so one turn that runs across midnight
 * charges two days. A dashboard, or a test asserting what a turn charged, sums the periods the span
 * touches rather than reading today's alone.
 */
import type { BudgetPeriod } from '../types/options.js';
import type { Spend } from './budget.js';
import { checkPeriod, periodOf } from './budget-options.js';

/** The most periods {@link periodKeys} lists: a span longer than this is a mistake, not a question. */
const MAX_PERIODS = 10_000;

/** The keys of every `period` that `[from, to]` touches, oldest first (one key when it fits in one). */
export function periodKeys(period: BudgetPeriod, from: number, to = Date.now()): string[] {
  checkPeriod(period, 'periodKeys: period');
  if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) {
    throw new Error(`periodKeys needs from ≤ to as ms since the epoch (got from ${from}, to ${to}).`);
  }
  const keys: string[] = [];
  for (let at = from; at <= to; ) {
    const { key, resetsAt } = periodOf(period, at);
    keys.push(key);
    if (keys.length > MAX_PERIODS) {
      throw new Error(`periodKeys: ${from}..${to} spans more than ${MAX_PERIODS} periods; ask for a shorter span.`);
    }
    at = resetsAt;
  }
  return keys;
}

/**
 * What `owner` (the key the store keeps spend under: `ownerKey(owner)`) spent from `since` until now
 * (or `to`), summed over every `period` in between.
 */
export async function spentSince(
  store: { spent(owner: string, period: string): Promise<Spend> },
  owner: string,
  since: number,
  period: BudgetPeriod = 'day',
  to = Date.now(),
): Promise<Spend> {
  const total: Spend = { tokens: 0, dollars: 0 };
  for (const key of periodKeys(period, since, to)) {
    const spent = await store.spent(owner, key);
    total.tokens += spent.tokens;
    total.dollars += spent.dollars;
  }
  return total;
}
