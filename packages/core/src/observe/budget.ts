/**
 * Budgets: what a turn, a session and an owner may spend, in tokens and/or dollars. The loop asks
 * before every model call; over a limit, the turn stops before the call with `BudgetExceededError`
 * (or, with `onExceed: 'warn'`, reports a warning and goes on). An owner's spend lives in the
 * session store, so every process sees it. The options and the error are in `budget-options.ts`.
 */
import { estimateRequestTokens } from '../request/usage-estimate.js';
import { warn } from '../state/events.js';
import { usageOf } from '../state/reads.js';
import type { SessionState } from '../state/state.js';
import type { Model, Usage } from '../types/model.js';
import type { Budget, BudgetLimits } from '../types/options.js';
import type { ModelRequest } from '../types/request.js';
import { type BudgetExceeded, BudgetExceededError, type BudgetScope, periodOf } from './budget-options.js';
import { estimateCost, PRICES, type Price, priceFor } from './cost.js';
import type { TurnHook } from './turn-hooks.js';

// ───────────────────────────── an owner's spend ─────────────────────────────

/** Tokens and US dollars spent. */
export interface Spend {
  tokens: number;
  dollars: number;
}

/** Limits a reservation must stay within (see `SessionStore.reserveSpend`): either or both. */
export interface SpendLimits {
  tokens?: number;
  dollars?: number;
}

/** What `SessionStore.reserveSpend` answers. */
export interface SpendReservation {
  /** True when the amount was added: it fit every limit. */
  reserved: boolean;
  /** The total after the reservation (reserved), or as found (refused). */
  spent: Spend;
}

/**
 * Where an owner's spend is kept (the session store): `createSessions` gives the turn one. `spent`
 * reads the total of a period (reservations in flight included); `reserve` checks a call's amount
 * against the limits and adds it, as one atomic step in the store; `settle` replaces a reservation
 * by what the call used (zeros release it).
 */
export interface SpendLedger {
  /** The owner, as the caller named it (for errors and warnings). */
  owner: string;
  spent(period: string): Promise<Spend>;
  reserve(period: string, amount: Spend, limits: SpendLimits | null, expiresAt: number): Promise<SpendReservation>;
  settle(period: string, reserved: Spend, used: Spend, expiresAt: number): Promise<Spend>;
}

/**
 * The output an owner's budget reserves for a call of a model that does not say its most
 * (`Model.maxOutputTokens`): 16 000 tokens, what a thinking model is commonly allowed.
 */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 16_000;

/** The most output one call of `model` may produce, as it says, else the default; a hostile value counts as unknown. */
export function maxOutputOf(model: Model): number {
  const declared = model.maxOutputTokens;
  return typeof declared === 'number' && Number.isFinite(declared) && declared >= 0
    ? Math.ceil(declared)
    : DEFAULT_RESERVED_OUTPUT_TOKENS;
}

/** A model call's reservation on its owner's spend, until the call is settled. */
interface Reservation {
  period: { key: string; resetsAt: number };
  amount: Spend;
}

interface TurnBudget {
  budget: Budget | undefined;
  ledger: SpendLedger | null;
  /** Limits already reported this turn (`onExceed: 'warn'`), so that each is reported once per turn. */
  warned: Set<string>;
  /** The reservation of the model call in flight, until it is settled. */
  pending: Reservation | null;
}

/** What a turn's budget is checked against: the session's options' budget unless the turn has its own. */
export interface TurnBudgetScope {
  /** The turn's budget (a server's budget per owner) instead of the session options' one. */
  budget?: Budget;
  /** Where the turn's owner's spend is kept (`createSessions` gives one when there is a per-owner budget). */
  ledger?: SpendLedger | null;
}

// ───────────────────────────── the checks ─────────────────────────────

const tokensOf = (usage: Usage | undefined) => (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
const zero = (): Spend => ({ tokens: 0, dollars: 0 });

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

function hasDollars(budget: Budget): boolean {
  return [budget.perTurn, budget.perSession, budget.perOwner].some((l) => l?.dollars !== undefined);
}

/** The price spend is counted in: the budget's (a dollar limit without one fails), else the model's list price when known. */
function spendPrice(budget: Budget, model: Model): Price | undefined {
  if (hasDollars(budget)) return budgetPrice(budget, model);
  try {
    return budgetPrice(budget, model);
  } catch {
    return undefined;
  }
}

const spendOf = (usage: Usage | undefined, price: Price | undefined): Spend => ({
  tokens: tokensOf(usage),
  dollars: usage && price ? estimateCost(usage, price).total : 0,
});

interface Check {
  scope: BudgetScope;
  limits: BudgetLimits | undefined;
  spent: Spend;
  owner?: string;
  period?: { key: string; resetsAt: number };
}

export function exceeded(
  check: Check,
  unit: 'tokens' | 'dollars',
  limit: number,
  next: Spend | null,
): BudgetExceededError {
  const info: BudgetExceeded = { scope: check.scope, unit, limit, spent: check.spent[unit], next: next?.[unit] ?? 0 };
  if (check.owner !== undefined) info.owner = check.owner;
  if (check.period) {
    info.period = check.period.key;
    info.resetsAt = check.period.resetsAt;
  }
  return new BudgetExceededError(info);
}

/** Throws `error` (`onExceed: 'stop'`), or reports it once per limit and turn (`'warn'`). */
function report(state: SessionState, turn: TurnBudget, error: BudgetExceededError): void {
  if ((turn.budget as Budget).onExceed !== 'warn') throw error;
  const key = `${error.scope}.${error.unit}`;
  if (turn.warned.has(key)) return;
  turn.warned.add(key);
  warn(
    state,
    error.message.replace(/ The turn stopped before calling the model; the transcript is intact\./, ''),
    'budget',
  );
}

/**
 * Reports or throws for every limit that `spent + next` goes over; before the turn (`next` null),
 * for every limit that is used up already.
 */
function enforce(state: SessionState, turn: TurnBudget, checks: Check[], next: Spend | null): void {
  for (const check of checks) {
    for (const unit of ['tokens', 'dollars'] as const) {
      const limit = check.limits?.[unit];
      if (limit === undefined) continue;
      const spent = check.spent[unit];
      if (next ? spent + next[unit] <= limit : spent < limit) continue;
      report(state, turn, exceeded(check, unit, limit, next));
    }
  }
}

/**
 * The budget of one turn, as a {@link TurnHook}: at its start, throws when the session's or the
 * owner's budget is used up already (so a server can refuse the message with a status); before
 * every model call, throws {@link BudgetExceededError} (or warns) when the request would go over a
 * limit of the turn or the session, and reserves the call's estimated input plus its most output
 * (`Model.maxOutputTokens`) on its owner's spend, in the same atomic step of the store as the check
 * that the owner's spend (reservations in flight included) plus the input fits the limit. So
 * concurrent turns of one owner, in any processes, cannot all pass on one spend, and the limit is
 * overshot by at most one call's output. After the call, however it ended, the reservation is
 * replaced by what it used; at the end, a reservation no call settled is released.
 */
export function budgetHook(state: SessionState, model: Model, scope: TurnBudgetScope = {}): TurnHook {
  const budget = scope.budget ?? state.options.budget;
  if (!budget) return {};
  const turn: TurnBudget = { budget, ledger: scope.ledger ?? null, warned: new Set(), pending: null };
  const settle = (used: Usage | null) => settleCall(state, model, turn, used);
  const hook: TurnHook = {
    start: () => startBudget(state, model, turn),
    beforeModelCall: ({ request, turnUsage }) => reserveCall(state, model, turn, request, turnUsage),
  };
  // Only an owner's spend holds reservations to settle: without one, what a call used is not read
  // (and the turn need not estimate it for a provider that reports none).
  if (budget.perOwner && turn.ledger) {
    hook.afterModelCall = settle;
    hook.end = () => settle(null);
  }
  return hook;
}

async function startBudget(state: SessionState, model: Model, turn: TurnBudget): Promise<void> {
  const budget = turn.budget as Budget;
  const price = spendPrice(budget, model);
  const checks: Check[] = [];
  // Before the turn only what is used up already counts: the turn has spent nothing.
  if (budget.perSession)
    checks.push({ scope: 'session', limits: budget.perSession, spent: spendOf(usageOf(state), price) });
  if (budget.perOwner && turn.ledger) {
    const period = periodOf(budget.perOwner.period);
    const spent = await turn.ledger.spent(period.key);
    checks.push({ scope: 'owner', limits: budget.perOwner, spent, owner: turn.ledger.owner, period });
  }
  enforce(state, turn, checks, null);
}

async function reserveCall(
  state: SessionState,
  model: Model,
  turn: TurnBudget,
  request: ModelRequest,
  turnUsage: Usage | undefined,
): Promise<void> {
  const budget = turn.budget as Budget;
  const price = spendPrice(budget, model);
  const tokens = estimateRequestTokens(request);
  const next: Spend = { tokens, dollars: price ? (tokens * price.input) / 1_000_000 : 0 };
  const checks: Check[] = [];
  if (budget.perTurn) checks.push({ scope: 'turn', limits: budget.perTurn, spent: spendOf(turnUsage, price) });
  if (budget.perSession)
    checks.push({ scope: 'session', limits: budget.perSession, spent: spendOf(usageOf(state), price) });
  enforce(state, turn, checks, next);
  if (!budget.perOwner || !turn.ledger) return;
  const { perOwner } = budget;
  const period = periodOf(perOwner.period);
  const limits: SpendLimits = {};
  if (perOwner.tokens !== undefined) limits.tokens = perOwner.tokens;
  if (perOwner.dollars !== undefined) limits.dollars = perOwner.dollars;
  // The call reserves its input and its most output; the check is that the input fits (the output
  // reserved is added to each limit, and the store checks spend + input + output against it). Calls
  // in flight hold their whole reservation, so a limit is overshot by at most the last call's output.
  const outputTokens = maxOutputOf(model);
  const output: Spend = { tokens: outputTokens, dollars: price ? (outputTokens * price.output) / 1_000_000 : 0 };
  const amount: Spend = { tokens: next.tokens + output.tokens, dollars: next.dollars + output.dollars };
  const raised: SpendLimits = {};
  if (limits.tokens !== undefined) raised.tokens = limits.tokens + output.tokens;
  if (limits.dollars !== undefined) raised.dollars = limits.dollars + output.dollars;
  const result = await turn.ledger.reserve(period.key, amount, raised, period.resetsAt);
  if (!result.reserved) {
    const check: Check = { scope: 'owner', limits: perOwner, spent: result.spent, owner: turn.ledger.owner, period };
    // The store refused: name the limit the call goes over (the first one, when the store's
    // rounding and ours disagree at the edge).
    const unit =
      (['tokens', 'dollars'] as const).find(
        (u) => raised[u] !== undefined && result.spent[u] + amount[u] > raised[u]!,
      ) ?? (limits.tokens !== undefined ? 'tokens' : 'dollars');
    report(state, turn, exceeded(check, unit, limits[unit] as number, next));
    // Warned: the call goes on, and counts.
    await turn.ledger.reserve(period.key, amount, null, period.resetsAt);
  }
  turn.pending = { period, amount };
}

/** A failed write is a warning: the call happened. */
async function settleCall(state: SessionState, model: Model, turn: TurnBudget, used: Usage | null): Promise<void> {
  const pending = turn.pending;
  if (!pending || !turn.ledger || !turn.budget) return;
  turn.pending = null;
  const spend = used ? spendOf(used, spendPrice(turn.budget, model)) : zero();
  try {
    await turn.ledger.settle(pending.period.key, pending.amount, spend, pending.period.resetsAt);
  } catch (error) {
    // The reservation stays counted (never less than was spent); the next check reads the store
    // again (and fails the turn if the store is down).
    warn(
      state,
      `Could not settle this model call on owner "${turn.ledger.owner}"'s spend: ${error instanceof Error ? error.message : String(error)}`,
      'budget',
    );
  }
}
