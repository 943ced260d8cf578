/**
 * A turn over its budget, as HTTP: 429 with the code `budget_exceeded`, the budget that was
 * exceeded in the JSON error, and `retry-after` when an owner's period ends. What the end user
 * reads says that a limit was reached and when it resets, and never names configuration options:
 * the error's own message (with the option to raise) is the operator's, for the log.
 */
import type { BudgetExceededError } from '@skilltree/core';
import { HttpError } from './http.js';

/** Whether `error` is core's `BudgetExceededError` (by name: the server may load another copy of core). */
export function isBudgetError(error: unknown): error is BudgetExceededError {
  return error instanceof Error && error.name === 'BudgetExceededError';
}

/** An epoch-ms time as an end user reads it, e.g. `2025-11-04 00:00 UTC`. */
function when(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return 'a later date';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The sentence an end user reads for a budget refusal: which limit was reached (this reply, this
 * chat, or everything the user may spend in a period) and when it resets. No option names, no
 * numbers that describe the operator's configuration.
 */
export function budgetNotice(error: BudgetExceededError): string {
  if (error.scope === 'owner') {
    return error.resetsAt !== undefined
      ? `You have reached your usage limit. It resets at ${when(error.resetsAt)}.`
      : 'You have reached your usage limit.';
  }
  if (error.scope === 'session') return 'This chat has reached its usage limit. Start a new chat to go on.';
  return 'This reply reached its usage limit. The limit starts again with your next message.';
}

/** The 429 answer to a turn refused before it started. `budget.resetsAt` is epoch milliseconds, as on the error. */
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
  if (error.resetsAt !== undefined) budget.resetsAt = error.resetsAt;
  return new HttpError(429, 'budget_exceeded', budgetNotice(error), headers, { budget });
}
