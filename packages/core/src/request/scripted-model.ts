/**
 * A model that plays a script: the offline default for demos and tests. It reports usage estimated
 * from characters (`estimated: true`), so cost lines and budgets work without a key.
 */
import { textContent } from '../parts/message-parts.js';
import type { AssistantPart, ReasoningPart, ToolMessage } from '../types/messages.js';
import type { Model, ModelAccepts, ModelResponse } from '../types/model.js';
import type { ModelRequest } from '../types/request.js';
import { usageEstimator } from './usage-estimate.js';

/** A tool call in a script; when `id` is left out the session assigns one (`call_N`). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  input?: unknown;
}

/** One scripted response. */
export interface ScriptedResponse {
  /**
   * Reasoning before the text: its text, or a reasoning part's fields (`text`, `providerData`, …). It is
   * recorded as a reasoning part of provider `scripted`, as a real model's would be.
   */
  reasoning?: string | Partial<Omit<ReasoningPart, 'type'>>;
  text?: string;
  toolCalls?: ScriptedToolCall[];
}

/** A step: a fixed response, or a function of the request that returns one (possibly async). */
export type ScriptedStep = ScriptedResponse | ((req: ModelRequest) => ScriptedResponse | Promise<ScriptedResponse>);

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /**
   * Behave like a model that binds its reasoning to the exact prefix: the session sends it
   * append-only requests (`request.appendOnly`), as it would to Claude Opus 5.5 or GPT-5.6.
   */
  appendOnly?: boolean;
  /**
   * The kinds of file it reads, as a real model's adapter says (`Model.accepts`): e.g.
   * `{ images: false }` plays a model without vision, which is sent a line describing each image.
   */
  accepts?: ModelAccepts;
  /**
   * A script per subagent (SPEC §19), by `<Subagent name>`: a request of a run
   * (`request.subagent.name`) takes the next step of its subagent's script, the agent's own requests
   * the steps of `steps`. Every run of one subagent shares its script, in the order runs ask. A run of
   * a subagent without a script takes the agent's steps.
   */
  subagents?: Record<string, readonly ScriptedStep[]>;
}

/** The scripted model; `requests` records what it was sent, `remaining` counts unused steps. */
export interface ScriptedModel extends Model {
  readonly requests: ModelRequest[];
  readonly remaining: number;
}

/**
 * A model that answers each request with the next step of `steps`. A step is used up when it is
 * taken, even if it throws. Asking for more steps than scripted is an error that says so.
 *
 * Each response carries estimated usage (`usage.estimated: true`): input and output at 4 characters
 * per token, and cache reads as the prefix the request shares with the previous one.
 *
 * @example
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] },
 *   { text: 'Done.' },
 * ]);
 */
export function scriptedModel(steps: readonly ScriptedStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  if (!Array.isArray(steps)) throw new Error('scriptedModel(steps) needs an array of steps.');
  let next = 0;
  const requests: ModelRequest[] = [];
  const scripts = new Map(Object.entries(options.subagents ?? {}).map(([name, list]) => [name, { list, next: 0 }]));
  const estimate = usageEstimator();
  return {
    name: 'scripted',
    ...(options.appendOnly ? { appendOnly: true } : {}),
    ...(options.accepts ? { accepts: { ...options.accepts } } : {}),
    requests,
    get remaining() {
      return steps.length - next;
    },
    async generate(req): Promise<ModelResponse> {
      requests.push(req);
      const script = req.subagent ? scripts.get(req.subagent.name) : undefined;
      const [list, taken] = script ? [script.list, script.next] : [steps, next];
      if (taken >= list.length) {
        const whose = script ? ` for subagent "${req.subagent?.name}"` : '';
        throw new Error(
          `scriptedModel ran out of steps${whose}: ${list.length} scripted, step ${taken + 1} was requested. ` +
            'Add a step (e.g. { text: "..." }) for every model call the conversation makes.',
        );
      }
      if (script) script.next++;
      else next++;
      const step = list[taken];
      const response = typeof step === 'function' ? await step(req) : step;
      const out: ModelResponse = {
        text: response?.text ?? '',
        toolCalls: (response?.toolCalls ?? []).map((call: ScriptedToolCall) => ({
          // Left empty when not scripted: the session assigns ids unique within it.
          id: call.id ?? '',
          name: call.name,
          input: call.input ?? {},
        })),
        model: 'scripted',
      };
      if (response?.reasoning !== undefined)
        out.content = [scriptedReasoning(response.reasoning), ...textContent(out.text)];
      out.usage = estimate(req, out);
      return out;
    },
  };
}

/**
 * The tool result a scripted step answers: the request's last message, which must be one. A step
 * that follows a tool call reads what the tool returned here, so a script can answer from it.
 *
 * @example
 * (req) => ({ text: `The tool said: ${textOf(lastToolResult(req))}` })
 */
export function lastToolResult(req: ModelRequest): ToolMessage {
  const last = req.messages.at(-1);
  if (last?.role !== 'tool') {
    throw new Error(
      `lastToolResult: the request's last message is ${last ? `a ${last.role} message` : 'missing'}, not a tool result. ` +
        'Call it from a step that follows a tool call.',
    );
  }
  return last;
}

function scriptedReasoning(reasoning: NonNullable<ScriptedResponse['reasoning']>): AssistantPart {
  const fields = typeof reasoning === 'string' ? { text: reasoning } : reasoning;
  return { type: 'reasoning', provider: 'scripted', model: 'scripted', ...fields, text: fields.text ?? '' };
}
