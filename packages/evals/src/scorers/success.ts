/**
 * Task success: every expectation of the case holds (reads, tool calls, the final reply, stores,
 * the custom check) and no turn failed. `success.checks` gives partial credit.
 */
import { mismatch, preview } from '../match.js';
import { ran } from '../trial-calls.js';
import type { EvalCase, Scorer, ScorerOutput, StoreRule, TextRule, ToolCallRecord, TrialResult } from '../types.js';
import { expectedWaits, looksLike, scoreToolCalls } from './tool-calls.js';

/** One check: passed, or why not. */
interface Check {
  ok: boolean;
  why?: string;
}

/** A text rule against the reply; null when it holds. */
export function textRuleFails(text: string, rule: TextRule): string | null {
  const hit = (pattern: string | RegExp) => {
    if (typeof pattern === 'string') return text.includes(pattern);
    pattern.lastIndex = 0;
    return pattern.test(text);
  };
  if (typeof rule === 'string' || rule instanceof RegExp) {
    return hit(rule)
      ? null
      : `the reply ${typeof rule === 'string' ? `lacks ${preview(rule)}` : `does not match ${rule}`}`;
  }
  return hit(rule.not)
    ? `the reply ${typeof rule.not === 'string' ? `contains ${preview(rule.not)}` : `matches ${rule.not}`}`
    : null;
}

function storeRuleFails(name: string, state: unknown, rule: StoreRule): string | null {
  if (typeof rule === 'function') {
    let out: unknown;
    try {
      out = (rule as (s: unknown) => unknown)(state);
    } catch (error) {
      return `store ${name}: the check threw (${error instanceof Error ? error.message : String(error)})`;
    }
    if (out === false) return `store ${name} fails its check: ${preview(state)}`;
    return typeof out === 'string' ? `store ${name}: ${out}` : null;
  }
  const why = mismatch(state, rule);
  return why ? `store ${name}: ${why}` : null;
}

const waitedFor = (call: ToolCallRecord) => (call.waited === 'client' ? "the client's result" : 'approval');

/**
 * The checks on calls that wait: each call `expect.waiting` names waited (each call used once), and
 * no other call was left waiting unanswered, for that call never ran and the trial cannot say so
 * any other way (its turn ended with no error).
 */
function waitChecks(trial: TrialResult, evalCase: EvalCase, add: (ok: boolean, why: string) => void): void {
  const waits = expectedWaits(evalCase) ?? [];
  const used = new Set<ToolCallRecord>();
  for (const want of waits) {
    const call = trial.toolCalls.find(
      (c) => !used.has(c) && (c.waited || c.status === 'waiting') && looksLike(c, want),
    );
    if (call) used.add(call);
    const named = trial.toolCalls.some((c) => c.name === want.name);
    add(call !== undefined, named ? `${want.name} did not wait for an answer` : `${want.name} was not called`);
  }
  for (const call of trial.toolCalls) {
    const unanswered = call.status === 'waiting' || (call.waited !== undefined && !call.answer && !ran(call));
    if (!unanswered || used.has(call)) continue;
    add(
      false,
      `${call.name} waited for ${waitedFor(call)} and was never answered, so it never ran: answer it (the case's answers) or expect it (expect.waiting)`,
    );
  }
}

/**
 * The checks on subagents: each one the case names was spawned and its run finished (a run that
 * failed is an error result the parent went on from, not the task done); `[]`: none was spawned.
 */
function subagentChecks(
  trial: TrialResult,
  expected: readonly string[] | undefined,
  add: (ok: boolean, why: string) => void,
): void {
  if (expected === undefined) return;
  const runs = trial.subagentRuns ?? [];
  if (expected.length === 0) {
    add(runs.length === 0, `subagents were spawned: ${[...new Set(runs.map((r) => r.name))].join(', ')}`);
    return;
  }
  for (const name of expected) {
    const mine = runs.filter((r) => r.name === name);
    const done = mine.some((r) => r.status === 'done');
    add(
      done,
      mine.length === 0
        ? `subagent ${name} was not spawned`
        : `subagent ${name} did not finish: ${mine.map((r) => r.error ?? r.status).join('; ')}`,
    );
  }
}

/** Every check of a case against a trial, in a stable order. */
export async function runChecks(trial: TrialResult, evalCase: EvalCase): Promise<Check[]> {
  const expect = evalCase.expect ?? {};
  const checks: Check[] = [];
  const add = (ok: boolean, why: string) => checks.push(ok ? { ok } : { ok, why });
  add(
    !trial.error,
    trial.error ? `the ${trial.error.kind === 'turn' ? 'turn failed' : trial.error.kind}: ${trial.error.message}` : '',
  );
  const read = new Set(trial.reads.map((r) => r.name));
  const preloaded = new Set(trial.preloaded);
  for (const name of expect.reads ?? []) add(read.has(name) || preloaded.has(name), `${name} was not read`);
  const allowed = new Set([...(expect.reads ?? []), ...(expect.mayRead ?? [])]);
  const banned =
    expect.notRead === 'others'
      ? [...new Set([...trial.catalog, ...read])].filter((n) => !allowed.has(n))
      : (expect.notRead ?? []);
  for (const name of banned) add(!read.has(name), `${name} was read`);
  const tools = scoreToolCalls(trial, evalCase);
  if (tools && typeof tools === 'object' && tools.value !== undefined) {
    const notes = (tools.notes ?? []).filter((n) => !n.startsWith('called '));
    add(tools.value === 1, `tool calls: ${notes.join('; ') || 'not as expected'}`);
  }
  subagentChecks(trial, expect.subagents, add);
  const called = new Set(trial.toolCalls.map((c) => c.name));
  for (const name of expect.notCalled ?? []) add(!called.has(name), `${name} was called`);
  waitChecks(trial, evalCase, add);
  const rules = expect.text === undefined ? [] : Array.isArray(expect.text) ? expect.text : [expect.text as TextRule];
  for (const rule of rules) {
    const why = textRuleFails(trial.text, rule);
    add(why === null, why ?? '');
  }
  for (const [name, rule] of Object.entries(expect.stores ?? {})) {
    const why = Object.hasOwn(trial.stores, name)
      ? storeRuleFails(name, trial.stores[name], rule)
      : `store ${name} was never used (stores: ${Object.keys(trial.stores).join(', ') || 'none'})`;
    add(why === null, why ?? '');
  }
  if (expect.check) {
    try {
      const out = await expect.check(trial);
      add(out !== false && typeof out !== 'string', typeof out === 'string' ? out : 'the check returned false');
    } catch (error) {
      add(false, `the check threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return checks;
}

/** The success scores of one trial. */
export async function scoreSuccess(trial: TrialResult, evalCase: EvalCase): Promise<ScorerOutput> {
  const checks = await runChecks(trial, evalCase);
  const passed = checks.filter((c) => c.ok).length;
  return {
    value: passed === checks.length,
    metrics: { checks: passed / checks.length },
    notes: checks.filter((c) => !c.ok).map((c) => c.why ?? 'failed'),
  };
}

/** `success` (1 when every expectation holds and no turn failed, else 0) and `success.checks` (the share that hold). */
export const successScorer: Scorer = {
  name: 'success',
  metrics: {
    '': { description: 'every expectation of the case holds and no turn failed' },
    checks: { description: 'the share of the expectations that hold' },
  },
  score: scoreSuccess,
};
