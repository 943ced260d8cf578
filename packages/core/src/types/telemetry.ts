/**
 * The shapes tracing works with: the parts of `@opentelemetry/api` skilltree uses, and a session's
 * tracing as `telemetry.ts` keeps it on the session state.
 */
import type { TelemetryAttributeValue, TelemetryTracer } from './options.js';

/** An OpenTelemetry span, as far as skilltree uses it (a `Span` of `@opentelemetry/api` is one). */
export interface TelemetrySpan {
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  setAttributes(attributes: Record<string, TelemetryAttributeValue>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): void;
  updateName(name: string): unknown;
  isRecording(): boolean;
  end(): void;
  /**
   * Links the span to another one (`@opentelemetry/api` 1.9 and later): a recovered durable turn
   * links its span to the span of the attempt that died. Absent on older APIs: no link is made.
   */
  addLink?(link: { context: SpanIds & { traceFlags: number; isRemote?: boolean }; attributes?: object }): unknown;
}

/** A span's ids as JSON data (what a durable turn records of its spans, see `observe/trace-links.ts`). */
export interface SpanIds {
  traceId: string;
  spanId: string;
  /** The W3C trace flags (1: sampled). */
  traceFlags?: number;
}

/** The parts of `@opentelemetry/api` skilltree uses: what {@link loadOpenTelemetry} resolves to. */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    getTracerProvider(): { getTracer(name: string, version?: string): TelemetryTracer };
    setSpan(context: unknown, span: unknown): unknown;
    getSpanContext(context: unknown): { traceId: string; spanId: string; traceFlags?: number } | undefined;
    setSpanContext(
      context: unknown,
      spanContext: { traceId: string; spanId: string; traceFlags: number; isRemote?: boolean },
    ): unknown;
  };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  propagation: {
    extract(
      context: unknown,
      carrier: unknown,
      getter?: { keys(c: unknown): string[]; get(c: unknown, key: string): unknown },
    ): unknown;
  };
  ROOT_CONTEXT: unknown;
}

/** @internal A session's tracing (for `telemetry-store`, not exported from the package). */
export interface Tracing {
  api: OpenTelemetryApi;
  tracer: TelemetryTracer;
  recordContent: boolean;
  agentName: string | undefined;
  /** Attributes on every span: the options' own, the session id, the owner. */
  common: Record<string, TelemetryAttributeValue>;
  /** Open spans with their contexts, innermost last: the parent of the next span. */
  stack: { span: TelemetrySpan; context: unknown }[];
  /**
   * The running turn's span does not record (no SDK registered, or sampled out): its model calls,
   * tool calls and loads make no spans either, so an untraced turn costs one no-op span.
   */
  muted: boolean;
  /**
   * The turn span `createSessions` opened before the turn took its lease (see `telemetry-store`):
   * the session's turn goes on in it instead of starting its own, and leaves ending it to the caller.
   */
  adopted?: { open: Open; failed: boolean };
}

/** @internal An open span (for `telemetry-store`). */
export interface Open {
  tracing: Tracing;
  span: TelemetrySpan;
  ended: boolean;
}

/** @internal Who a session's spans name: `gen_ai.conversation.id` and `skilltree.owner`. */
export interface Identity {
  sessionId: string;
  owner?: string;
}
