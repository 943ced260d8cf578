import type { SessionState } from '../state/state.js';
import type { SessionOptions, TelemetryAttributeValue, TelemetryOptions } from '../types/options.js';
import type { Identity, Open, OpenTelemetryApi, TelemetrySpan, Tracing } from '../types/telemetry.js';

// ───────────────────────────── the API, loaded lazily ─────────────────────────────

export type { Identity, Open, OpenTelemetryApi, TelemetrySpan, Tracing } from '../types/telemetry.js';

/** `SpanKind` and `SpanStatusCode` of the API (stable numbers). */
export const SPAN_KIND = { internal: 0, server: 1, client: 2 } as const;
const STATUS_ERROR = 2;

const API_MODULE = '@opentelemetry/api';
export let api: OpenTelemetryApi | null | undefined;
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
  state.tracing.identity = owner ? { sessionId, owner } : { sessionId };
  state.tracing.tracing = undefined;
}

/** The session's tracing, or null when it is off or the API is absent (or not loaded yet). */
export function tracingOf(state: SessionState): Tracing | null {
  if (state.tracing.tracing !== undefined) return state.tracing.tracing;
  const options = optionsOf(state);
  if (!options) {
    state.tracing.tracing = null;
    return null;
  }
  if (api === undefined) {
    void loadOpenTelemetry();
    return null;
  }
  if (api === null) {
    state.tracing.tracing = null;
    return null;
  }
  state.tracing.identity ??= { sessionId: options.conversationId ?? randomId() };
  state.tracing.tracing = newTracing(api, options, state.tracing.identity);
  return state.tracing.tracing;
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
export function adoptTurnSpan(state: SessionState, open: Open): void {
  state.tracing.tracing = open.tracing;
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

/**
 * @internal Starts a span under the innermost open one without pushing it, for spans that run side
 * by side (the tool calls of a step whose runs start together); {@link enter} pushes it later.
 */
export function startAside(
  tracing: Tracing,
  name: string,
  kind: number,
  attributes: Record<string, TelemetryAttributeValue>,
): { open: Open; context: unknown } {
  const parent = tracing.stack[tracing.stack.length - 1]?.context ?? tracing.api.context.active();
  const started = startSpan(tracing, name, { kind, attributes: { ...tracing.common, ...attributes } }, parent);
  return { open: { tracing, span: started.span, ended: false }, context: started.context };
}

/** @internal Pushes a span started aside: the spans that start next nest under it until it ends. */
export function enter(open: Open, context: unknown): void {
  if (!open.ended) open.tracing.stack.push({ span: open.span, context });
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
    ...(typeof span.addLink === 'function' ? { addLink: guard(span.addLink, undefined) } : {}),
  };
}

/**
 * Starts a span: the guarded span skilltree calls, and the context its children start in (made from
 * the tracer's own span, which the SDK reads its ids from). A tracer that throws gives a span that
 * records nothing, under the parent's context.
 */
export function startSpan(
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

/** The session's tracing, unless off or muted for an untraced turn. */
export function active(state: SessionState): Tracing | null {
  const tracing = tracingOf(state);
  return tracing && !tracing.muted ? tracing : null;
}
