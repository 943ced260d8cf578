/**
 * `oracleModel`: a scripted model that does what each case expects, for testing an eval's
 * machinery offline (CI has no model): it reads the skills the case needs, makes the expected tool
 * calls (with the inputs their schemas require), and replies with the text the case asks for.
 */
import { type Model, type ModelRequest, type ScriptedStep, scriptedModel } from '@skilltree/core';
import { messagesOf } from './case-turns.js';
import { EvalSetupError } from './errors.js';
import { matches } from './match.js';
import { fill, plain } from './oracle-input.js';
import { expectedCalls, expectedWaits } from './scorers/tool-calls.js';
import type { EvalCase, ExpectedToolCall, ModelContext } from './types.js';

/**
 * The input for an expected call, from the tool's schema in the request: the case's plain values
 * with every required input filled in. Throws an {@link EvalSetupError} (a problem of the run, not a
 * score) when no input satisfies both the schema and the case.
 */
function inputFor(evalCase: EvalCase, call: ExpectedToolCall, req: ModelRequest): unknown {
  const tool = req.tools.find((t) => t.name === call.name);
  // A tool not offered now: the call fails as the agent makes it fail, with the input the case gives.
  if (!tool) return plain(call.input) && call.input !== undefined ? call.input : {};
  const made = fill(tool.inputSchema, call.input);
  if (made.ok && (call.input === undefined || matches(made.value, call.input))) return made.value;
  const where = made.ok ? 'input' : made.path;
  const why = made.ok ? 'the input it can make does not match the expected one' : made.why;
  throw new EvalSetupError(
    `oracleModel cannot make the input of ${call.name} for case "${evalCase.name}": ${where}: ${why}. Give a plain value in the case (expect.toolCalls: [{ name: '${call.name}', input: { … } }]).`,
  );
}

/** The calls the oracle makes: the expected ones, then those expected to wait that are not among them. */
function oracleCalls(evalCase: EvalCase): ExpectedToolCall[] {
  const calls = expectedCalls(evalCase) ?? [];
  const waits = (expectedWaits(evalCase) ?? []).filter((w) => !calls.some((c) => c.name === w.name));
  return [...calls, ...waits];
}

/** Options of {@link oracleModel}. */
export interface OracleOptions {
  /** The read tool's name. Default `read_skill`. */
  readToolName?: string;
}

/**
 * A model factory for a variant (or the suite): for each trial, a `scriptedModel` that reads the
 * case's `expect.reads` (all at once, in the first turn), calls `expect.toolCalls` in order, then
 * the calls of `expect.waiting` it has not made, and replies to each message; the last reply holds
 * every string of `expect.text`. Each input is the case's plain values with every input the tool's
 * schema requires filled in (the first enum value, the minimum, …); a RegExp or a predicate gets a
 * value made from the schema when it matches, and when no input fits both, the trial stops with a
 * problem of the run that names the call and the key. Every case scores perfectly unless the agent
 * refuses the calls.
 *
 * @example
 * const report = await runEval(suite, { model: oracleModel() });
 */
export function oracleModel(options: OracleOptions = {}): (context: ModelContext) => Model {
  const readTool = options.readToolName ?? 'read_skill';
  return ({ case: evalCase }) => {
    const expect = evalCase.expect ?? {};
    const steps: ScriptedStep[] = [];
    const turns = messagesOf(evalCase).length;
    const reads = expect.reads ?? [];
    if (reads.length > 0) steps.push({ toolCalls: reads.map((name) => ({ name: readTool, input: { name } })) });
    for (const call of oracleCalls(evalCase)) {
      steps.push((req) => ({ toolCalls: [{ name: call.name, input: inputFor(evalCase, call, req) }] }));
    }
    const rules = expect.text === undefined ? [] : Array.isArray(expect.text) ? expect.text : [expect.text];
    const words = rules.filter((r): r is string => typeof r === 'string');
    for (let turn = 1; turn < turns; turn++) steps.push({ text: 'Noted.' });
    steps.push({ text: words.length > 0 ? `Done. ${words.join(' ')}` : 'Done.' });
    // Earlier turns reply at once; the reads and calls happen in the last turn, before its reply.
    const reply = steps.splice(steps.length - turns, turns);
    return scriptedModel([...reply.slice(0, -1), ...steps, reply[reply.length - 1]]);
  };
}
