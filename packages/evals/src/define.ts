/**
 * `defineEval`: checks a suite once, when it is defined, so that a typo fails before any model is
 * called.
 */
import { isWaitingAnswer } from './case-turns.js';
import { CALL_KEYS, CASE_KEYS, EXPECT_KEYS, MESSAGE_KEYS, SUITE_KEYS, unknownKey, VARIANT_KEYS } from './keys.js';
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Fails, naming the key and the closest valid one, when `value` holds a key not in `valid`: a
 * misspelt expectation would otherwise be skipped, and its case pass unchecked.
 */
function checkKeys(
  suite: string,
  value: object,
  valid: readonly string[],
  where: string,
  prefix: string,
  kind: readonly [string, string],
): void {
  const problem = unknownKey(value, valid, prefix, kind);
  if (problem) fail(suite, where ? `${where}: ${problem}` : problem);
}

function checkMessages(suite: string, c: EvalCase, where: string): void {
  const list: readonly unknown[] =
    typeof c.messages === 'string' ? [c.messages] : isObject(c.messages) ? [c.messages] : (c.messages as unknown[]);
  const text = (m: unknown) => (typeof m === 'string' ? m : isObject(m) ? m.text : undefined);
  const shape = `${where} needs messages: a string, or a list of non-empty strings or { text, files } (one turn each).`;
  if (!Array.isArray(list) || list.length === 0) fail(suite, shape);
  list.forEach((m, i) => {
    if (isObject(m)) {
      checkKeys(suite, m, MESSAGE_KEYS, where, `messages[${i}].`, ['a message key', 'message keys']);
      if (m.files !== undefined && !Array.isArray(m.files))
        fail(suite, `${where}: messages[${i}].files must be a list of files.`);
    }
    const t = text(m);
    const files = isObject(m) && Array.isArray(m.files) ? m.files.length : i === 0 ? (c.files?.length ?? 0) : 0;
    if (typeof t !== 'string' || (t === '' && files === 0)) fail(suite, shape);
  });
}

function checkExpect(suite: string, e: Record<string, unknown>, where: string): void {
  checkKeys(suite, e, EXPECT_KEYS, where, 'expect.', ['an expectation', 'expectations']);
  for (const key of ['reads', 'mayRead', 'notCalled', 'subagents'] as const) {
    if (e[key] !== undefined && !names(e[key])) fail(suite, `${where}: expect.${key} must be a list of names.`);
  }
  if (e.notRead !== undefined && e.notRead !== 'others' && !names(e.notRead)) {
    fail(suite, `${where}: expect.notRead must be a list of names, or 'others'.`);
  }
  if (e.order !== undefined && !['in-order', 'any', 'exact'].includes(e.order as string)) {
    fail(suite, `${where}: expect.order is 'in-order', 'any' or 'exact' (got ${JSON.stringify(e.order)}).`);
  }
  for (const key of ['toolCalls', 'waiting'] as const) {
    const list = e[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) fail(suite, `${where}: expect.${key} must be a list of tool names or { name, input }.`);
    list.forEach((call: unknown, i) => {
      if (isObject(call)) {
        checkKeys(suite, call, CALL_KEYS, where, `expect.${key}[${i}].`, ['a key of a tool call', 'tool call keys']);
      }
      const name = typeof call === 'string' ? call : isObject(call) ? call.name : undefined;
      if (typeof name !== 'string' || name === '') fail(suite, `${where}: expect.${key}[${i}] needs a tool name.`);
    });
  }
  const rules = e.text === undefined ? [] : Array.isArray(e.text) ? e.text : [e.text];
  for (const rule of rules) {
    const ok =
      typeof rule === 'string' ||
      rule instanceof RegExp ||
      (isObject(rule) &&
        Object.keys(rule).length === 1 &&
        (typeof rule.not === 'string' || rule.not instanceof RegExp));
    if (!ok)
      fail(
        suite,
        `${where}: expect.text is a string, a RegExp, { not: … } or a list of them (got ${String(JSON.stringify(rule))}).`,
      );
  }
  if (e.stores !== undefined && !isObject(e.stores)) fail(suite, `${where}: expect.stores is { storeName: rule }.`);
  if (e.judge !== undefined && (typeof e.judge !== 'string' || e.judge.trim() === '')) {
    fail(suite, `${where}: expect.judge is the expectation in words, for a judge.`);
  }
  if (e.check !== undefined && typeof e.check !== 'function')
    fail(suite, `${where}: expect.check is a function of the trial.`);
}

function checkCase(suite: string, c: EvalCase, index: number): void {
  const where = typeof c?.name === 'string' && c.name ? `case "${c.name}"` : `cases[${index}]`;
  if (!c || typeof c !== 'object') fail(suite, `cases[${index}] is not a case.`);
  checkKeys(suite, c, CASE_KEYS, where, '', ['a case key', 'case keys']);
  if (typeof c.name !== 'string' || c.name.trim() === '') fail(suite, `${where} needs a name.`);
  if (c.files !== undefined && !Array.isArray(c.files)) fail(suite, `${where}: files must be a list of files.`);
  checkMessages(suite, c, where);
  checkTrials(suite, c.trials, where);
  if (c.stores !== undefined && (c.stores === null || typeof c.stores !== 'object' || Array.isArray(c.stores))) {
    fail(suite, `${where}: stores is { storeName: state }.`);
  }
  const answers = c.answers as unknown;
  if (answers !== undefined && typeof answers !== 'function') {
    if (!isObject(answers)) fail(suite, `${where}: answers is { toolName: answer } or a function of the waiting call.`);
    for (const [tool, answer] of Object.entries(answers)) {
      if (!isWaitingAnswer(answer)) {
        fail(
          suite,
          `${where}: answers.${tool} is 'approve', 'deny', { deny: 'reason' } or { result } (got ${String(JSON.stringify(answer))}).`,
        );
      }
    }
  }
  const e = c.expect as unknown;
  if (e === undefined) return;
  if (!isObject(e)) fail(suite, `${where}: expect is an object of expectations ({ reads, toolCalls, text, … }).`);
  checkExpect(suite, e, where);
}

/**
 * Checks an eval suite and returns it. Throws, naming the case or variant, for a missing or
 * duplicate name, a case without messages, malformed expectations, a key that is not one (naming the
 * closest valid key: `expect.toolcalls` is not an expectation, did you mean `toolCalls`?), bad trial
 * counts, scorers with clashing names and thresholds that do not parse.
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
  checkKeys(name, suite, SUITE_KEYS, '', '', ['a suite key', 'suite keys']);
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
    checkKeys(name, v, VARIANT_KEYS, `variant "${v.name}"`, '', ['a variant key', 'variant keys']);
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
