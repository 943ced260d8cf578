/**
 * `skilltree serve --otlp <url>` (or `$OTEL_EXPORTER_OTLP_ENDPOINT`): sets up the OpenTelemetry SDK
 * so that the traces of every request and turn are exported over OTLP/HTTP. The SDK packages are
 * optional peers of the CLI, loaded only here; without them, one line says what to install.
 */
import type { TelemetryOptions } from '@skilltree/core';
import type { ServerTelemetry } from '@skilltree/server';
import { CliError, errorMessage } from '../../kit/errors.js';

/** The OpenTelemetry packages `--otlp` needs, as `npm install` takes them. */
export const OTLP_PACKAGES = [
  '@opentelemetry/api@1.9',
  '@opentelemetry/sdk-trace-base@2.12',
  '@opentelemetry/exporter-trace-otlp-http@0.223',
];

/** Where traces go: `--otlp`, else the standard OpenTelemetry variables; null when neither is set. */
export function otlpEndpoint(flag: string | undefined, env: Record<string, string | undefined>): string | null {
  if (flag) return flag.trim();
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return `${base.replace(/\/+$/, '')}/v1/traces`;
  return null;
}

/** The SDK, exporting to one endpoint; `shutdown` flushes what is left. */
export interface Tracing {
  endpoint: string;
  shutdown(): Promise<void>;
}

type Module = Record<string, unknown>;

/** Optional: names the service in the traces when installed (a dependency of the SDK in most installs). */
const RESOURCES: string = '@opentelemetry/resources';

async function load(name: string): Promise<Module> {
  try {
    return (await import(/* @vite-ignore */ name)) as Module;
  } catch (error) {
    throw new CliError(
      `--otlp needs the OpenTelemetry SDK, which is not installed (${name}: ${errorMessage(error).split('\n')[0]}). ` +
        `Install it next to skilltree: npm install ${OTLP_PACKAGES.join(' ')}`,
    );
  }
}

/**
 * Registers a tracer provider that batches spans to `endpoint` (OTLP/HTTP, JSON), with
 * `service.name` from `$OTEL_SERVICE_NAME` (default `skilltree`) when `@opentelemetry/resources` is
 * installed. Core and the server trace through it.
 */
export async function startTracing(endpoint: string, env: Record<string, string | undefined>): Promise<Tracing> {
  const api = await load('@opentelemetry/api');
  const sdk = await load('@opentelemetry/sdk-trace-base');
  const otlp = await load('@opentelemetry/exporter-trace-otlp-http');
  type Ctor = new (...args: unknown[]) => Record<string, (...args: unknown[]) => unknown>;
  const exporter = new (otlp.OTLPTraceExporter as Ctor)({ url: endpoint });
  const config: Record<string, unknown> = {
    spanProcessors: [new (sdk.BatchSpanProcessor as Ctor)(exporter)],
  };
  const resources = (await import(/* @vite-ignore */ RESOURCES).catch(() => null)) as Module | null;
  if (typeof resources?.resourceFromAttributes === 'function') {
    config.resource = resources.resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'skilltree' });
  }
  const provider = new (sdk.BasicTracerProvider as Ctor)(config);
  (api.trace as { setGlobalTracerProvider(p: unknown): boolean }).setGlobalTracerProvider(provider);
  return {
    endpoint,
    async shutdown() {
      await (provider.shutdown() as Promise<void>).catch(() => {});
    },
  };
}

/** How `serve` traces its sessions and its requests; undefined leaves the default (on). */
export interface ServeTelemetry {
  /** `createSessions({ telemetry })`. */
  sessions?: boolean | TelemetryOptions;
  /** `createHandler({ telemetry })`. */
  handler?: ServerTelemetry;
  /** Set when `--otlp` overrode part of the module's export: a line for stderr that says what. */
  notice?: string;
}

/**
 * The tracing of `serve` from the module's `telemetry` export and `--otlp` (or its variables). The
 * module's export applies to both the sessions and the request spans. With `--otlp` the flag wins:
 * tracing is on and the spans go to its exporter, so the module's `enabled: false` (or `false`)
 * and its `tracer` give way, while the rest of its options (`recordContent`, `agentName`,
 * `attributes`) still apply.
 */
export function serveTelemetry(own: boolean | TelemetryOptions | undefined, otlp: boolean): ServeTelemetry {
  if (own === undefined) return {};
  if (typeof own === 'boolean') {
    if (!otlp || own) return { sessions: own, handler: own };
    return { notice: 'skilltree serve: --otlp turns tracing on although the module exports telemetry = false.' };
  }
  if (!otlp) {
    const handler: ServerTelemetry =
      own.enabled === false ? false : own.tracer !== undefined ? { tracer: own.tracer } : true;
    return { sessions: own, handler };
  }
  const { tracer, enabled, ...kept } = own;
  const overridden = [tracer !== undefined ? 'tracer' : '', enabled === false ? 'enabled: false' : ''].filter(Boolean);
  return {
    sessions: kept,
    handler: true,
    ...(overridden.length > 0
      ? {
          notice: `skilltree serve: --otlp sends the spans to its exporter; the module's telemetry ${overridden.join(' and ')} ${overridden.length > 1 ? 'are' : 'is'} not used.`,
        }
      : {}),
  };
}
