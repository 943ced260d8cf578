/**
 * Tool-call accuracy: the right tools, in the right order, with the right input. The read tool is
 * left out (selection scores it).
 */
import { matches, mismatch } from '../match.js';
import { ran, whyNotRun } from '../trial-calls.js';
import type { EvalCase, ExpectedToolCall, Scorer, ScorerOutput, ToolCallRecord, TrialResult } from '../types.js';

const asCall = (call: string | ExpectedToolCall): ExpectedToolCall =>
  typeof call === 'string' ? { name: call } : call;

/** The case's expected calls, strings made `{ name }`. */
export function expectedCalls(evalCase: EvalCase): ExpectedToolCall[] | undefined {
  return evalCase.expect?.toolCalls?.map(asCall);
}

/** The calls the case expects to wait for an answer, strings made `{ name }`. */
export function expectedWaits(evalCase: EvalCase): ExpectedToolCall[] | undefined {
  return evalCase.expect?.waiting?.map(asCall);
}

/** Whether `call` is the tool `want` names, with input that matches (whether or not it ran). */
export const looksLike = (call: ToolCallRecord, want: ExpectedToolCall) =>
  call.name === want.name && (want.input === undefined || matches(call.input, want.input));

/** An expected call is made by a call that looks like it and ran: one that waits, was denied or refused did nothing. */
const fits = (call: ToolCallRecord, want: ExpectedToolCall) => ran(call) && looksLike(call, want);

/**
 * The calls the model made that count as calls for `toolCalls: []` and `order: 'exact'`: every call,
 * except one that waited, never ran, and is expected in `expect.waiting` (the case asked for it).
 */
export function madeCalls(trial: TrialResult, evalCase: EvalCase): ToolCallRecord[] {
  const waits = expectedWaits(evalCase) ?? [];
  return trial.toolCalls.filter((call) => ran(call) || !call.waited || !waits.some((want) => looksLike(call, want)));
}

/** Length of the longest common subsequence of `expected` and `actual` under {@link fits}. */
function inOrder(expected: ExpectedToolCall[], actual: ToolCallRecord[]): number {
  const row = new Array<number>(actual.length + 1).fill(0);
  for (const want of expected) {
    let diagonal = 0;
    for (let j = 1; j <= actual.length; j++) {
      const above = row[j];
      row[j] = fits(actual[j - 1], want) ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[actual.length];
}

/** How many of `expected` find a call of their own (each call used once) under `fit`. */
function anyOrder(
  expected: ExpectedToolCall[],
  actual: ToolCallRecord[],
  accept: (c: ToolCallRecord, w: ExpectedToolCall) => boolean,
) {
  const used = new Set<number>();
  let found = 0;
  for (const want of expected) {
    const i = actual.findIndex((call, index) => !used.has(index) && accept(call, want));
    if (i === -1) continue;
    used.add(i);
    found++;
  }
  return found;
}

/** Why each expected call was not made as expected, for notes. */
function misses(expected: ExpectedToolCall[], actual: ToolCallRecord[]): string[] {
  const notes: string[] = [];
  for (const want of expected) {
    const named = actual.filter((call) => call.name === want.name);
    if (named.length === 0) notes.push(`${want.name} was not called`);
    else if (named.some((call) => fits(call, want))) continue;
    else if (want.input !== undefined && !named.some((call) => looksLike(call, want))) {
      notes.push(`${want.name} input: ${mismatch(named[0].input, want.input)}`);
    } else {
      const call = named.find((c) => looksLike(c, want)) ?? named[0];
      notes.push(`${want.name} was called but never ran: ${whyNotRun(call)}`);
    }
  }
  return notes;
}

const names = (calls: readonly ToolCallRecord[]) => calls.map((c) => c.name).join(', ');

/** The tool-call scores of one trial; null when the case expects no tool calls. */
export function scoreToolCalls(trial: TrialResult, evalCase: EvalCase): ScorerOutput {
  const expected = expectedCalls(evalCase);
  const banned = evalCase.expect?.notCalled ?? [];
  if (expected === undefined && banned.length === 0) return null;
  const actual = trial.toolCalls;
  const forbidden = actual.filter((call) => banned.includes(call.name));
  const notes =
    forbidden.length > 0 ? [`called ${[...new Set(forbidden.map((c) => c.name))].join(', ')}, which it must not`] : [];
  if (expected === undefined) return { metrics: { forbidden: forbidden.length }, notes };
  const order = evalCase.expect?.order ?? 'in-order';
  const made = madeCalls(trial, evalCase);
  const unexpected = actual.filter((call) => !expected.some((want) => want.name === call.name)).length;
  const total = expected.length;
  if (total === 0) {
    // `toolCalls: []` says "no tool calls", under every order: any call the model made fails it.
    const none = made.length === 0 ? 1 : 0;
    if (made.length > 0) notes.push(`no tool calls expected, ${made.length} made: ${names(made)}`);
    const metrics = { name: none, input: none, order: order === 'any' ? null : none, unexpected };
    return { value: none, metrics: { ...metrics, forbidden: forbidden.length }, notes };
  }
  const share = (n: number) => n / total;
  // name and input say what the model chose (whether or not the call ran); the value and order
  // count only calls that ran.
  const name = share(anyOrder(expected, actual, (c, w) => c.name === w.name));
  const input = share(anyOrder(expected, actual, looksLike));
  const ranShare = share(anyOrder(expected, actual, fits));
  const ordered = order === 'any' ? null : share(inOrder(expected, actual));
  let value: number;
  if (order === 'any') value = ranShare;
  else if (order === 'in-order') value = ordered as number;
  else value = inOrder(expected, actual) / Math.max(total, made.length);
  notes.push(...misses(expected, actual));
  if (order !== 'any' && ordered !== null && ordered < ranShare) notes.push('calls out of the expected order');
  if (order === 'exact' && made.length !== total) notes.push(`${made.length} calls made, ${total} expected`);
  return { value, metrics: { name, input, order: ordered, unexpected, forbidden: forbidden.length }, notes };
}

/**
 * `tools` (accuracy: the share of expected calls made with the right tool, input and order, under
 * the case's `order`; with `'exact'`, extra calls count against it; a call counts only when its
 * tool ran; `toolCalls: []` scores 0 when any call was made), `tools.name`, `tools.input`,
 * `tools.order`, `tools.unexpected` (calls of tools the case does not name) and `tools.forbidden`.
 */
export const toolCallScorer: Scorer = {
  name: 'tools',
  metrics: {
    '': { description: "expected calls made with the right tool, input and order (the case's order rule)" },
    name: { description: 'expected calls whose tool was called, in any order, with any input, run or not' },
    input: { description: 'expected calls made with matching input, in any order, run or not' },
    order: { description: 'expected calls made with matching input in the expected order, that ran' },
    unexpected: { better: 'lower', unit: 'count', description: 'calls of tools the case does not expect' },
    forbidden: { better: 'lower', unit: 'count', description: 'calls of tools the case forbids' },
  },
  score: scoreToolCalls,
};
