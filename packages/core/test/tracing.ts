/**
 * Traces for tests, with the real OpenTelemetry SDK: a tracer whose spans land in an in-memory
 * exporter. Every provider `tracing()` makes is shut down by `shutDownTracing()` (each file calls it
 * after each test).
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const made: BasicTracerProvider[] = [];

/** A tracer provider whose finished spans `exporter` keeps, and its tracer. */
export function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  made.push(provider);
  return { exporter, provider, tracer: provider.getTracer('test') };
}

/** Shuts down every provider made since the last call. */
export async function shutDownTracing(): Promise<void> {
  for (const provider of made.splice(0)) await provider.shutdown();
}
