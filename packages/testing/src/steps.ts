/**
 * Builders for the steps of `scriptedModel([...])`: what the scripted model answers, one request
 * at a time.
 */
import type { ScriptedResponse } from '@skilltree/core';

/**
 * Tool calls are left without an id (`''`) so the session assigns its own `call_N` ids: unique in
 * the transcript and the same on every run, so snapshots stay stable.
 */
const SESSION_ASSIGNED_ID = '';

/** Options of {@link readSkill}. */
export interface ReadSkillStepOptions {
  /** The read tool's name, when the agent renames it with `<Agent readToolName>`. Default `read_skill`. */
  toolName?: string;
  /** Text the model says along with the call. */
  text?: string;
}

/**
 * A step in which the model reads a skill (calls `read_skill`).
 *
 * @example
 * scriptedModel([readSkill('shopping'), callTool('add_to_cart', { sku: 'lamp' }), reply('Added.')]);
 */
export function readSkill(name: string, options: ReadSkillStepOptions = {}): ScriptedResponse {
  const step: ScriptedResponse = {
    toolCalls: [{ id: SESSION_ASSIGNED_ID, name: options.toolName ?? 'read_skill', input: { name } }],
  };
  if (options.text) step.text = options.text;
  return step;
}

/**
 * A step in which the model calls one tool. Combine several with {@link callTools} to make them
 * in one assistant message.
 *
 * @example
 * callTool('add_to_cart', { sku: 'lamp' })
 */
export function callTool(name: string, input: unknown = {}, options: { text?: string } = {}): ScriptedResponse {
  const step: ScriptedResponse = { toolCalls: [{ id: SESSION_ASSIGNED_ID, name, input }] };
  if (options.text) step.text = options.text;
  return step;
}

/**
 * One step holding the tool calls (and text) of several steps: the model makes the calls in one
 * assistant message, and the session runs them in order.
 *
 * @example
 * callTools(readSkill('shopping'), callTool('search', { q: 'lamp' }))
 */
export function callTools(...steps: ScriptedResponse[]): ScriptedResponse {
  const text = steps
    .map((s) => s.text ?? '')
    .filter(Boolean)
    .join('\n');
  const step: ScriptedResponse = { toolCalls: steps.flatMap((s) => s.toolCalls ?? []) };
  if (text) step.text = text;
  return step;
}

/**
 * A step in which the model replies with text and no tool calls: it ends the turn `agent.say()` runs.
 *
 * @example
 * reply('Your lamp is in the cart.')
 */
export function reply(text: string): ScriptedResponse {
  return { text };
}

/**
 * `step` with reasoning before it, as a thinking model's response has: the transcript records it
 * as a reasoning part (read it in a test as `message.reasoning`).
 *
 * @example
 * reason('The user wants a lamp; shopping has the cart.', readSkill('shopping'))
 */
export function reason(reasoning: string, step: ScriptedResponse = {}): ScriptedResponse {
  return { ...step, reasoning };
}

/**
 * A step in which the model calls subagent `name` (a `<Subagent>`'s tool) with `task` as its task,
 * or with `input` when the subagent takes another input shape. Answer the run with a script of its
 * own: `scriptedModel(steps, { subagents: { [name]: [...] } })`.
 *
 * @example
 * scriptedModel([callSubagent('researcher', 'lamps under $50'), reply('Found three.')], {
 *   subagents: { researcher: [reply('Three lamps.')] },
 * });
 */
export function callSubagent(name: string, task: string | Record<string, unknown>): ScriptedResponse {
  return callTool(name, typeof task === 'string' ? { task } : task);
}

/**
 * A step in which a run ends with its typed result: a call of `finish`, the tool a `<Subagent
 * result>` offers its run.
 *
 * @example
 * scriptedModel([], { subagents: { researcher: [finish({ lamps: 3 })] } });
 */
export function finish(result: unknown): ScriptedResponse {
  return callTool('finish', result);
}
