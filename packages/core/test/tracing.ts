/**
 * Traces for tests, with the real OpenTelemetry SDK: a tracer whose spans land in an in-memory
 * exporter. Every provider `tracing()` makes is shut down by `shutDownTracing()` (each file calls it
 * after each test).
 *
 * Tests that ask which span came first read `order`, the sequence in which spans started and ended,
 * never their timestamps: two spans can start in the same clock tick on a busy machine, and a span
 * given an explicit start time (a wait that began in another process) starts in the past.
 */
import type { Context } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

const made: BasicTracerProvider[] = [];

/** Where a span's start or end stands in the sequence of every start and end of a provider's spans. */
export interface SpanOrder {
  /** The position of the span's start (when the code started it). */
  started(span: ReadableSpan): number;
  /** The position of the span's end. */
  ended(span: ReadableSpan): number;
  /** A comparator for `sort`: spans in the order they were started. */
  byStart(a: ReadableSpan, b: ReadableSpan): number;
  /** A comparator for `sort`: spans in the order they were ended. */
  byEnd(a: ReadableSpan, b: ReadableSpan): number;
}

/** Records every span's start and end as it happens, so tests compare what caused what. */
function spanOrder(): { processor: SpanProcessor; order: SpanOrder } {
  const events: string[] = [];
  const at = (kind: 'start' | 'end', span: ReadableSpan) => {
    const index = events.indexOf(`${kind} ${span.spanContext().spanId}`);
    if (index < 0) throw new Error(`span ${span.name} has no ${kind} in this provider's order`);
    return index;
  };
  const processor: SpanProcessor = {
    onStart: (span: Span, _context: Context) => void events.push(`start ${span.spanContext().spanId}`),
    onEnd: (span: ReadableSpan) => void events.push(`end ${span.spanContext().spanId}`),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const order: SpanOrder = {
    started: (span) => at('start', span),
    ended: (span) => at('end', span),
    byStart: (a, b) => at('start', a) - at('start', b),
    byEnd: (a, b) => at('end', a) - at('end', b),
  };
  return { processor, order };
}

/** A tracer provider whose finished spans `exporter` keeps, its tracer, and the order of its spans. */
export function tracing() {
  const exporter = new InMemorySpanExporter();
  const { processor, order } = spanOrder();
  const provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(exporter)] });
  made.push(provider);
  return { exporter, provider, tracer: provider.getTracer('test'), order };
}

/** Shuts down every provider made since the last call. */
export async function shutDownTracing(): Promise<void> {
  for (const provider of made.splice(0)) await provider.shutdown();
}
