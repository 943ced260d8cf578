/**
 * The provider SDK's own OpenTelemetry spans, nested under skilltree's. `@anthropic-ai/sdk` starts a
 * span per API call (`anthropic.messages.create`) as a child of the *active* context. skilltree
 * passes parents explicitly and needs no context manager, so without one that span would start a
 * trace of its own, beside the turn's, and count the call's tokens a second time. The adapter turns
 * the SDK's spans off unless asked (`sdkSpans: true`); when asked, the SDK's client gets this
 * tracer provider, whose spans start under the model call's span (`ModelCallOptions.traceContext`).
 */
import { loadOpenTelemetry, type OpenTelemetryApi, type TelemetryTracer } from '@skilltree/core/provider';

/** A tracer provider for an SDK client, and the way to parent the spans of one call. */
export interface NestedSpans {
  /** The `tracerProvider` of the SDK client's `openTelemetry` option. */
  readonly provider: { getTracer(name: string, version?: string): TelemetryTracer };
  /** Loads `@opentelemetry/api` (once) before the first call, so the first call has its span. */
  ready(): Promise<void>;
  /**
   * Runs `call`, which starts the SDK's span synchronously (as the SDK's methods do before their
   * first `await`), with `parent` (an OpenTelemetry `Context`) as that span's parent.
   */
  within<T>(parent: unknown, call: () => T): T;
}

/** Spans of an SDK client that nest under the model call that made them. */
export function nestedSpans(): NestedSpans {
  let api: OpenTelemetryApi | null = null;
  let parent: unknown;
  return {
    provider: {
      getTracer: (name, version) => ({
        startSpan(spanName, options, context) {
          // The SDK guards its tracing: a throw here costs the call its span, never the call.
          if (!api) throw new Error('@opentelemetry/api is not installed or not loaded yet.');
          const tracer = api.trace.getTracerProvider().getTracer(name, version);
          return tracer.startSpan(spanName, options, context ?? parent ?? api.context.active());
        },
      }),
    },
    async ready() {
      api ??= await loadOpenTelemetry();
    },
    within(next, call) {
      const before = parent;
      parent = next;
      try {
        return call();
      } finally {
        parent = before;
      }
    },
  };
}
