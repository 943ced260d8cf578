/**
 * Budgets: what a turn, a session and an owner may spend, in tokens and/or dollars. The loop asks
 * before every model call; over a limit, the turn stops before the call with `BudgetExceededError`
 * (or, with `onExceed: 'warn'`, reports a warning and goes on). An owner's spend lives in the
 * session store, so every process sees it.
 */
import { estimateCost, PRICES, type Price, priceFor } from './cost.js';
import type { SessionState } from './state.js';
import { warn } from './state-events.js';
import type { Budget, BudgetLimits, BudgetPeriod, Model, ModelRequest, Usage } from './types.js';
import { estimateRequestTokens } from './usage-estimate.js';

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
  /** When the owner's period ends (epoch ms): the budget is fresh again then. */
  resetsAt?: number;
}

const amount = (unit: 'tokens' | 'dollars', n: number) =>
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
  const reset = info.resetsAt !== undefined ? ` It resets at ${new Date(info.resetsAt).toISOString()}.` : '';
  return (
    `Budget exceeded: ${who} spent ${amount(info.unit, info.spent)} of its limit of ${amount(info.unit, info.limit)} (${field})${next}. ` +
    `The turn stopped before calling the model; the transcript is intact.${reset} Raise ${field} to go on.`
  );
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

/**
 * Throws a clear error for a budget that cannot work: limits that are not numbers from 0 up, an
 * unknown period, `onExceed` or price. `createSession` and `createSessions` call it.
 */
export function checkBudget(budget: Budget | undefined): void {
  if (budget === undefined) return;
  if (typeof budget !== 'object' || budget === null) {
    throw new Error('budget must be an object like { perTurn: { tokens: 50_000 }, onExceed: "stop" }.');
  }
  checkLimits(budget.perTurn, 'budget.perTurn');
  checkLimits(budget.perSession, 'budget.perSession');
  checkLimits(budget.perOwner, 'budget.perOwner');
  if (budget.perOwner) {
    const { period } = budget.perOwner;
    const ok =
      period === 'day' ||
      period === 'month' ||
      (typeof period === 'number' && Number.isInteger(period) && period >= 1000);
    if (!ok) {
      throw new Error(
        `budget.perOwner.period must be 'day', 'month' or a number of milliseconds from 1000 up (got ${String(period)}).`,
      );
    }
  }
  if (budget.onExceed !== undefined && budget.onExceed !== 'stop' && budget.onExceed !== 'warn') {
    throw new Error(`budget.onExceed must be 'stop' or 'warn' (got ${String(budget.onExceed)}).`);
  }
  if (typeof budget.price === 'string') estimateCost({}, budget.price);
}

// ───────────────────────────── an owner's spend ─────────────────────────────

/** Tokens and US dollars spent. */
export interface Spend {
  tokens: number;
  dollars: number;
}

/**
 * Where an owner's spend is kept (the session store): `createSessions` gives the turn one. `spent`
 * reads the total of a period; `charge` adds to it atomically and returns the new total.
 */
export interface SpendLedger {
  owner: string;
  spent(period: string): Promise<Spend>;
  charge(period: string, spend: Spend, expiresAt: number): Promise<Spend>;
}

interface TurnBudget {
  budget: Budget | undefined;
  ledger: SpendLedger | null;
  /** Limits already reported this turn (`onExceed: 'warn'`), so that each is reported once per turn. */
  warned: Set<string>;
}

const turns = new WeakMap<SessionState, TurnBudget>();
const overrides = new WeakMap<SessionState, { budget?: Budget; ledger: SpendLedger | null }>();

/**
 * What the next turn of this session uses instead of its options' budget (a server's budget per
 * owner), and where its owner's spend is kept. `createSessions` sets it before each turn.
 */
export function setTurnBudget(state: SessionState, budget: Budget | undefined, ledger: SpendLedger | null): void {
  overrides.set(state, { budget, ledger });
}

// ───────────────────────────── the checks ─────────────────────────────

const tokensOf = (usage: Usage | undefined) => (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);

function budgetPrice(budget: Budget, model: Model): Price {
  if (budget.price !== undefined) {
    return typeof budget.price === 'string' ? (priceFor(budget.price) ?? resolveNamed(budget.price)) : budget.price;
  }
  const listed = priceFor(model.name ?? '');
  if (!listed) {
    throw new Error(
      `A budget in dollars needs a price, and there is no list price for model "${model.name ?? 'unknown'}". ` +
        `Pass budget.price: a model name (${Object.keys(PRICES.models).join(', ')}) or { input, output } in dollars per million tokens.`,
    );
  }
  return listed;
}

function resolveNamed(name: string): Price {
  estimateCost({}, name); // throws the error that lists the known names
  return PRICES.models[name] as Price;
}

const dollarsOf = (usage: Usage | undefined, price: Price) => (usage ? estimateCost(usage, price).total : 0);

interface Check {
  scope: BudgetScope;
  limits: BudgetLimits | undefined;
  spent: Spend;
  owner?: string;
  period?: { key: string; resetsAt: number };
}

/**
 * Reports or throws for every limit that `spent + next` goes over; before the turn (`next` null),
 * for every limit that is used up already.
 */
function enforce(state: SessionState, turn: TurnBudget, checks: Check[], next: Spend | null): void {
  const budget = turn.budget as Budget;
  for (const check of checks) {
    for (const unit of ['tokens', 'dollars'] as const) {
      const limit = check.limits?.[unit];
      if (limit === undefined) continue;
      const spent = check.spent[unit];
      if (next ? spent + next[unit] <= limit : spent < limit) continue;
      const info: BudgetExceeded = { scope: check.scope, unit, limit, spent, next: next?.[unit] ?? 0 };
      if (check.owner !== undefined) info.owner = check.owner;
      if (check.period) {
        info.period = check.period.key;
        info.resetsAt = check.period.resetsAt;
      }
      const error = new BudgetExceededError(info);
      if (budget.onExceed !== 'warn') throw error;
      const key = `${check.scope}.${unit}`;
      if (turn.warned.has(key)) continue;
      turn.warned.add(key);
      warn(
        state,
        error.message.replace(/ The turn stopped before calling the model; the transcript is intact\./, ''),
        'budget',
      );
    }
  }
}

/**
 * Before anything of a turn is recorded: throws when the session's or the owner's budget is used up
 * already (so a server can refuse the message with a status). Starts the turn's budget.
 */
export async function startBudget(state: SessionState, model: Model): Promise<void> {
  const override = overrides.get(state);
  overrides.delete(state);
  const budget = override?.budget ?? state.options.budget;
  const turn: TurnBudget = { budget, ledger: override?.ledger ?? null, warned: new Set() };
  turns.set(state, turn);
  if (budget) await check(state, model, undefined, null);
}

/** Before a model call: throws {@link BudgetExceededError} (or warns) when `request` would go over a limit. */
export async function checkBeforeCall(
  state: SessionState,
  model: Model,
  request: ModelRequest,
  turnUsage: Usage | undefined,
): Promise<void> {
  const budget = turns.get(state)?.budget;
  if (!budget) return;
  const tokens = estimateRequestTokens(request);
  const price = hasDollars(budget) ? budgetPrice(budget, model) : undefined;
  await check(state, model, turnUsage, { tokens, dollars: price ? (tokens * price.input) / 1_000_000 : 0 });
}

function hasDollars(budget: Budget): boolean {
  return [budget.perTurn, budget.perSession, budget.perOwner].some((l) => l?.dollars !== undefined);
}

async function check(
  state: SessionState,
  model: Model,
  turnUsage: Usage | undefined,
  next: Spend | null,
): Promise<void> {
  const turn = turns.get(state);
  const budget = turn?.budget;
  if (!turn || !budget) return;
  const price = hasDollars(budget) ? budgetPrice(budget, model) : undefined;
  const spend = (usage: Usage | undefined): Spend => ({
    tokens: tokensOf(usage),
    dollars: price ? dollarsOf(usage, price) : 0,
  });
  const checks: Check[] = [];
  // Before the turn (no request yet) only what is used up already counts: the turn has spent nothing.
  if (budget.perTurn && next) checks.push({ scope: 'turn', limits: budget.perTurn, spent: spend(turnUsage) });
  if (budget.perSession) checks.push({ scope: 'session', limits: budget.perSession, spent: spend(state.usage) });
  if (budget.perOwner && turn.ledger) {
    const period = periodOf(budget.perOwner.period);
    const spent = await turn.ledger.spent(period.key);
    checks.push({ scope: 'owner', limits: budget.perOwner, spent, owner: turn.ledger.owner, period });
  }
  enforce(state, turn, checks, next);
}

/** After a model call (its message recorded): adds its usage to the owner's spend in the store. */
export async function chargeAfterCall(state: SessionState, model: Model, usage: Usage | undefined): Promise<void> {
  const turn = turns.get(state);
  const budget = turn?.budget;
  if (!turn?.ledger || !budget?.perOwner || !usage) return;
  const price = tryPrice(budget, model);
  const period = periodOf(budget.perOwner.period);
  try {
    await turn.ledger.charge(
      period.key,
      { tokens: tokensOf(usage), dollars: price ? dollarsOf(usage, price) : 0 },
      period.resetsAt,
    );
  } catch (error) {
    // The call happened and is recorded; the next check reads the store again (and fails the turn
    // if the store is down), so a failed write is reported, not fatal.
    warn(
      state,
      `Could not add this model call to owner "${turn.ledger.owner}"'s spend: ${error instanceof Error ? error.message : String(error)}`,
      'budget',
    );
  }
}

function tryPrice(budget: Budget, model: Model): Price | undefined {
  try {
    return budgetPrice(budget, model);
  } catch {
    return undefined;
  }
}

/** Ends the turn's budget. */
export function endBudget(state: SessionState): void {
  turns.delete(state);
}
