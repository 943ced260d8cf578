/**
 * `oracleModel`: a scripted model that does what each case expects, for testing an eval's
 * machinery offline (CI has no model): it reads the skills the case needs, makes the expected tool
 * calls, and replies with the text the case asks for.
 */
import { type Model, type ScriptedStep, scriptedModel } from '@skilltree/core';
import { expectedCalls } from './scorers/tool-calls.js';
import { messagesOf } from './trial.js';
import type { ModelContext } from './types.js';

/** A matcher that is plain JSON data (no RegExp, no function) can be sent as the input itself. */
function plain(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(plain);
  if (typeof value === 'object' && !(value instanceof RegExp)) return Object.values(value as object).every(plain);
  return false;
}

/** Options of {@link oracleModel}. */
export interface OracleOptions {
  /** The read tool's name. Default `read_skill`. */
  readToolName?: string;
}

/**
 * A model factory for a variant (or the suite): for each trial, a `scriptedModel` that reads the
 * case's `expect.reads` (all at once, in the first turn), calls `expect.toolCalls` in order (with
 * their input when it is plain data, else `{}`), and replies to each message; the last reply holds
 * every string of `expect.text`. Every case scores perfectly unless the agent refuses the calls.
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
    for (const call of expectedCalls(evalCase) ?? []) {
      steps.push({
        toolCalls: [{ name: call.name, input: plain(call.input) && call.input !== undefined ? call.input : {} }],
      });
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
