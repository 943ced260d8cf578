import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Call once at start-up, before the first turn. Every session (createSession, createSessions, the
 * server) then sends its spans here. `service` is the name your backend lists the traces under
 * (`service.name`); `url` is your collector's or backend's OTLP/HTTP traces endpoint.
 */
export function startTracing({
  service = 'shop-agent',
  url = 'http://localhost:4318/v1/traces',
}: {
  service?: string;
  url?: string;
} = {}): () => Promise<void> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  trace.setGlobalTracerProvider(provider);
  return () => provider.shutdown(); // flushes what is left: call it before the process exits
}
