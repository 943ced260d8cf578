import type { Budget, BudgetLimits, BudgetPeriod } from '../types/options.js';
import { checkPrice, PRICES, type Price, priceFor } from './cost.js';

/** Which budget a turn ran into. */
export type BudgetScope = 'turn' | 'session' | 'owner';

/** What {@link BudgetExceededError} says about the limit. */
export interface BudgetExceeded {
  /** The budget: `budget.perTurn`, `.perSession` or `.perOwner`. */
  scope: BudgetScope;
  /** The limit's unit. */
  unit: 'tokens' | 'dollars';
  /** The limit. */
  limit: number;
  /** What was spent before the check (tokens, or US dollars). */
  spent: number;
  /** The estimated cost of the model call the check stopped (0 when the limit was used up before the turn). */
  next: number;
  /** The owner, for `scope: 'owner'`. */
  owner?: string;
  /** The owner's period, e.g. `2025-11-03` (a day), `2025-11` (a month), or `ms:86400000:20395`. */
  period?: string;
  /**
   * When the owner's period ends, in epoch milliseconds (the one type `resetsAt` has everywhere: this
   * error, and the server's JSON): the budget is fresh again then.
   */
  resetsAt?: number;
}

export const amount = (unit: 'tokens' | 'dollars', n: number) =>
  unit === 'tokens'
    ? `${Math.round(n).toLocaleString('en-US')} ${Math.round(n) === 1 ? 'token' : 'tokens'}`
    : `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;

function describe(info: BudgetExceeded): string {
  const field = `budget.${{ turn: 'perTurn', session: 'perSession', owner: 'perOwner' }[info.scope]}.${info.unit}`;
  const who =
    info.scope === 'turn'
      ? 'This turn has'
      : info.scope === 'session'
        ? 'This session has'
        : `Owner "${info.owner}" has, in period ${info.period},`;
  const next = info.next > 0 ? `, and the next model call needs about ${amount(info.unit, info.next)} more` : '';
  const reset = info.resetsAt !== undefined ? ` It resets at ${isoTime(info.resetsAt)}.` : '';
  return (
    `Budget exceeded: ${who} spent ${amount(info.unit, info.spent)} of its limit of ${amount(info.unit, info.limit)} (${field})${next}. ` +
    `The turn stopped before calling the model; the transcript is intact.${reset} Raise ${field} to go on.`
  );
}

/** An epoch-ms time as ISO 8601, or `never` for a time past what a `Date` holds. */
function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? 'never' : date.toISOString();
}

/** A turn stopped before a model call because a budget would be exceeded. The transcript stays valid. */
export class BudgetExceededError extends Error implements BudgetExceeded {
  override name = 'BudgetExceededError';
  readonly scope: BudgetScope;
  readonly unit: 'tokens' | 'dollars';
  readonly limit: number;
  readonly spent: number;
  readonly next: number;
  readonly owner?: string;
  readonly period?: string;
  readonly resetsAt?: number;
  constructor(info: BudgetExceeded) {
    super(describe(info));
    this.scope = info.scope;
    this.unit = info.unit;
    this.limit = info.limit;
    this.spent = info.spent;
    this.next = info.next;
    if (info.owner !== undefined) this.owner = info.owner;
    if (info.period !== undefined) this.period = info.period;
    if (info.resetsAt !== undefined) this.resetsAt = info.resetsAt;
  }
}

// ───────────────────────────── checking the options ─────────────────────────────

function checkLimits(limits: BudgetLimits | undefined, field: string): void {
  if (limits === undefined) return;
  if (typeof limits !== 'object' || limits === null)
    throw new Error(`${field} must be an object like { tokens, dollars }.`);
  for (const unit of ['tokens', 'dollars'] as const) {
    const value = limits[unit];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(`${field}.${unit} must be a number from 0 up (got ${String(value)}); leave it out for no limit.`);
    }
  }
}

/** The period's key and when it ends, for `now`. */
export function periodOf(period: BudgetPeriod, now = Date.now()): { key: string; resetsAt: number } {
  const date = new Date(now);
  if (period === 'day') {
    const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    return { key: new Date(start).toISOString().slice(0, 10), resetsAt: start + 86_400_000 };
  }
  if (period === 'month') {
    return {
      key: date.toISOString().slice(0, 7),
      resetsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
    };
  }
  const index = Math.floor(now / period);
  return { key: `ms:${period}:${index}`, resetsAt: (index + 1) * period };
}

/** The longest per-owner period in milliseconds: ten years (365.25 days each). */
const MAX_BUDGET_PERIOD = 315_576_000_000;

/** Throws unless `period` is a budget period (`field` names it in the error). */
export function checkPeriod(period: unknown, field = 'budget.perOwner.period'): void {
  const ok =
    period === 'day' ||
    period === 'month' ||
    (typeof period === 'number' && Number.isInteger(period) && period >= 1000 && period <= MAX_BUDGET_PERIOD);
  if (!ok) {
    throw new Error(
      `${field} must be 'day', 'month' or a whole number of milliseconds from 1000 up to ${MAX_BUDGET_PERIOD} (ten years) (got ${String(period)}).`,
    );
  }
}

function checkBudgetPrice(price: unknown): void {
  if (price === undefined) return;
  const rule =
    `Pass a model name with a list price (${Object.keys(PRICES.models).join(', ')}, with or without a provider prefix or a date), ` +
    'or a price { input, output, cacheRead?, cacheWrite? } in US dollars per million tokens, each a finite number from 0 up.';
  if (typeof price === 'string') {
    if (!priceFor(price))
      throw new Error(`budget.price "${price.slice(0, 80)}" is not a model with a list price. ${rule}`);
    return;
  }
  if (typeof price !== 'object' || price === null) {
    throw new Error(`budget.price must be a model name or a price (got ${String(price)}). ${rule}`);
  }
  try {
    checkPrice(price as Price);
  } catch (error) {
    throw new Error(`budget.price is not a valid price: ${(error as Error).message} ${rule}`);
  }
}

/**
 * Throws a clear error for a budget that cannot work: limits that are not numbers from 0 up, an
 * unknown or out-of-range period, an unknown `onExceed`, or a price that is not a known model name
 * or a price of finite rates from 0 up. `createSession` and `createSessions` call it.
 */
export function checkBudget(budget: Budget | undefined): void {
  if (budget === undefined) return;
  if (typeof budget !== 'object' || budget === null) {
    throw new Error('budget must be an object like { perTurn: { tokens: 50_000 }, onExceed: "stop" }.');
  }
  checkLimits(budget.perTurn, 'budget.perTurn');
  checkLimits(budget.perSession, 'budget.perSession');
  checkLimits(budget.perOwner, 'budget.perOwner');
  if (budget.perOwner) checkPeriod(budget.perOwner.period);
  if (budget.onExceed !== undefined && budget.onExceed !== 'stop' && budget.onExceed !== 'warn') {
    throw new Error(`budget.onExceed must be 'stop' or 'warn' (got ${String(budget.onExceed)}).`);
  }
  checkBudgetPrice(budget.price);
}
