/**
 * Traces of the handler: a server span per HTTP request (`POST /api/chat`), the turn's spans under
 * it, and the caller's trace continued from an incoming `traceparent` header. Through
 * `@opentelemetry/api` as core loads it (an optional peer): without it, or with tracing off, the
 * handler runs as it would without this file.
 */
import {
  errorTypeOf,
  loadOpenTelemetry,
  type OpenTelemetryApi,
  redactedStatus,
  SPAN_KIND,
  type TelemetrySpan,
  type TelemetryTracer,
} from '@skilltree/core/provider';

/** How the handler traces: on by default (spans go to the registered tracer provider), `false` for off. */
export type ServerTelemetry = boolean | ServerTelemetryOptions;

/** The object form of {@link ServerTelemetry}. */
export interface ServerTelemetryOptions {
  /** `false` turns the request spans off. Default true. */
  enabled?: boolean;
  /** The tracer. Default: `trace.getTracer('@skilltree/server')` from `@opentelemetry/api`. */
  tracer?: TelemetryTracer;
  /**
   * Put the message (and stack) of an error that failed a request on its span. Default false: a
   * failed request span carries `error.type` and a generic status description only, as core's
   * spans do without `telemetry.recordContent` (an error's text can name hosts, users, paths).
   */
  recordContent?: boolean;
}

/** The span of one request; the response ends it (a streamed response when its body ends). */
export interface RequestSpan {
  /** The context the turn's span is a child of. */
  context: unknown;
  /** Ends the span with the response's status; a streamed body ends it when the stream ends. */
  finish(response: Response): Response;
  /** Ends the span with an error that escaped (a 500). */
  fail(error: unknown): void;
}

const STATUS_ERROR = 2;
const contexts = new WeakMap<Request, unknown>();

/** The trace context of a request the handler traces (for the turn it starts), or undefined. */
export function traceContextOf(request: Request): unknown {
  return contexts.get(request);
}

const headerGetter = {
  keys: (carrier: unknown) => [...(carrier as Headers).keys()],
  get: (carrier: unknown, key: string) => (carrier as Headers).get(key) ?? undefined,
};

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The caller's context: what the registered propagator extracts, else (no propagator registered,
 * as with a bare `BasicTracerProvider`) the W3C `traceparent` header read directly.
 */
function parentOf(api: OpenTelemetryApi, headers: Headers): unknown {
  const extracted = api.propagation.extract(api.ROOT_CONTEXT, headers, headerGetter);
  if (api.trace.getSpanContext(extracted)) return extracted;
  const match = TRACEPARENT.exec(headers.get('traceparent')?.trim().toLowerCase() ?? '');
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return extracted;
  return api.trace.setSpanContext(extracted, {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16) & 1,
    isRemote: true,
  });
}

/**
 * Starts the server span of `request`, named `{method} {route}` (`route` is the template, e.g.
 * `/api/chat/:id`, or null outside the handler's routes). Null when tracing is off or unavailable.
 */
export async function startRequestSpan(
  request: Request,
  route: string | null,
  telemetry: ServerTelemetry | undefined,
): Promise<RequestSpan | null> {
  // Tracing watches the server; a tracer that throws must never turn a request into a 500.
  try {
    return await requestSpan(request, route, telemetry);
  } catch {
    return null;
  }
}

async function requestSpan(
  request: Request,
  route: string | null,
  telemetry: ServerTelemetry | undefined,
): Promise<RequestSpan | null> {
  if (telemetry === false || (typeof telemetry === 'object' && telemetry.enabled === false)) return null;
  const api = await loadOpenTelemetry();
  if (!api) return null;
  const tracer =
    (typeof telemetry === 'object' ? telemetry.tracer : undefined) ?? api.trace.getTracer('@skilltree/server');
  const recordContent = typeof telemetry === 'object' && telemetry.recordContent === true;
  const method = request.method.toUpperCase();
  const url = new URL(request.url);
  const attributes: Record<string, string> = {
    'http.request.method': method,
    'url.path': url.pathname,
    'url.scheme': url.protocol.replace(/:$/, ''),
  };
  if (route) attributes['http.route'] = route;
  const parent = parentOf(api, request.headers);
  const span = tracer.startSpan(
    route ? `${method} ${route}` : method,
    { kind: SPAN_KIND.server, attributes },
    parent,
  ) as TelemetrySpan;
  const context = api.trace.setSpan(parent, span);
  contexts.set(request, context);
  let ended = false;
  const end = (status: number, error?: unknown) => {
    if (ended) return;
    ended = true;
    // A span that throws is the tracer's problem, never the response's; it still ends.
    try {
      record(status, error);
    } catch {}
    try {
      span.end();
    } catch {}
  };
  const record = (status: number, error?: unknown) => {
    span.setAttribute('http.response.status_code', status);
    // Server spans: a 4xx is the client's mistake, not an error of this server.
    if (status >= 500 || error !== undefined) {
      const type = error === undefined ? String(status) : errorTypeOf(error, String(status));
      span.setAttribute('error.type', type);
      if (!recordContent) {
        // The error's text stays on the server (its log), as in the UI stream.
        span.setStatus({ code: STATUS_ERROR, message: redactedStatus('The request', type) });
      } else {
        const exception = error instanceof Error ? error : new Error(String(error ?? `HTTP ${status}`));
        if (error !== undefined) span.recordException(exception);
        span.setStatus({ code: STATUS_ERROR, message: exception.message });
      }
    }
  };
  return {
    context,
    fail: (error) => end(500, error),
    finish(response) {
      const streamed = response.body && /^text\/event-stream/i.test(response.headers.get('content-type') ?? '');
      if (!streamed) {
        end(response.status);
        return response;
      }
      return endWithBody(response, (error) => end(response.status, error));
    },
  };
}

/** `response` with a body that calls `done` when it ends, fails or is cancelled (the turn runs while it streams). */
function endWithBody(response: Response, done: (error?: unknown) => void): Response {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          controller.close();
          done();
        } else controller.enqueue(value);
      } catch (error) {
        done(error);
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
