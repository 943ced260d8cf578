/**
 * The owner's spend in a durable turn: each read and charge is a recorded step, so a recovered turn
 * never reserves or settles a recorded call again. The turn's own charges are `spend-read-N`,
 * `spend-reserve-N` and `spend-settle-N`, numbered in the order the turn makes them; a subagent
 * run's are numbered by the run itself and named in its scope (`sub/<callId>/spend-reserve-2`), so
 * runs that run side by side never take each other's numbers.
 */
import type { SpendLedger } from '../observe/budget.js';
import type { TurnEngine } from '../types/engine.js';

/** The ledger each journaled ledger records the steps of. */
const plain = new WeakMap<SpendLedger, SpendLedger>();

/** `spend` with each read and charge a step of `engine`, numbered from 1 in the order they are made. */
export function journaledLedger(engine: TurnEngine, spend: SpendLedger): SpendLedger {
  const raw = plain.get(spend) ?? spend;
  let n = 0;
  const ledger: SpendLedger = {
    owner: raw.owner,
    spent: (period) => engine.step(`spend-read-${++n}`, () => raw.spent(period)),
    reserve: (period, amount, limits, expiresAt) =>
      engine.step(`spend-reserve-${++n}`, () => raw.reserve(period, amount, limits, expiresAt)),
    settle: (period, reserved, used, expiresAt) =>
      engine.step(`spend-settle-${++n}`, () => raw.settle(period, reserved, used, expiresAt)),
  };
  plain.set(ledger, raw);
  return ledger;
}

/**
 * The ledger a subagent run charges: the turn's ledger recorded on the run's own journal `engine`
 * (its scope, its own numbers), when the turn's ledger is a journaled one; else `ledger` itself.
 */
export function runLedger(ledger: SpendLedger | null | undefined, engine: TurnEngine): SpendLedger | null {
  if (!ledger) return null;
  return plain.has(ledger) ? journaledLedger(engine, ledger) : ledger;
}
