/**
 * OpenTelemetry traces of a session: a span per turn (`invoke_agent`), per model call
 * (`chat {model}`), per tool call (`execute_tool {tool}`) and per skill load and unload, nested as
 * they happen, with the GenAI semantic conventions' `gen_ai.*` attributes and skilltree's own under
 * `skilltree.*`.
 *
 * `@opentelemetry/api` is an optional peer: it is imported lazily, once per process, the first
 * time a traced session is made. Without it nothing is traced and nothing fails; with it but no SDK
 * registered, spans are the API's non-recording spans and no attribute is computed. The parent of
 * each span is passed explicitly, so nesting needs no context manager.
 */

import { estimateCost, priceFor } from './cost.js';
import { fileBytes } from './files.js';
import { textOf } from './parts.js';
import { type SessionState, tree } from './state.js';
import type { Identity, Open, OpenTelemetryApi, TelemetrySpan, Tracing } from './telemetry-types.js';
import type { TurnHook } from './turn-hooks.js';
import type {
  Message,
  Model,
  ModelRequest,
  ModelResponse,
  SendOptions,
  SessionEvent,
  SessionOptions,
  TelemetryAttributeValue,
  TelemetryOptions,
  ToolCall,
  ToolMessage,
  Turn,
  UnloadReason,
  Usage,
  WaitingCall,
} from './types.js';

// ───────────────────────────── the API, loaded lazily ─────────────────────────────

export type { Identity, Open, OpenTelemetryApi, TelemetrySpan, Tracing } from './telemetry-types.js';

/** `SpanKind` and `SpanStatusCode` of the API (stable numbers). */
export const SPAN_KIND = { internal: 0, server: 1, client: 2 } as const;
const STATUS_ERROR = 2;

const API_MODULE = '@opentelemetry/api';
let api: OpenTelemetryApi | null | undefined;
let loading: Promise<OpenTelemetryApi | null> | undefined;

/**
 * `@opentelemetry/api`, imported once per process, or null when it is not installed. Core and
 * `@skilltree/server` trace through it; nothing else of OpenTelemetry is needed.
 */
export function loadOpenTelemetry(): Promise<OpenTelemetryApi | null> {
  loading ??= import(/* @vite-ignore */ API_MODULE).then(
    (module: Record<string, unknown>) => {
      const found = (module.trace ? module : module.default) as OpenTelemetryApi | undefined;
      api = found?.trace ? found : null;
      return api;
    },
    () => {
      api = null;
      return null;
    },
  );
  return loading;
}

// ───────────────────────────── a session's tracing ─────────────────────────────

/** @internal The telemetry option as options, or null when tracing is off. */
export function telemetryOptions(option: SessionOptions['telemetry']): TelemetryOptions | null {
  if (option === false || (typeof option === 'object' && option !== null && option.enabled === false)) return null;
  return typeof option === 'object' && option !== null ? option : {};
}

function optionsOf(state: SessionState): TelemetryOptions | null {
  return telemetryOptions(state.options.telemetry);
}

/**
 * Names the session on its spans: `createSessions` calls this with the session id and owner. A
 * session made with `createSession` has `telemetry.conversationId`, or a random id.
 */
export function identifySession(state: SessionState, sessionId: string, owner?: string | null): void {
  state.identity = owner ? { sessionId, owner } : { sessionId };
  state.tracing = undefined;
}

/** The session's tracing, or null when it is off or the API is absent (or not loaded yet). */
function tracingOf(state: SessionState): Tracing | null {
  if (state.tracing !== undefined) return state.tracing;
  const options = optionsOf(state);
  if (!options) {
    state.tracing = null;
    return null;
  }
  if (api === undefined) {
    void loadOpenTelemetry();
    return null;
  }
  if (api === null) {
    state.tracing = null;
    return null;
  }
  state.identity ??= { sessionId: options.conversationId ?? randomId() };
  state.tracing = newTracing(api, options, state.identity);
  return state.tracing;
}

/** @internal A tracing for spans named after `identity`. */
export function newTracing(api: OpenTelemetryApi, options: TelemetryOptions, identity: Identity): Tracing {
  const common: Record<string, TelemetryAttributeValue> = {
    ...options.attributes,
    'gen_ai.conversation.id': identity.sessionId,
    'skilltree.session.id': identity.sessionId,
  };
  if (identity.owner) common['skilltree.owner'] = identity.owner;
  return {
    api,
    tracer: options.tracer ?? api.trace.getTracer('@skilltree/core'),
    recordContent: options.recordContent === true,
    agentName: options.agentName,
    common,
    stack: [],
    muted: false,
  };
}

/**
 * Gives `state` the tracing of a turn `createSessions` opened (`open`, the turn's span): the
 * session's turn then records on that span (see {@link startTurnSpan}).
 */
function adoptTurnSpan(state: SessionState, open: Open): void {
  state.tracing = open.tracing;
  open.tracing.adopted = { open, failed: false };
}

/**
 * @internal Ends a turn span `createSessions` opened: `error` (a lease refused, a load or a commit
 * that failed) fails it unless the turn recorded a failure already. Later spans start a new trace.
 */
export function endAdoptedTurn(open: Open, error?: unknown): void {
  const { tracing } = open;
  const failed = tracing.adopted?.open === open && tracing.adopted.failed;
  if (error !== undefined && open.span.isRecording() && !failed) fail(open, error, 'The turn');
  tracing.adopted = undefined;
  end(open);
  tracing.stack.length = 0;
  tracing.muted = false;
}

/** Resolves once the API is loaded (or known absent), so that a turn's first span is not missed. */
export async function tracingReady(state: SessionState): Promise<void> {
  if (api === undefined && optionsOf(state)) await loadOpenTelemetry();
}

function randomId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** @internal Starts a span under the innermost open one (or `parent`), and pushes it. */
export function start(
  tracing: Tracing,
  name: string,
  kind: number,
  attributes: Record<string, TelemetryAttributeValue>,
  parent?: unknown,
): Open {
  // Only an OpenTelemetry Context is a parent: anything else a caller passes is ignored, not a crash.
  const given = isContext(parent) ? parent : undefined;
  const context = given ?? tracing.stack[tracing.stack.length - 1]?.context ?? tracing.api.context.active();
  const started = startSpan(tracing, name, { kind, attributes: { ...tracing.common, ...attributes } }, context);
  const { span } = started;
  tracing.stack.push({ span, context: started.context });
  return { tracing, span, ended: false };
}

/** A span that records nothing: what a tracer that failed to start one gives instead. */
const NOOP_SPAN: TelemetrySpan = {
  setAttribute: () => undefined,
  setAttributes: () => undefined,
  setStatus: () => undefined,
  recordException: () => undefined,
  updateName: () => undefined,
  isRecording: () => false,
  end: () => undefined,
};

let tracerFailure = false;
/** Reported once per process: tracing is for watching the agent, never a reason a turn fails. */
function tracerFailed(error: unknown): void {
  if (tracerFailure) return;
  tracerFailure = true;
  const message = error instanceof Error ? error.message : String(error);
  console.warn(`@skilltree/core: the OpenTelemetry tracer threw (${message}); the turn goes on without that span.`);
}

/** `span` with every method guarded: a throwing exporter or processor never reaches the turn. */
function guardedSpan(span: TelemetrySpan): TelemetrySpan {
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => R, fallback: R) =>
    (...args: A): R => {
      try {
        return fn.apply(span, args);
      } catch (error) {
        tracerFailed(error);
        return fallback;
      }
    };
  return {
    setAttribute: guard(span.setAttribute, undefined),
    setAttributes: guard(span.setAttributes, undefined),
    setStatus: guard(span.setStatus, undefined),
    recordException: guard(span.recordException, undefined),
    updateName: guard(span.updateName, undefined),
    isRecording: guard(span.isRecording, false),
    end: guard(span.end, undefined),
  };
}

/**
 * Starts a span: the guarded span skilltree calls, and the context its children start in (made from
 * the tracer's own span, which the SDK reads its ids from). A tracer that throws gives a span that
 * records nothing, under the parent's context.
 */
function startSpan(
  tracing: Tracing,
  name: string,
  options: object,
  context: unknown,
): { span: TelemetrySpan; context: unknown } {
  try {
    const span = tracing.tracer.startSpan(name, options, context) as TelemetrySpan | null | undefined;
    if (!span || typeof span.end !== 'function') return { span: NOOP_SPAN, context };
    return { span: guardedSpan(span), context: tracing.api.trace.setSpan(context, span) };
  } catch (error) {
    tracerFailed(error);
    return { span: NOOP_SPAN, context };
  }
}

function isContext(value: unknown): boolean {
  return typeof (value as { getValue?: unknown } | null)?.getValue === 'function';
}

/** @internal Ends `open`'s span and pops it (with anything left open inside it). */
export function end(open: Open): void {
  if (open.ended) return;
  open.ended = true;
  const { stack } = open.tracing;
  // Normally the innermost open span; anything opened inside it and left open is dropped with it.
  const index = stack.findLastIndex((entry) => entry.span === open.span);
  if (index !== -1) stack.length = index;
  open.span.end();
}

/** An error's name as `error.type` when it looks like a class name (never free text a thrower chose). */
const ERROR_TYPE = /^[A-Za-z_$][\w$.-]{0,63}$/;

/** The `error.type` of `error`: its name when that is an identifier, else `fallback`. */
export function errorTypeOf(error: unknown, fallback = 'Error'): string {
  const name = error instanceof Error ? error.name : undefined;
  return typeof name === 'string' && ERROR_TYPE.test(name) ? name : fallback;
}

/**
 * What a failed span says without content recording: what failed and the error's type. An error's
 * message and stack can carry anything (a connection string, a path, the user's data), so, as the
 * server does with tool errors in the UI stream, they stay off the span unless
 * `telemetry.recordContent` is on.
 */
export function redactedStatus(what: string, type: string): string {
  return `${what} failed (${type}); its message is recorded only with telemetry.recordContent.`;
}

/**
 * Marks `open`'s span as failed: `error.type` and ERROR status always; the message (status
 * description) and the exception with its stack only with `recordContent`. Without it the
 * `exception` event carries the type alone, and the description is {@link redactedStatus}.
 *
 * @internal
 */
export function fail(open: Open, error: unknown, what: string, type?: string): void {
  const { span, tracing } = open;
  const kind = type ?? errorTypeOf(error);
  span.setAttribute('error.type', kind);
  if (tracing.recordContent) {
    const exception = error instanceof Error ? error : new Error(String(error));
    span.recordException(exception);
    span.setStatus({ code: STATUS_ERROR, message: exception.message });
    return;
  }
  // The type alone: no message, no stack (the SDK records only what the object has).
  const bare = new Error();
  bare.name = kind;
  bare.message = '';
  bare.stack = undefined;
  span.recordException(bare);
  span.setStatus({ code: STATUS_ERROR, message: redactedStatus(what, kind) });
}

// ───────────────────────────── attributes ─────────────────────────────

/**
 * Provider and model of a model's `name`: `anthropic:claude-sonnet-4-5` → `anthropic`,
 * `claude-sonnet-4-5`; `ai-sdk:openai.chat:gpt-4o` → `openai`, `gpt-4o`; a name without a provider
 * names both.
 */
export function modelIdentity(name: string | undefined): { provider: string; model: string } {
  const full = name || 'unknown';
  const parts = full.split(':');
  if (parts.length === 1) return { provider: full, model: full };
  if (parts.length >= 3) return { provider: parts[1].split('.')[0] || parts[0], model: parts.slice(2).join(':') };
  return { provider: parts[0], model: parts[1] };
}

function usageAttributes(
  usage: Usage | undefined,
  modelName: string | undefined,
): Record<string, TelemetryAttributeValue> {
  if (!usage) return {};
  const out: Record<string, TelemetryAttributeValue> = {};
  if (usage.inputTokens !== undefined) out['gen_ai.usage.input_tokens'] = usage.inputTokens;
  if (usage.outputTokens !== undefined) out['gen_ai.usage.output_tokens'] = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined) out['gen_ai.usage.cache_read.input_tokens'] = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) out['gen_ai.usage.cache_creation.input_tokens'] = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) out['gen_ai.usage.reasoning.output_tokens'] = usage.reasoningTokens;
  if (usage.estimated) out['skilltree.usage.estimated'] = true;
  const price = modelName ? priceFor(modelName) : undefined;
  if (price) out['skilltree.cost.usd'] = estimateCost(usage, price).total;
  return out;
}

function genAiText(content: string) {
  return { type: 'text', content };
}

/** A message in the GenAI conventions' JSON message format. */
function genAiMessage(message: Message): object {
  if (message.role === 'tool') {
    return {
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: message.toolCallId, response: textOf(message) }],
    };
  }
  const parts: object[] = [];
  for (const part of message.content) {
    // The GenAI conventions' reasoning part; signatures and encrypted content stay out of traces.
    if (part.type === 'reasoning' && part.text) parts.push({ type: 'reasoning', content: part.text });
  }
  const text = textOf(message);
  if (text) parts.push(genAiText(text));
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input });
    }
  }
  return { role: message.role, parts };
}

function agentAttributes(tracing: Tracing, model: Model): Record<string, TelemetryAttributeValue> {
  const { provider, model: requested } = modelIdentity(model.name);
  const out: Record<string, TelemetryAttributeValue> = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': provider,
    'gen_ai.request.model': requested,
  };
  if (tracing.agentName) out['gen_ai.agent.name'] = tracing.agentName;
  return out;
}

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
    span.setAttribute('skilltree.skills.loaded', [...state.loaded]);
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

/** The session's tracing, unless off or muted for an untraced turn. */
function active(state: SessionState): Tracing | null {
  const tracing = tracingOf(state);
  return tracing && !tracing.muted ? tracing : null;
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
      'skilltree.skills.loaded': [...state.loaded],
      'skilltree.window.messages': request.messages.length,
      // Files by count and size, never their bytes.
      ...fileAttributes(request),
      'skilltree.context_placement': request.contextPlacement,
    });
    if (state.windowStart !== undefined) span.setAttribute('skilltree.window.start', state.windowStart);
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

/** Starts the `execute_tool {tool}` span of `call`. */
function startToolSpan(state: SessionState, call: ToolCall): ToolSpan {
  const tracing = active(state);
  if (!tracing) return null;
  const open = start(tracing, `execute_tool ${call.name}`, SPAN_KIND.internal, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.name,
    'gen_ai.tool.call.id': call.id,
    'gen_ai.tool.type': 'function',
  });
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
  const open = startToolSpan(state, call);
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
    toolCall: (call) => traceToolCall(state, call),
    answered: (waiting, answer) => traceWait(state, waiting, answer),
    end: (outcome) => endTurnSpan(state, span, model, outcome),
  };
}

/** Runs a skill read inside its `load_skill {name}` span; unloads it causes nest under it. */
export async function traceLoad<T extends { ok: boolean; error?: string; mounted?: boolean; unloaded?: string[] }>(
  state: SessionState,
  name: string,
  load: () => Promise<T>,
): Promise<T> {
  const tracing = active(state);
  if (!tracing) return load();
  const open = start(tracing, `load_skill ${name}`, SPAN_KIND.internal, {
    'skilltree.operation.name': 'load_skill',
    'skilltree.skill': name,
  });
  try {
    const outcome = await load();
    if (open.span.isRecording()) {
      if (outcome.ok) {
        open.span.setAttributes({
          'skilltree.skill.mounted': outcome.mounted === true,
          'skilltree.skills.loaded': [...state.loaded],
        });
        if (outcome.unloaded?.length) open.span.setAttribute('skilltree.skill.unloaded', outcome.unloaded);
      } else {
        fail(open, new Error(outcome.error ?? 'The read was refused.'), 'The skill load', 'skill_refused');
      }
    }
    return outcome;
  } catch (error) {
    fail(open, error, 'The skill load');
    throw error;
  } finally {
    end(open);
  }
}

/** Records an unload as an `unload_skill {name}` span under whatever caused it (a load, a tool call, a turn). */
export function traceUnload(state: SessionState, name: string, why: UnloadReason | undefined): void {
  const tracing = active(state);
  if (!tracing) return;
  const open = start(tracing, `unload_skill ${name}`, SPAN_KIND.internal, {
    'skilltree.operation.name': 'unload_skill',
    'skilltree.skill': name,
  });
  if (why && open.span.isRecording()) {
    open.span.setAttribute('skilltree.skill.unload_reason', why.reason);
    if (why.reason === 'lru') open.span.setAttribute('skilltree.skill.unloaded_by', why.by);
    // What broke is the skill's error text: content, like an error message.
    if (why.reason === 'error' && tracing.recordContent) {
      open.span.setAttribute('skilltree.skill.unload_detail', why.detail);
    }
  }
  end(open);
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
