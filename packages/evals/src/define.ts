/**
 * `defineEval`: checks a suite once, when it is defined, so that a typo fails before any model is
 * called.
 */
import { checkScorers } from './score.js';
import { BUILT_IN_SCORERS } from './scorers/index.js';
import { parseThreshold } from './thresholds.js';
import type { EvalCase, EvalSuite } from './types.js';

function fail(suite: string, message: string): never {
  throw new Error(`Eval "${suite}": ${message}`);
}

const names = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

function checkTrials(suite: string, trials: unknown, where: string): void {
  if (trials === undefined) return;
  if (typeof trials !== 'number' || !Number.isInteger(trials) || trials < 1 || trials > 1000) {
    fail(suite, `${where} trials must be a whole number from 1 to 1000 (got ${String(trials)}).`);
  }
}

function checkCase(suite: string, c: EvalCase, index: number): void {
  const where = typeof c?.name === 'string' && c.name ? `case "${c.name}"` : `cases[${index}]`;
  if (!c || typeof c !== 'object') fail(suite, `cases[${index}] is not a case.`);
  if (typeof c.name !== 'string' || c.name.trim() === '') fail(suite, `${where} needs a name.`);
  const messages = typeof c.messages === 'string' ? [c.messages] : c.messages;
  if (!names(messages) || messages.length === 0 || messages.some((m) => m === '')) {
    fail(suite, `${where} needs messages: a string, or a list of non-empty strings (one turn each).`);
  }
  checkTrials(suite, c.trials, where);
  if (c.stores !== undefined && (c.stores === null || typeof c.stores !== 'object' || Array.isArray(c.stores))) {
    fail(suite, `${where}: stores is { storeName: state }.`);
  }
  const e = c.expect;
  if (e === undefined) return;
  for (const key of ['reads', 'mayRead', 'notCalled'] as const) {
    if (e[key] !== undefined && !names(e[key])) fail(suite, `${where}: expect.${key} must be a list of names.`);
  }
  if (e.notRead !== undefined && e.notRead !== 'others' && !names(e.notRead)) {
    fail(suite, `${where}: expect.notRead must be a list of names, or 'others'.`);
  }
  if (e.order !== undefined && !['in-order', 'any', 'exact'].includes(e.order)) {
    fail(suite, `${where}: expect.order is 'in-order', 'any' or 'exact' (got ${JSON.stringify(e.order)}).`);
  }
  e.toolCalls?.forEach((call, i) => {
    const name = typeof call === 'string' ? call : call?.name;
    if (typeof name !== 'string' || name === '') fail(suite, `${where}: expect.toolCalls[${i}] needs a tool name.`);
  });
}

/**
 * Checks an eval suite and returns it. Throws, naming the case or variant, for a missing or
 * duplicate name, a case without messages, malformed expectations, bad trial counts, scorers with
 * clashing names and thresholds that do not parse.
 *
 * @example
 * export default defineEval({
 *   name: 'support desk',
 *   agent: <SupportDesk />,
 *   model: anthropic({ model: 'claude-haiku-4-5' }),
 *   cases: [{ name: 'refund', messages: 'Refund A-1013', expect: { reads: ['refunds'], toolCalls: ['check_refund'] } }],
 *   thresholds: ['selection.recall >= 0.9'],
 * });
 */
export function defineEval<S extends EvalSuite>(suite: S): S {
  if (!suite || typeof suite !== 'object') throw new Error('defineEval(suite) needs { name, agent, cases, … }.');
  const name = typeof suite.name === 'string' && suite.name.trim() !== '' ? suite.name : fail('?', 'needs a name.');
  if (!Array.isArray(suite.cases) || suite.cases.length === 0)
    fail(name, 'needs cases: a list of { name, messages, expect? }.');
  for (const [i, c] of suite.cases.entries()) checkCase(name, c, i);
  const duplicate = (list: readonly { name: string }[]) =>
    list.find((x, i) => list.findIndex((y) => y.name === x.name) !== i);
  const twice = duplicate(suite.cases);
  if (twice) fail(name, `two cases are named "${twice.name}": names must be unique.`);
  checkTrials(name, suite.trials, 'the suite’s');
  const variants = suite.variants ?? [];
  if (!Array.isArray(variants)) fail(name, 'variants must be a list of { name, … }.');
  variants.forEach((v, i) => {
    if (!v || typeof v.name !== 'string' || !/^[^\s@<>=]{1,64}$/.test(v.name)) {
      fail(name, `variants[${i}] needs a name of 1 to 64 characters without spaces, "@", "<", ">" or "=".`);
    }
    if (v.preload !== undefined && v.preload !== 'all' && !names(v.preload)) {
      fail(name, `variant "${v.name}": preload is 'all' or a list of skill names.`);
    }
    if (v.agent === undefined && suite.agent === undefined)
      fail(name, `variant "${v.name}" has no agent: set the suite's agent or the variant's.`);
  });
  const again = duplicate(variants);
  if (again) fail(name, `two variants are named "${again.name}": names must be unique.`);
  if (variants.length === 0 && suite.agent === undefined) fail(name, 'needs an agent.');
  checkScorers([...BUILT_IN_SCORERS, ...(suite.scorers ?? [])]);
  for (const t of suite.thresholds ?? []) {
    try {
      parseThreshold(t);
    } catch (error) {
      fail(name, (error as Error).message);
    }
  }
  return suite;
}
