/**
 * OpenTelemetry traces of a session: a span per turn (`invoke_agent`), per model call
 * (`chat {model}`), per tool call (`execute_tool {tool}`) and per skill load and unload, nested as
 * they happen, with the GenAI conventions' `gen_ai.*` attributes and skilltree's own under
 * `skilltree.*`. The span machinery is in `tracing.ts`, the attributes in `trace-attributes.ts`.
 */
import { fileBytes } from '../files/files.js';
import { textOf } from '../parts/message-parts.js';
import { loadedSkills, windowStartOf } from '../state/reads.js';
import { type SessionState, tree } from '../state/state.js';
import type { ToolCall, ToolMessage } from '../types/messages.js';
import type { Model, ModelResponse } from '../types/model.js';
import type { SendOptions, TelemetryAttributeValue } from '../types/options.js';
import type { ModelRequest } from '../types/request.js';
import type { SessionEvent, Turn, WaitingCall } from '../types/session.js';
import type { Open } from '../types/telemetry.js';
import {
  agentAttributes,
  attributionAttributes,
  genAiMessage,
  genAiText,
  modelIdentity,
  usageAttributes,
} from './trace-attributes.js';
import { endCallsLeft, enterAhead, forgetCallSpan, keepCallSpan } from './trace-calls.js';
import {
  active,
  adoptTurnSpan,
  end,
  fail,
  SPAN_KIND,
  start,
  startAside,
  startSpan,
  tracingOf,
  tracingReady,
} from './tracing.js';
import type { TurnHook } from './turn-hooks.js';

// ───────────────────────────── the hooks ─────────────────────────────

/** The span of a running turn, or null when untraced. */
type TurnSpan = Open | null;

/** Starts the turn's span (`invoke_agent`) under `options.traceContext` or the active context. */
async function startTurnSpan(
  state: SessionState,
  model: Model,
  text: string,
  options: SendOptions | undefined,
): Promise<TurnSpan> {
  await tracingReady(state);
  const tracing = tracingOf(state);
  if (!tracing) return null;
  const adopted = tracing.adopted?.open;
  if (adopted && !adopted.ended) {
    // createSessions opened the turn's span before the lease: the turn goes on in it.
    popAbove(adopted);
    tracing.muted = !adopted.span.isRecording();
    if (!tracing.muted) {
      adopted.span.setAttributes(agentAttributes(tracing, model));
      if (tracing.recordContent) {
        adopted.span.setAttribute(
          'gen_ai.input.messages',
          JSON.stringify([genAiMessage({ role: 'user', content: [{ type: 'text', text }] })]),
        );
      }
    }
    return adopted;
  }
  tracing.stack.length = 0;
  const name = tracing.agentName ? `invoke_agent ${tracing.agentName}` : 'invoke_agent';
  const open = start(tracing, name, SPAN_KIND.internal, agentAttributes(tracing, model), options?.traceContext);
  tracing.muted = !open.span.isRecording();
  if (tracing.recordContent && !tracing.muted) {
    open.span.setAttribute(
      'gen_ai.input.messages',
      JSON.stringify([genAiMessage({ role: 'user', content: [{ type: 'text', text }] })]),
    );
  }
  return open;
}

/** Ends the turn's span: usage and cost on success; the error (an abort, a model error, a budget) otherwise. */
function endTurnSpan(
  state: SessionState,
  open: TurnSpan,
  model: Model,
  outcome: { turn?: Turn; error?: unknown },
): void {
  if (!open || open.ended) return;
  const { span, tracing } = open;
  if (span.isRecording()) {
    span.setAttribute('skilltree.skills.loaded', [...loadedSkills(state)]);
    if (outcome.turn) {
      span.setAttributes({
        ...usageAttributes(outcome.turn.usage, model.name),
        'skilltree.turn.steps': outcome.turn.steps,
      });
      // A turn that ends waiting (approval, a client's result) says for which calls.
      if (outcome.turn.waiting?.length) {
        span.setAttribute(
          'skilltree.turn.waiting',
          outcome.turn.waiting.map((w) => `${w.name}:${w.for}`),
        );
      }
      if (tracing.recordContent) {
        span.setAttribute(
          'gen_ai.output.messages',
          JSON.stringify([
            {
              ...genAiMessage({ role: 'assistant', content: [{ type: 'text', text: outcome.turn.text }] }),
              finish_reason: 'stop',
            },
          ]),
        );
      }
    } else {
      fail(open, outcome.error ?? abortError('The turn was stopped.'), 'The turn');
      if (tracing.adopted?.open === open) tracing.adopted.failed = true;
    }
  }
  if (tracing.adopted?.open === open) {
    // createSessions ends it after its last commit; spans a failure left open go now.
    popAbove(open);
    return;
  }
  // Spans a failure left open (a model call, a tool) end with the turn.
  end(open);
  tracing.stack.length = 0;
  tracing.muted = false;
}

/** Drops the spans opened inside `open` and left open: `open` is the parent of the next span. */
function popAbove(open: Open): void {
  const { stack } = open.tracing;
  const index = stack.findLastIndex((entry) => entry.span === open.span);
  if (index !== -1) stack.length = index + 1;
}

/**
 * The trace of the model call about to run: the context of its `chat {model}` span (the innermost
 * open span) for the model's options, and `run`, which runs the model's code with that context
 * active (it nests the spans of instrumentation that reads the active context, when a context
 * manager is registered). Untraced: no context, and `run` just runs.
 */
export function modelCallTrace(state: SessionState): { traceContext?: unknown; run<T>(fn: () => T): T } {
  const tracing = active(state);
  const traceContext = tracing?.stack[tracing.stack.length - 1]?.context;
  if (!tracing || traceContext === undefined) return { run: (fn) => fn() };
  const { api } = tracing;
  return { traceContext, run: (fn) => api.context.with(traceContext, fn) };
}

/** Runs one model call (`inner`, the call's event generator) inside its `chat {model}` span. */
async function* traceModelCall(
  state: SessionState,
  model: Model,
  request: ModelRequest,
  step: number,
  inner: AsyncGenerator<SessionEvent, ModelResponse, undefined>,
): AsyncGenerator<SessionEvent, ModelResponse, undefined> {
  const tracing = active(state);
  if (!tracing) return yield* inner;
  const { provider, model: requested } = modelIdentity(model.name);
  const open = start(tracing, `chat ${requested}`, SPAN_KIND.client, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': provider,
    'gen_ai.request.model': requested,
  });
  const { span } = open;
  if (span.isRecording()) {
    span.setAttributes({
      'skilltree.step': step,
      'skilltree.tools.offered': request.tools.map((t) => t.name),
      'skilltree.skills.loaded': [...loadedSkills(state)],
      'skilltree.window.messages': request.messages.length,
      // Files by count and size, never their bytes.
      ...fileAttributes(request),
      'skilltree.context_placement': request.contextPlacement,
      // What each part of the tree costs: counted here, only for a recording span.
      ...attributionAttributes(request.attribution),
    });
    const windowStart = windowStartOf(state);
    if (windowStart !== undefined) span.setAttribute('skilltree.window.start', windowStart);
    if (tracing.recordContent) {
      span.setAttributes({
        'gen_ai.system_instructions': JSON.stringify([genAiText(request.system)]),
        'gen_ai.input.messages': JSON.stringify([
          ...request.messages.map(genAiMessage),
          { role: 'user', parts: [genAiText(request.context)] },
        ]),
      });
    }
  }
  let settled = false;
  try {
    const response = yield* inner;
    settled = true;
    if (span.isRecording()) {
      span.setAttributes({
        ...usageAttributes(response.usage, model.name),
        'gen_ai.response.model': modelIdentity(response.model ?? model.name).model,
        'gen_ai.response.finish_reasons': [response.toolCalls.length > 0 ? 'tool_call' : 'stop'],
      });
      if (tracing.recordContent) {
        const reply = genAiMessage({
          role: 'assistant',
          content: response.content ?? [{ type: 'text', text: response.text }],
          toolCalls: response.toolCalls,
        });
        span.setAttribute('gen_ai.output.messages', JSON.stringify([reply]));
      }
    }
    return response;
  } catch (error) {
    settled = true;
    fail(open, error, 'The model call');
    throw error;
  } finally {
    // The turn was left while the call ran (a stream's consumer stopped): that is an abort.
    if (!settled)
      fail(open, abortError('The model call was stopped: the turn was left before it answered.'), 'The model call');
    end(open);
  }
}

function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

/** An open tool-call span; end it with {@link endToolSpan}. */
type ToolSpan = Open | null;

/**
 * Starts the `execute_tool {tool}` span of `call`, kept by the call's id (a run it spawns nests
 * under it). `ahead`: beside the other calls of its step, not pushed (see `trace-calls.ts`).
 */
function startToolSpan(state: SessionState, call: ToolCall, ahead = false): ToolSpan {
  const tracing = active(state);
  if (!tracing) return null;
  const name = `execute_tool ${call.name}`;
  const attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.name,
    'gen_ai.tool.call.id': call.id,
    'gen_ai.tool.type': 'function',
  };
  const aside = ahead ? startAside(tracing, name, SPAN_KIND.internal, attributes) : null;
  const open = aside?.open ?? start(tracing, name, SPAN_KIND.internal, attributes);
  keepCallSpan(open, call.id, aside ? aside.context : tracing.stack[tracing.stack.length - 1]?.context, ahead);
  if (open.span.isRecording()) {
    const skill = tree(state).toolsByName.get(call.name)?.skill;
    if (skill) open.span.setAttribute('skilltree.skill', skill);
    if (tracing.recordContent) open.span.setAttribute('gen_ai.tool.call.arguments', JSON.stringify(call.input ?? {}));
  }
  return open;
}

/** Ends a tool span with its recorded result; an error result (or `error`, what the tool threw) sets error status. */
function endToolSpan(open: ToolSpan, message: ToolMessage, error?: unknown): void {
  if (!open || open.ended) return;
  forgetCallSpan(open, message.toolCallId);
  const { span, tracing } = open;
  if (span.isRecording()) {
    if (tracing.recordContent) span.setAttribute('gen_ai.tool.call.result', textOf(message));
    if (message.errorKind) span.setAttribute('skilltree.tool.error_kind', message.errorKind);
    if (message.isError) fail(open, error ?? toolError(message), 'The tool call', error ? undefined : 'tool_error');
  }
  end(open);
}

function toolError(message: ToolMessage): Error {
  const error = new Error(textOf(message).split('\n')[0]);
  error.name = 'ToolError';
  return error;
}

/**
 * Traces a tool call outside a turn's hooks (`session.callTool`): starts its `execute_tool` span and
 * returns what ends it with the recorded result.
 */
export function traceToolCall(state: SessionState, call: ToolCall): (message: ToolMessage, error?: unknown) => void {
  // A call whose span opened ahead (its run started with the step's others) goes on in it.
  const open = enterAhead(state, call.id) ?? startToolSpan(state, call);
  return (message, error) => endToolSpan(open, message, error);
}

/**
 * Records the wait of a call that waited for a person or a client, now answered, as a
 * `wait_tool {tool}` span in the answering turn's trace: it starts when the call started waiting
 * (kept with the call, so a wait that outlived its process still has its true length) and ends now.
 */
function traceWait(state: SessionState, waiting: WaitingCall, answer: string): void {
  const tracing = active(state);
  if (!tracing) return;
  const context = tracing.stack[tracing.stack.length - 1]?.context ?? tracing.api.context.active();
  const attributes: Record<string, TelemetryAttributeValue> = {
    ...tracing.common,
    'skilltree.operation.name': 'wait_tool',
    'gen_ai.tool.name': waiting.name,
    'gen_ai.tool.call.id': waiting.toolCallId,
    'skilltree.wait.for': waiting.for,
    'skilltree.wait.answer': answer,
  };
  // Never after now: a clock ahead in the process that recorded it (or a tampered record) would
  // make the span end before it starts.
  const now = Date.now();
  const since = waiting.since === undefined ? undefined : Math.min(waiting.since, now);
  const options: { kind: number; attributes: typeof attributes; startTime?: number } = {
    kind: SPAN_KIND.internal,
    attributes,
  };
  if (since !== undefined) {
    attributes['skilltree.wait.ms'] = now - since;
    options.startTime = since;
  }
  startSpan(tracing, `wait_tool ${waiting.name}`, options, context).span.end();
}

/**
 * The traces of one turn, as a {@link TurnHook}: its `invoke_agent` span (or the one
 * `createSessions` opened before the lease, `adopted`), a `chat {model}` span per model call, an
 * `execute_tool {tool}` span per tool call and a `wait_tool {tool}` span per answered wait.
 * `describe` is what the turn was asked (recorded only with `recordContent`).
 */
export function tracingHook(
  state: SessionState,
  model: Model,
  describe: string,
  options: SendOptions | undefined,
  adopted?: Open,
): TurnHook {
  let span: TurnSpan = null;
  return {
    async start() {
      if (adopted && !adopted.ended) adoptTurnSpan(state, adopted);
      span = await startTurnSpan(state, model, describe, options);
    },
    aroundModelCall: ({ request, step }, inner) => traceModelCall(state, model, request, step, inner),
    toolCallAhead: (call) => void startToolSpan(state, call, true),
    toolCall: (call) => traceToolCall(state, call),
    answered: (waiting, answer) => traceWait(state, waiting, answer),
    end: (outcome) => {
      endCallsLeft(state, outcome.error);
      endTurnSpan(state, span, model, outcome);
    },
  };
}

/** How many files a request carries and their size in bytes: counts only, never content. */
function fileAttributes(request: ModelRequest): Record<string, number> {
  let count = 0;
  let bytes = 0;
  for (const message of request.appendOnly?.items ?? request.messages) {
    if (message.role === 'system') continue;
    for (const part of message.content) {
      if (part.type !== 'file') continue;
      count++;
      bytes += fileBytes(part);
    }
  }
  return count === 0 ? {} : { 'skilltree.request.files': count, 'skilltree.request.file_bytes': bytes };
}
