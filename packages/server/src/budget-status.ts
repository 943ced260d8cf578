/**
 * A turn over its budget, as HTTP: 429 with the code `budget_exceeded`, the budget that was
 * exceeded in the JSON error, and `retry-after` when an owner's period ends.
 */
import type { BudgetExceededError } from '@skilltree/core';
import { HttpError } from './http.js';

/** Whether `error` is core's `BudgetExceededError` (by name: the server may load another copy of core). */
export function isBudgetError(error: unknown): error is BudgetExceededError {
  return error instanceof Error && error.name === 'BudgetExceededError';
}

/** The 429 answer to a turn refused before it started. */
export function budgetError(error: BudgetExceededError, now = Date.now()): HttpError {
  const headers: Record<string, string> = {};
  if (error.resetsAt !== undefined)
    headers['retry-after'] = String(Math.max(1, Math.ceil((error.resetsAt - now) / 1000)));
  const budget: Record<string, unknown> = {
    scope: error.scope,
    unit: error.unit,
    limit: error.limit,
    spent: error.spent,
  };
  if (error.period !== undefined) budget.period = error.period;
  if (error.resetsAt !== undefined) budget.resetsAt = new Date(error.resetsAt).toISOString();
  return new HttpError(429, 'budget_exceeded', error.message, headers, { budget });
}
